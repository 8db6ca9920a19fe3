#!/usr/bin/env node
// dice_bot.js - a small Liar's Dice test bot (plain Node.js 20, no packages), written from
// the contest's protocol text and the contest server's wire behaviour.
//
//   node dice_bot.js [--host H] [--port P] [--name N] [--name-twice] [--seed N]
//                    [--floats face|count] [--misbehave KIND] [--delay MS] [--log FILE]
//
// A TCP client speaking JSON Lines both ways. Host defaults to 127.0.0.1; the port comes from
// --port, else $ARENA_PORT, else 5533. With --name it first sends {"name": N} (and with
// --name-twice also {"name": "<N>-again"}, which the referee must ignore).
// Strategy, on its own turn (other_hands[0][0] === 0): with no bid, bid [most common face, 1]
// (ties: highest face); with a bid [face, count], challenge if count > expected + 1, where
// expected = own dice showing face + ceil(unknown dice / 6), else raise to [face, count + 1]
// (or challenge if that exceeds the dice on the table). Out of turn it always passes. It never
// replies to round_over. --seed is accepted for command-line compatibility; play is deterministic.
// --floats face|count writes that number of every bid as a whole float ([3.0, 4] or [3, 4.0]):
// JSON.stringify never would, but a bot in another language may.
// --misbehave KIND acts on the first move_request where the bot is the mover:
//   wrong-id | late (waits --delay MS, default 3500) | garbage | bad-shape | pass-on-turn |
//   low-bid | disconnect | huge (one 2 MiB line of "x") | half-bid (its bid's face plus 0.5) |
//   overbid (one die more than the table holds) | challenge-always (every request that has a
//   bid, in or out of turn) | bid-out-of-turn (acts on the first request where it is NOT the
//   mover: bids [6, dice on the table] instead of passing) | junk-out-of-turn (the same, with
//   the move "PASS") | raise-forever (on every turn of its own it raises the count by one,
//   whatever the dice; it never challenges).
// --log FILE appends "< line" for each line received and "> line" for each line sent.
'use strict';
const net = require('net');
const fs = require('fs');

// ---- command line ----
const KINDS = ['', 'wrong-id', 'late', 'garbage', 'bad-shape', 'pass-on-turn', 'low-bid',
  'disconnect', 'challenge-always', 'huge', 'half-bid', 'overbid', 'bid-out-of-turn',
  'junk-out-of-turn', 'raise-forever'];
const opts = { host: '127.0.0.1', port: process.env.ARENA_PORT || '5533', name: null,
  'name-twice': false, seed: '1', floats: '', misbehave: '', delay: '3500', log: '' };
const args = process.argv.slice(2);
for (let i = 0; i < args.length; i++) {
  const key = args[i].replace(/^--/, '');
  if (key === 'name-twice') { opts[key] = true; continue; }
  if (!args[i].startsWith('--') || !(key in opts) || i + 1 >= args.length) {
    process.stderr.write(`dice_bot: bad option: ${args[i]}\n`);
    process.exit(2);
  }
  opts[key] = args[++i];
}
if (!KINDS.includes(opts.misbehave)) {
  process.stderr.write(`dice_bot: bad misbehave kind: ${opts.misbehave}\n`);
  process.exit(2);
}
if (!['', 'face', 'count'].includes(opts.floats)) {
  process.stderr.write(`dice_bot: bad --floats: ${opts.floats}\n`);
  process.exit(2);
}
if (opts['name-twice'] && opts.name === null) {
  process.stderr.write('dice_bot: --name-twice needs --name\n');
  process.exit(2);
}
const misbehave = opts.misbehave;

function log(text) {
  if (opts.log) fs.appendFileSync(opts.log, text + '\n');
}

// ---- strategy ----
const isRaise = ([f, c], [lf, lc]) => c > lc || (c === lc && f > lf);

function play(req) {
  const hand = req.your_hand;
  const total = req.other_hands.reduce((sum, [, n]) => sum + n, 0);
  const [face, count] = req.last_bid;
  if (count === 0) {  // first move of the round: our most common face, once
    let best = 1;
    for (let f = 2; f <= 6; f++) {
      if (hand.filter((d) => d === f).length >= hand.filter((d) => d === best).length) best = f;
    }
    return [best, 1];
  }
  const mine = hand.filter((d) => d === face).length;
  const expected = mine + Math.ceil((total - hand.length) / 6);
  if (count > expected + 1 || count + 1 > total) return 'challenge';
  return [face, count + 1];
}

