#!/usr/bin/env node
// clue_bot.js - a small Speed Clue test bot (plain Node.js, no packages), written from
// the contest's protocol text and the contest server's wire behaviour.
//
//   node clue_bot.js <identifier> <port> [--seed N] [--terminator none|lf|crlf|nul]
//                    [--misbehave KIND] [--delay MS] [--log FILE] [--alive-case as-given|upper|lower]
//
// Connects to 127.0.0.1:<port>, sends "<identifier> alive", then answers each server message
// lock-step, one write per reply. Server messages are bare writes without a terminator, so each
// 'data' chunk is one message (any "\n", "\r\n" or "\0" in a chunk is tolerated as a separator).
// Strategy: random unmade suggestion (seeded); remembers its hand, the cards shown to it, and the
// cards pinned by its own undisproved suggestions; accuses when one candidate per category is left.
// --misbehave KIND: never-connect | wrong-alive | late | garbage | repeat | suicidal | crash
// --delay MS is how long 'late' waits (default 3000).
// --log FILE appends "< msg" for each received message and "> reply" for each line sent.
// --alive-case upper|lower sends the whole "<identifier> alive" line in that case (the spec says
// messages need not be case-sensitive).
'use strict';
const net = require('net');
const fs = require('fs');

const SUSPECTS = ['Gr', 'Mu', 'Pe', 'Pl', 'Sc', 'Wh'];
const WEAPONS = ['Ca', 'Kn', 'Pi', 'Re', 'Ro', 'Wr'];
const ROOMS = ['Ba', 'Bi', 'Co', 'Di', 'Ha', 'Ki', 'Li', 'Lo', 'St'];
const CATEGORIES = [SUSPECTS, WEAPONS, ROOMS];
const CANON = {};  // lower-case -> canonical spelling (input is case-insensitive)
for (const c of [...SUSPECTS, ...WEAPONS, ...ROOMS]) CANON[c.toLowerCase()] = c;
const canon = (tok) => CANON[tok.toLowerCase()] || tok;

// ---- command line ----
const args = process.argv.slice(2);
if (args.length < 2) {
  process.stderr.write('usage: node clue_bot.js <identifier> <port> [options]\n');
  process.exit(2);
}
const [identifier, port] = args;
const opts = { seed: '1', terminator: 'none', misbehave: '', log: '', delay: '3000', 'alive-case': 'as-given' };
for (let i = 2; i < args.length; i += 2) {
  const key = args[i].replace(/^--/, '');
  if (!(key in opts) || i + 1 >= args.length) {
    process.stderr.write(`bad option: ${args[i]}\n`);
    process.exit(2);
  }
  opts[key] = args[i + 1];
}
const TERMINATORS = { none: '', lf: '\n', crlf: '\r\n', nul: '\0' };
const term = TERMINATORS[opts.terminator];
if (term === undefined) { process.stderr.write(`bad terminator: ${opts.terminator}\n`); process.exit(2); }
const misbehave = opts.misbehave;
const KINDS = ['', 'never-connect', 'wrong-alive', 'late', 'garbage', 'repeat', 'suicidal', 'crash'];
if (!KINDS.includes(misbehave)) { process.stderr.write(`bad misbehave kind: ${misbehave}\n`); process.exit(2); }
const ALIVE_CASES = { 'as-given': (s) => s, upper: (s) => s.toUpperCase(), lower: (s) => s.toLowerCase() };
const aliveCase = ALIVE_CASES[opts['alive-case']];
if (!aliveCase) { process.stderr.write(`bad alive case: ${opts['alive-case']}\n`); process.exit(2); }

