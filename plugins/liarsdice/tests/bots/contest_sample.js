#!/usr/bin/env node
// contest_sample.js - a Liar's Dice bot in the style of the 2023 contest's sample bot:
//
//   node contest_sample.js
//
// No options, no environment: it connects to localhost:5533 (hard-coded, like the original),
// sends {"name": "sample"} and plays: first bid [a face from its hand, 1]; with a bid,
// challenge with probability 0.2, else raise the count by one (challenge if impossible);
// "pass" when it is not its turn. It never answers round_over.
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
    const total = msg.other_hands.reduce((sum, [, count]) => sum + count, 0);
    const [face, count] = msg.last_bid;
    let move = 'pass';
    if (msg.other_hands[0][0] === 0) {
      if (count === 0) move = [msg.your_hand[0], 1];
      else move = Math.random() < 0.2 || count + 1 > total ? 'challenge' : [face, count + 1];
    }
    socket.write(JSON.stringify({ message_id: msg.message_id, move }) + '\n');
  }
});
socket.on('close', () => process.exit(0));
