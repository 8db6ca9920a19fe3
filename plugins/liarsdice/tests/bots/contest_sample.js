#!/usr/bin/env node
// contest_sample.js - a Liar's Dice bot that behaves like the 2023 contest's sample bot:
//
//   node contest_sample.js
//
// No options, no environment: it connects to localhost:5533 (hard-coded, like the original),
// sends {"name": "sample"} and plays like it: whenever a bid exists, on its turn or not, it
// challenges with probability 0.2; otherwise, on its turn, it bids the last face (1 at the
// start of a round) with one die more, even when that is more dice than the table holds (as
// the original does, in about half of its 2-player games); "pass" when it is not its turn.
// It never answers round_over.
'use strict';
const net = require('net');

const socket = net.connect(5533, 'localhost', () => socket.write(JSON.stringify({ name: 'sample' }) + '\n'));
socket.setEncoding('utf8');
let buffer = '';
socket.on('data', (chunk) => {
  buffer += chunk;
  let nl;
  while ((nl = buffer.indexOf('\n')) >= 0) {
    const msg = JSON.parse(buffer.slice(0, nl));
    buffer = buffer.slice(nl + 1);
    if (msg.subject !== 'move_request') continue;
    const [face, count] = msg.last_bid;
    let move = 'pass';
    if (count > 0 && Math.random() < 0.2) move = 'challenge';
    else if (msg.other_hands[0][0] === 0) move = [Math.max(face, 1), count + 1];
    socket.write(JSON.stringify({ message_id: msg.message_id, move }) + '\n');
  }
});
socket.on('close', () => process.exit(0));
