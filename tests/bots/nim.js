// A Nim bot in Node.js, written from the test game's protocol only (kernel/arena_kernel/testing/nim.py).
// Usage: node nim.js [line|jsonl] [--tcp HOST PORT]
// It answers `move <pile>` with `take <k>`, leaving a multiple of four when it can.
"use strict";
const net = require("net");

const args = process.argv.slice(2);
const codec = args[0] === "jsonl" ? "jsonl" : "line";
const tcp = args.indexOf("--tcp");

function answer(message) {
  let verb, pile;
  if (codec === "jsonl") {
    const m = JSON.parse(message);
    verb = m.verb;
    pile = m.args[0];
  } else {
    [verb, pile] = message.split(" ");
    pile = Number(pile);
  }
  if (verb !== "move") return null;
  const take = pile % 4 || 1;
  return codec === "jsonl" ? JSON.stringify({ verb: "take", args: [take] }) : `take ${take}`;
}

function serve(input, output) {
  let buffer = "";
  input.setEncoding("utf8");
  input.on("data", (chunk) => {
    buffer += chunk;
    let nl;
    while ((nl = buffer.indexOf("\n")) >= 0) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      const reply = answer(line);
      if (reply !== null) output.write(reply + "\n");
    }
  });
  input.on("end", () => process.exit(0));
}

if (tcp >= 0) {
  const socket = net.connect(Number(args[tcp + 2]), args[tcp + 1], () => {
    socket.setNoDelay(true);
    serve(socket, socket);
  });
} else {
  serve(process.stdin, process.stdout);
}