// Returns the line to send (without "\n"), null for no reply, or a Promise of either.
let misbehaved = false;
function answer(req) {
  const id = req.message_id;
  const myTurn = req.other_hands[0][0] === 0;
  const hasBid = req.last_bid[1] !== 0;
  const reply = (move) => {
    if (!Array.isArray(move) || !opts.floats) return JSON.stringify({ message_id: id, move });
    const [f, c] = move.map(String);
    const bid = opts.floats === 'face' ? `[${f}.0, ${c}]` : `[${f}, ${c}.0]`;
    return `{"message_id": ${JSON.stringify(id)}, "move": ${bid}}`;
  };
  const total = req.other_hands.reduce((sum, [, n]) => sum + n, 0);
  if (misbehave === 'challenge-always' && hasBid) return reply('challenge');
  if (misbehave === 'bid-out-of-turn' && !myTurn && !misbehaved) {
    misbehaved = true;
    return reply([6, total]);
  }
  if (misbehave === 'junk-out-of-turn' && !myTurn && !misbehaved) {
    misbehaved = true;
    return reply('PASS');
  }
  if (!myTurn) return reply('pass');
  if (misbehave === 'raise-forever') return reply(hasBid ? [req.last_bid[0], req.last_bid[1] + 1] : [1, 1]);
  if (misbehaved || ['', 'challenge-always', 'bid-out-of-turn', 'junk-out-of-turn'].includes(misbehave)) {
    return reply(play(req));
  }
  misbehaved = true;
  switch (misbehave) {
    case 'wrong-id': return JSON.stringify({ message_id: id + 'x', move: play(req) });
    case 'late': return new Promise((done) => setTimeout(() => done(reply(play(req))), Number(opts.delay)));
    case 'garbage': return 'this is not json';
    case 'bad-shape': return reply('raise');
    case 'pass-on-turn': return reply('pass');
    case 'low-bid': return reply(hasBid ? req.last_bid : [7, 1]);  // the same bid is no raise
    case 'half-bid': {
      const move = play(req);
      const [f, c] = Array.isArray(move) ? move : [1, total];
      return JSON.stringify({ message_id: id, move: [f + 0.5, c] });
    }
    case 'overbid': return reply([hasBid ? req.last_bid[0] : 1, total + 1]);
    case 'huge': return 'x'.repeat(2 * 1024 * 1024);
    case 'disconnect':
      sock.end();
      setTimeout(() => process.exit(0), 200);
      return null;
  }
  throw new Error(`unhandled misbehave kind ${misbehave}`);
}

// ---- transport ----
let connected = false;
const sock = net.connect(Number(opts.port), opts.host);
const send = (line) => {
  if (sock.destroyed || !sock.writable) return;
  log('> ' + line);
  sock.write(line + '\n');  // one message, one line, one write
};

function handle(line) {
  let msg;
  try { msg = JSON.parse(line); } catch (err) { process.stderr.write(`dice_bot: bad JSON: ${line.slice(0, 200)}\n`); return; }
  // round_over broadcasts need no answer; anything but a move_request is ignored.
  if (!msg || msg.subject !== 'move_request') return;
  const out = answer(msg);
  if (out instanceof Promise) out.then((text) => send(text));
  else if (out !== null) send(out);
}

sock.setNoDelay(true);
sock.setEncoding('utf8');
sock.on('connect', () => {
  connected = true;
  if (opts.name !== null) send(JSON.stringify({ name: opts.name }));
  if (opts['name-twice']) send(JSON.stringify({ name: `${opts.name}-again` }));
});
let buffer = '';
sock.on('data', (chunk) => {
  buffer += chunk;
  let nl;
  while ((nl = buffer.indexOf('\n')) >= 0) {
    const line = buffer.slice(0, nl).replace(/\r$/, '');
    buffer = buffer.slice(nl + 1);
    if (!line.trim()) continue;
    log('< ' + line);
    handle(line);
  }
});
sock.on('error', (err) => {
  process.stderr.write(`dice_bot: ${err.message}\n`);
  if (!connected) process.exit(1);  // never reached the server; otherwise 'close' follows
});
sock.on('close', () => process.exit(0));  // the referee hung up: the session is over
