/* A hostile Nim bot in C, the twin of escaper.py (see there for MODE and the flags):
 *   escaper MODE PIDDIR [--ignore-eof] [--mute]
 * MODE: setsid (a child in a session of its own), double-fork (a daemon's: the child
 * calls setsid, forks a grandchild and exits at once) or none; stdin/stdout only. Every
 * process it leaves writes PIDDIR/<role>.<pid>. Harmless: at most two extra processes,
 * sleeping at most 120 s, no network, no signal sent to anyone. The tests compile it. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define LINGER 120

static const char *piddir;

static void note(const char *role) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.%d", piddir, role, (int)getpid());
    FILE *f = fopen(path, "w");
    if (f) fclose(f);
}

/* Note the pid, tell the leader (by closing the write end of the ready pipe), sleep. */
static void linger(const char *role, int ready) {
    note(role);
    close(ready);
    sleep(LINGER);
    _exit(0);
}

int main(int argc, char **argv) {
    if (argc < 3) return 2;
    const char *mode = argv[1];
    piddir = argv[2];
    int ignore_eof = 0, mute = 0;
    for (int i = 3; i < argc; i++) {
        if (!strcmp(argv[i], "--ignore-eof")) ignore_eof = 1;
        if (!strcmp(argv[i], "--mute")) mute = 1;
    }
    if (ignore_eof) signal(SIGTERM, SIG_IGN);
    note("leader");
    int ready[2];
    if (pipe(ready)) return 2;
    if (!strcmp(mode, "setsid")) {
        if (fork() == 0) {
            setsid();
            linger("setsid", ready[1]);
        }
    } else if (!strcmp(mode, "double-fork")) {
        pid_t middle = fork();
        if (middle == 0) {
            setsid();
            if (fork() == 0) linger("grandchild", ready[1]);
            _exit(0);
        }
        waitpid(middle, NULL, 0);
    } else if (strcmp(mode, "none")) {
        return 2;
    }
    /* Play only once what was left has noted its pid: every write end closed. */
    close(ready[1]);
    char byte;
    while (read(ready[0], &byte, 1) > 0) {
    }
    close(ready[0]);
    char line[4096];
    while (fgets(line, sizeof line, stdin)) {
        if (!mute && !strncmp(line, "move", 4)) {
            fputs("take 1\n", stdout);
            fflush(stdout);
        }
    }
    if (ignore_eof) sleep(LINGER);
    return 0;
}
