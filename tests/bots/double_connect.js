// A Nim bot (line protocol) that opens two connections to its $ARENA_PORT and plays on
// whichever one the arena talks to. When arena closes the extra one, it says so on stderr:
// "extra connection closed by the arena". One seat per bot, never two.
const net = require("net");

const port = Number(process.env.ARENA_PORT);
const sockets = [net.connect(port, "127.0.0.1"), net.connect(port, "127.0.0.1")];
let open = sockets.length;

for (const sock of sockets) {
  let pending = "";
  sock.on("data", (chunk) => {
    pending += chunk;
    let end;
    while ((end = pending.indexOf("\n")) >= 0) {
      const [verb, pile] = pending.slice(0, end).split(" ");
      pending = pending.slice(end + 1);
      if (verb === "move") sock.write(`take ${Number(pile) % 4 || 1}\n`);
    }
  });
  sock.on("error", () => {}); // a reset extra connection is closed too
  sock.on("close", () => {
    open -= 1;
    if (open === 1) process.stderr.write("extra connection closed by the arena\n");
    if (open === 0) process.exit(0);
  });
}
