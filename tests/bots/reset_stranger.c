/* A stranger that connects to the arena's port and resets the connection, in a loop.
 *
 *   reset_stranger PORT SECONDS
 *
 * Connects to 127.0.0.1:PORT and closes each connection with an RST (SO_LINGER 0) at once,
 * for SECONDS seconds at most and at most 200000 attempts, so that it stays harmless
 * without a sandbox. Prints the number of connections it made when it stops (at the end,
 * or on SIGTERM). Before arena's fail-closed seats, such connections took the seats of the
 * bots being started: /proc could no longer say who owned them.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t stop = 0;

static void on_term(int sig) { (void)sig; stop = 1; }

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: reset_stranger PORT SECONDS\n");
        return 2;
    }
    struct sockaddr_in arena = {0};
    arena.sin_family = AF_INET;
    arena.sin_port = htons((unsigned short)atoi(argv[1]));
    arena.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    time_t until = time(NULL) + atoi(argv[2]);
    signal(SIGTERM, on_term);
    struct linger abort_close = {1, 0};
    long made = 0;
    for (long attempt = 0; attempt < 200000 && !stop && time(NULL) < until; attempt++) {
        int fd = socket(AF_INET, SOCK_STREAM, 0);
        if (fd < 0) break;
        if (connect(fd, (struct sockaddr *)&arena, sizeof arena) == 0) made++;
        else usleep(1000); /* not listening yet */
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &abort_close, sizeof abort_close);
        close(fd);
    }
    printf("%ld\n", made);
    return 0;
}