// mulberry32: tiny seeded PRNG returning floats in [0, 1)
let rngState = (Number(opts.seed) >>> 0) || 0;
function random() {
  rngState = (rngState + 0x6D2B79F5) >>> 0;
  let t = rngState;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

function log(line) {
  if (!opts.log) return;
  const shown = line.replace(/[\x00-\x1f\\]/g, (c) => (c === '\\' ? '\\\\' : `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`));
  fs.appendFileSync(opts.log, shown + '\n');
}

// ---- per-game state ----
let me = -1, hand = new Set(), seen = new Set(), pinned = new Set(), made = [];
let sessionSuggests = 0, sessionAccuses = 0;

function resetGame(tokens) {
  me = Number(tokens[2]);
  hand = new Set(tokens.slice(3).map(canon));
  seen = new Set(); pinned = new Set(); made = [];
}

function candidates(cat) {
  const pin = cat.filter((c) => pinned.has(c));
  if (pin.length === 1) return pin;
  return cat.filter((c) => !hand.has(c) && !seen.has(c));
}

function chooseSuggestion() {
  const unused = [];
  for (const s of SUSPECTS) for (const w of WEAPONS) for (const r of ROOMS) {
    const key = `${s} ${w} ${r}`;
    if (!made.includes(key)) unused.push(key);
  }
  return unused[Math.floor(random() * unused.length)];
}

// Returns the reply to one message (a string), or null for "no reply" (the crash case exits).
async function answer(msg) {
  const tokens = msg.trim().split(/\s+/);
  switch (tokens[0].toLowerCase()) {
    case 'reset':
      resetGame(tokens);
      return 'ok';
    case 'suggest': {
      sessionSuggests += 1;
      if (sessionSuggests === 1) {
        if (misbehave === 'crash') process.exit(3);
        if (misbehave === 'garbage') return 'banana';
        if (misbehave === 'late') await new Promise((done) => setTimeout(done, Number(opts.delay)));
      }
      const pick = misbehave === 'repeat' && made.length === 1 ? made[0] : chooseSuggestion();
      made.push(pick);
      return `suggest ${pick}`;
    }
    case 'disprove': {
      const held = tokens.slice(2, 5).map(canon).filter((c) => hand.has(c));
      return `show ${held[0] || canon(tokens[2])}`;
    }
    case 'suggestion': {
      // suggestion active S W R disprover|- [card]
      if (Number(tokens[1]) === me) {
        const cards = tokens.slice(2, 5).map(canon);
        if (tokens[5] === '-') cards.filter((c) => !hand.has(c)).forEach((c) => pinned.add(c));
        else if (tokens[6]) seen.add(canon(tokens[6]));
      }
      return 'ok';
    }
    case 'accuse': {
      sessionAccuses += 1;
      if (misbehave === 'suicidal' && sessionAccuses === 1) {
        const own = [...hand][0];
        const slots = CATEGORIES.map((cat) => (cat.includes(own) ? own : cat[0]));
        return `accuse ${slots.join(' ')}`;
      }
      const cands = CATEGORIES.map(candidates);
      return cands.every((c) => c.length === 1) ? `accuse ${cands.map((c) => c[0]).join(' ')}` : '-';
    }
    case 'accusation':
      return 'ok';
    case 'done':
      return 'dead';
    default:
      process.stderr.write(`clue_bot: unknown message: ${JSON.stringify(msg)}\n`);
      return null;
  }
}

// ---- transport ----
if (misbehave === 'never-connect') {
  setTimeout(() => process.exit(0), 60000);
} else {
  const sock = net.connect(Number(port), '127.0.0.1');
  const send = (text) => { log('> ' + text); sock.write(text + term); };
  const queue = [];
  let busy = false;

  async function pump() {
    if (busy) return;
    busy = true;
    while (queue.length) {
      const msg = queue.shift();
      log('< ' + msg);
      const reply = await answer(msg);
      if (reply === null) continue;
      if (reply === 'dead') {
        log('> dead');
        sock.end('dead' + term, () => process.exit(0));
        return;
      }
      send(reply);
    }
    busy = false;
  }

  sock.setNoDelay(true);
  sock.on('connect', () => send(aliveCase(`${identifier}${misbehave === 'wrong-alive' ? 'x' : ''} alive`)));
  sock.on('data', (chunk) => {
    // One chunk is one message; tolerate terminators by splitting on them.
    for (const part of chunk.toString('latin1').split(/\r\n|\n|\0/)) {
      if (part.trim()) queue.push(part);
    }
    pump();
  });
  sock.on('error', (err) => { process.stderr.write(`clue_bot: ${err.message}\n`); process.exit(1); });
  sock.on('close', () => process.exit(0));  // the referee hung up (e.g. after disqualifying us)
}
