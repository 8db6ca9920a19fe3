// Preloaded into a Node.js bot for the sandbox tests (node --require report.js bot.js):
// writes to stderr what nim.py and nim.rkt write first, its process id and, when
// $SANDBOX_PEEK names a file, whether it can see that file.
"use strict";
const fs = require("fs");

const peek = process.env.SANDBOX_PEEK;
const seen = peek ? `, ${peek} ${fs.existsSync(peek) ? "visible" : "hidden"}` : "";
process.stderr.write(`pid ${process.pid}${seen}\n`);
