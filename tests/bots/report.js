// Preloaded into a Node.js bot for the sandbox tests (node --require report.js bot.js):
// writes to stderr what nim.py and nim.rkt write first: its process id, how many seccomp
// filters it runs under and, when $SANDBOX_PEEK names a file, whether it can see that file.
"use strict";
const fs = require("fs");

const peek = process.env.SANDBOX_PEEK;
const seen = peek ? `, ${peek} ${fs.existsSync(peek) ? "visible" : "hidden"}` : "";
const filters = fs.readFileSync("/proc/self/status", "utf8").match(/^Seccomp_filters:\s*(\d+)/m)[1];
process.stderr.write(`pid ${process.pid}, filters ${filters}${seen}\n`);
