#!/usr/bin/env node
// Big Money bot for the Dominion line protocol (specs/dominion_text.txt, version 1),
// written from the spec alone.
//   node bigmoney.js [--name NAME] [--smithy]
// --name NAME  name sent in the handshake (default "nodebm")
// --smithy     Smithy-Big-Money: play Smithy when possible, buy one per 11 treasures
// Protocol lines on stdin, one reply line per request on stdout, diagnostics on stderr.
'use strict';
const readline = require('readline');

const args = process.argv.slice(2);
const opt = (flag) => args.indexOf(flag);
const NAME = opt('--name') >= 0 && args[opt('--name') + 1] ? args[opt('--name') + 1] : 'nodebm';
const SMITHY = opt('--smithy') >= 0;

const VALUE = { copper: 1, silver: 2, gold: 3 };
const VICTORY = new Set(['estate', 'duchy', 'province', 'curse']);

let me = null;        // "playerN", learned from the handshake
const supply = {};    // card -> count left, refreshed by every `supply` line
// Our own deck composition, kept from `<me> gained/trashed` lines: every game
// starts with 7 coppers, and the smithy ratio is all we need it for.
let treasures = 7;
let smithies = 0;

const log = (...a) => console.error('[bigmoney]', ...a);
// One write per line: stdout to a pipe is synchronous in Node on POSIX, so each
// reply reaches the referee at once (a silent bot is disqualified).
const reply = (line) => process.stdout.write(line + '\n');
// If the referee goes away mid-write, leave quietly instead of crashing.
process.stdout.on('error', () => process.exit(0));

// A pile we have not heard about counts as available: the first request may come
// before any `supply` line.
const available = (card) => supply[card] === undefined || supply[card] > 0;

function playTurn(actions, extra, hand) {
  if (SMITHY && actions > 0 && hand.includes('smithy')) return reply('play-reply action smithy');
  // Coins are implicit in this protocol: treasures in hand plus extra-money.
  const coins = hand.reduce((s, c) => s + (VALUE[c] || 0), extra);
  // One card per turn: Big Money never has a use for a second buy.
  let want = null;
  if (coins >= 8) want = 'province';
  else if (coins >= 6) want = 'gold';
  else if (coins >= 4 && SMITHY && smithies < treasures / 11 && available('smithy')) want = 'smithy';
  else if (coins >= 3) want = 'silver';
  // An empty pile would just waste the turn's buy; drop down to the next treasure.
  if (want === 'province' && !available('province')) want = 'gold';
  if (want === 'gold' && !available('gold')) want = 'silver';
  if (want === 'silver' && !available('silver')) want = null;
  reply(want ? 'play-reply buy ' + want : 'play-reply pass');
}

// Rank for discarding: dead cards first, then the cheapest treasure, and keep
// the best money (which buys Provinces) to the very end.
function discardRank(card) {
  if (VICTORY.has(card)) return 0;
  if (card === 'copper') return 1;
  if (card === 'silver') return 3;
  if (card === 'gold') return 4;
  return 2; // action cards: with 3 cards left, money matters more than draw
}

function attackDiscard(n, hand) {
  if (hand.includes('moat')) return reply('play-reply reaction moat');
  // Stable sort keeps hand order within a rank; never ask for more than we hold.
  const order = hand.map((c, i) => [discardRank(c), i, c]).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  reply(['play-reply', 'discard', ...order.slice(0, n).map((x) => x[2])].join(' '));
}

// Cards after the `hand` keyword (none if the keyword is missing).
const handOf = (t) => (t.includes('hand') ? t.slice(t.indexOf('hand') + 1) : []);

function handle(line) {
  const t = line.trim().split(/\s+/);
  if (t[0] === '') return;
  // The spec writes player ids as <playerN>; tolerate literal angle brackets.
  const who = t[0].replace(/^<(.*)>$/, '$1');

  if (who === 'player' && t[2] === 'name') {
    me = t[1];
    return reply(`player ${t[1]} ${NAME}`);
  }
  if (who === 'player' && t[2] === 'version') {
    if (t[3] !== '1') log('unexpected spec version', t[3], '- echoing anyway');
    return reply(line.replace(/\r$/, ''));
  }
  if (t[0] === 'game' || t[0] === 'supply') {
    for (let i = 1; t[0] === 'supply' && i + 1 < t.length; i += 2) supply[t[i]] = Number(t[i + 1]);
    return;
  }
  if (t[0] === 'play-request' && t[1] === 'play-turn') {
    const at = (k) => (t.includes(k) ? Number(t[t.indexOf(k) + 1]) || 0 : 0);
    return playTurn(at('actions'), at('extra-money'), handOf(t));
  }
  if (t[0] === 'play-request' && t[1] === 'attack' && t[2] === 'discard') {
    return attackDiscard(Number(t[3]) || 0, handOf(t));
  }
  if (/^player\d$/.test(who) && ['gained', 'trashed', 'played', 'top-discard', 'revealed', 'discarded'].includes(t[1])) {
    // Only our own gains/trashes change our deck; everything else is news.
    if (who === me && (t[1] === 'gained' || t[1] === 'trashed')) {
      const sign = t[1] === 'gained' ? 1 : -1;
      for (const c of t.slice(2)) {
        if (c in VALUE) treasures += sign;
        if (c === 'smithy') smithies += sign;
      }
    }
    return;
  }
  log('ignored:', line);
}

const rl = readline.createInterface({ input: process.stdin, terminal: false });
rl.on('line', handle);
// At EOF the game is over: let pending output drain and exit normally.
rl.on('close', () => log('stdin closed, exiting'));
