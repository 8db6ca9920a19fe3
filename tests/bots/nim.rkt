#lang racket/base
;; A Nim bot in Racket, written from the test game's protocol (kernel/arena_kernel/testing/nim.py).
;; Usage: racket nim.rkt. It answers "move <pile>" with "take <k>", leaving a multiple of
;; four when it can. First it writes to stderr what the sandbox tests read (tests/system/sandbox):
;; its process id, how many seccomp filters it runs under and, when $SANDBOX_PEEK names a
;; file, whether it can see that file.
(require racket/file racket/list racket/os racket/string)

(define (filters)
  (define line
    (findf (lambda (line) (string-prefix? line "Seccomp_filters:"))
           (file->lines "/proc/self/status")))
  (second (string-split line)))

(define (report)
  (define peek (getenv "SANDBOX_PEEK"))
  (eprintf "pid ~a, filters ~a~a\n"
           (getpid)
           (filters)
           (if peek
               (format ", ~a ~a" peek (if (file-exists? peek) "visible" "hidden"))
               "")))

(define (answer line)
  (define words (string-split line))
  (when (and (pair? words) (equal? (car words) "move"))
    (define left (modulo (string->number (cadr words)) 4))
    (printf "take ~a\n" (if (zero? left) 1 left))
    (flush-output)))

(report)
(let loop ()
  (define line (read-line (current-input-port) 'linefeed))
  (unless (eof-object? line)
    (answer line)
    (loop)))
