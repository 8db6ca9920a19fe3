#!/usr/bin/env node
// Money bot for the Dominion S-expression protocol (v1, plus v2 smithy and v3 militia/moat).
// Written from /work/shared/specs/dominion_sexpr.txt and /work/shared/rules/dominion.md only.
// Usage: node money.js [--mine]
//   --mine  buy one Mine at 5 coins (instead of Silver) while owning no Mine.
'use strict';

const OPT_MINE = process.argv.slice(2).includes('--mine');
const COST = { copper: 0, silver: 3, gold: 6, estate: 2, duchy: 5, province: 8, mine: 5, smithy: 4 };
const TREASURES = ['gold', 'silver', 'copper'];            // order in which treasures are added
const VICTORY = ['province', 'duchy', 'estate', 'curse'];  // discarded first under attack
const log = (...a) => process.stderr.write('[money] ' + a.join(' ') + '\n');

// ---------- S-expression reader (lists, symbols, numbers, strings; any layout) ----------
class Incomplete extends Error {}
// Parse one datum of buf starting at i. Returns [datum, nextIndex], or null if only whitespace is left.
// Throws Incomplete when the datum runs past the end of the buffer.
function readDatum(buf, i, eof) {
  for (;;) {                                      // skip whitespace and ; comments
    while (i < buf.length && /\s/.test(buf[i])) i++;
    if (buf[i] !== ';') break;
    while (i < buf.length && buf[i] !== '\n') i++;
  }
  if (i >= buf.length) return null;
  const c = buf[i];
  if (c === '(' || c === '[') {
    const list = [];
    i++;
    for (;;) {
      while (i < buf.length && /\s/.test(buf[i])) i++;
      if (i >= buf.length) throw new Incomplete();
      if (buf[i] === ')' || buf[i] === ']') return [list, i + 1];
      const r = readDatum(buf, i, eof);
      if (r === null) throw new Incomplete();
      list.push(r[0]);
      i = r[1];
    }
  }
  if (c === ')' || c === ']') return [{ stray: c }, i + 1];
  if (c === '"') {
    let s = '';
    for (i++; i < buf.length; i++) {
      if (buf[i] === '"') return [{ str: s }, i + 1];
      if (buf[i] === '\\') i++;
      if (i < buf.length) s += buf[i];
    }
    throw new Incomplete();
  }
  let j = i;
  while (j < buf.length && !/[\s()[\]";]/.test(buf[j])) j++;
  if (j >= buf.length && !eof) throw new Incomplete();   // the atom may continue in the next chunk
  const tok = buf.slice(i, j);
  return [/^-?\d+$/.test(tok) ? Number(tok) : tok.toLowerCase(), j];
}

const show = (d) => Array.isArray(d) ? '(' + d.map(show).join(' ') + ')'
  : d && typeof d === 'object' && 'str' in d ? JSON.stringify(d.str) : String(d);
const send = (d) => { const s = show(d); log('reply', s); process.stdout.write(s + '\n'); };

// ---------- state ----------
// state = ((players ...) (supply ...) (trash ...) (actions n) (buys n) (coins n) (deck ...) (hand ...) ...)
function parseState(st) {
  const s = { players: [], supply: [], trash: [], deck: [], hand: [], plays: [], discards: [] };
  if (Array.isArray(st)) for (const part of st) {
    if (Array.isArray(part) && typeof part[0] === 'string') s[part[0]] = part.slice(1);
  }
  for (const k of ['actions', 'buys', 'coins']) s[k] = Number(s[k] && s[k][0]) || 0;
  for (const k of ['supply', 'deck', 'hand', 'plays', 'discards']) if (!Array.isArray(s[k])) s[k] = [];
  return s;
}

// ---------- strategy ----------
let boughtThisTurn = false;

function chooseMove(s) {
  const inHand = (c) => s.hand.includes(c);
  const inSupply = (c) => s.supply.includes(c);
  if (inHand('mine') && s.actions >= 1) {
    for (const [from, to] of [['silver', 'gold'], ['copper', 'silver']]) {
      if (inHand(from) && inSupply(to) && COST[to] <= COST[from] + 3) return ['act', 'mine', from, to];
    }
  }
  if (inHand('smithy') && s.actions >= 1) return ['act', 'smithy'];
  const t = TREASURES.find(inHand);
  if (t) return ['add', t];
  if (s.buys >= 1 && !boughtThisTurn) {
    const owned = [...s.deck, ...s.hand, ...s.plays, ...s.discards];
    let want = null;
    if (s.coins >= 8 && inSupply('province')) want = 'province';
    else if (s.coins >= 6 && inSupply('gold')) want = 'gold';
    else if (OPT_MINE && s.coins >= 5 && !owned.includes('mine') && inSupply('mine')) want = 'mine';
    else if (s.coins >= 3 && inSupply('silver')) want = 'silver';
    if (want) { boughtThisTurn = true; return ['buy', want]; }
  }
  boughtThisTurn = false;
  return s.hand.length ? ['clean', s.hand[0]] : ['clean'];
}

// Militia: reveal a moat, else discard victory cards, then coppers, then others, down to 3 cards.
function answerAttack(s) {
  if (s.hand.includes('moat')) return ['moat'];
  const rank = (c) => (VICTORY.includes(c) ? 0 : c === 'copper' ? 1 : 2);
  const order = s.hand.slice().sort((a, b) => rank(a) - rank(b));
  return ['discard', ...order.slice(0, Math.max(0, s.hand.length - 3))];
}

function handle(msg) {
  if (!Array.isArray(msg) || typeof msg[0] !== 'string') { log('ignored', show(msg)); return; }
  const tag = msg[0];
  if (tag === 'move') {
    let play;
    try { play = chooseMove(parseState(msg[1])); } catch (e) { log('error', e.stack); play = ['clean']; }
    send(play);
  } else if (tag === 'attacked') {
    let ans;
    try { ans = answerAttack(parseState(msg[3])); } catch (e) { log('error', e.stack); ans = ['discard']; }
    send(ans);
  } else if (tag === 'moved' || tag === 'defended') {
    // notifications: no reply
  } else {
    log('unknown message', show(msg));
  }
}

// ---------- main loop ----------
let buf = '';
function drain(eof) {
  for (;;) {
    let r;
    try { r = readDatum(buf, 0, eof); } catch (e) {
      if (!(e instanceof Incomplete)) throw e;
      if (eof) log('incomplete datum at EOF dropped');
      return;
    }
    if (r === null) { buf = ''; return; }
    buf = buf.slice(r[1]);
    if (r[0] && r[0].stray) { log('stray', r[0].stray); continue; }
    try { handle(r[0]); } catch (e) { log('error', e.stack); }
  }
}
process.stdout.on('error', (e) => { log('stdout', e.code); process.exit(0); });
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => { buf += chunk; drain(false); });
process.stdin.on('end', () => { drain(true); log('EOF, exiting'); });
