#!/usr/bin/env node
// Random bot for "Game of Stones" (TZAAR), written from the protocol document only.
// Protocol: one JSON object per line on stdin; one JSON reply per line on stdout for each move request.
// Options:
//   --strings         send the reply's Type as a string ("1") instead of a number (contest-engine style)
//   --seed N          seed the move choice, so a test can replay the same game
//   --misbehave KIND  misbehave on the move requests (sleep, crash, garbage, empty-attack, centre,
//                     offboard, wrong-type, move-opponent); used to test the referee's loss handling
'use strict';
const readline = require('readline');

const PASS = 0, ATTACK = 1, STRENGTHEN = 2;
// E, W, S, N, SE, NW as (dx, dy); the board is state[Y][X].
const DIRS = [[1, 0], [-1, 0], [0, 1], [0, -1], [1, 1], [-1, -1]];

// ---- options ----
const argv = process.argv.slice(2);
const opt = { strings: false, seed: null, misbehave: null };
for (let i = 0; i < argv.length; i++) {
  if (argv[i] === '--strings') opt.strings = true;
  else if (argv[i] === '--seed') opt.seed = Number(argv[++i]);
  else if (argv[i] === '--misbehave') opt.misbehave = argv[++i];
  else log(`ignoring unknown argument ${argv[i]}`);
}

// mulberry32: tiny, good enough for picking moves, and reproducible for a given seed.
let seed = (Number.isFinite(opt.seed) ? opt.seed : (Date.now() ^ (process.pid << 16))) >>> 0;
function rand() {
  seed = (seed + 0x6D2B79F5) >>> 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const pick = (arr) => arr[Math.floor(rand() * arr.length)];

function log(msg) { process.stderr.write(`[random_bot] ${msg}\n`); }

// The contest engine sent enums as strings ("1"), the document says integers: accept both.
function num(v) { const n = Number(v); return Number.isFinite(n) ? n : NaN; }

// ---- board helpers ----
const onBoard = (x, y) => x >= 0 && x <= 8 && y >= 0 && y <= 8 && Math.abs(x - y) <= 4 && !(x === 4 && y === 4);
const isCentre = (x, y) => x === 4 && y === 4;

// Decode a cell into owner and height; garbage cells count as empty so we never crash on a bad board.
function cell(state, x, y) {
  const v = num(state && state[y] && state[y][x]);
  if (!v) return { owner: 0, height: 0 };
  const a = Math.abs(v);
  return { owner: Math.sign(v), height: Math.floor(a / 4), type: a % 4 };
}

function loc(x, y) { return { X: x, Y: y }; }
function move(type, fx, fy, tx, ty) { return { Type: type, From: loc(fx, fy), To: loc(tx, ty) }; }

// All legal Attack and Strengthen moves of `me`: slide over empty cells, land on the first occupied one,
// stop at the edge or at the centre (it may be neither crossed nor landed on).
function legalMoves(state, me) {
  const moves = [];
  for (let y = 0; y <= 8; y++) for (let x = 0; x <= 8; x++) {
    if (!onBoard(x, y)) continue;
    const from = cell(state, x, y);
    if (from.owner !== me) continue;
    for (const [dx, dy] of DIRS) {
      let tx = x + dx, ty = y + dy;
      while (onBoard(tx, ty) && cell(state, tx, ty).owner === 0) { tx += dx; ty += dy; }
      if (!onBoard(tx, ty)) continue; // fell off the edge or hit the centre
      const to = cell(state, tx, ty);
      if (to.owner === me) moves.push(move(STRENGTHEN, x, y, tx, ty));
      else if (to.height <= from.height) moves.push(move(ATTACK, x, y, tx, ty));
    }
  }
  return moves;
}

function stacksOf(state, who) {
  const out = [];
  for (let y = 0; y <= 8; y++) for (let x = 0; x <= 8; x++)
    if (onBoard(x, y) && cell(state, x, y).owner === who) out.push([x, y]);
  return out;
}

// ---- normal play ----
function chooseMove(state, me, allowed) {
  const candidates = legalMoves(state, me).filter((m) => allowed.includes(m.Type));
  const passOk = allowed.includes(PASS);
  // A small chance of passing keeps Pass handling exercised in tests without making the bot useless.
  if (passOk && (candidates.length === 0 || rand() < 0.05)) return { Type: PASS, From: null, To: null };
  if (candidates.length === 0) {
    log('no legal move of an allowed type; sending Pass anyway (we lose either way)');
    return { Type: PASS, From: null, To: null };
  }
  return pick(candidates);
}

// ---- misbehaviour (for referee tests): each answer is wrong in exactly the named way where possible.
// Returns null when the kind cannot be made on this board, and the caller then plays normally. ----
function misbehave(kind, state, me) {
  const mine = stacksOf(state, me), theirs = stacksOf(state, -me);
  const [ox, oy] = mine[0] || [0, 0];
  switch (kind) {
    case 'empty-attack': {
      // An own stack next to an empty cell: the path is trivially empty, only the target is wrong.
      for (const [x, y] of mine) for (const [dx, dy] of DIRS) {
        const tx = x + dx, ty = y + dy;
        if (onBoard(tx, ty) && cell(state, tx, ty).owner === 0) return move(ATTACK, x, y, tx, ty);
      }
      // E.g. White's first request from the fixed start: the board is full. Wait for a later request.
      log('empty-attack not possible on this board yet; playing normally');
      return null;
    }
    case 'centre': {
      // Slide along a line through the centre, jump over it, and land on the first stack beyond,
      // so the centre crossing is the only fault when a real stack is hit.
      for (const [x, y] of mine) for (const [dx, dy] of DIRS) {
        let tx = x + dx, ty = y + dy, crossed = false;
        while ((onBoard(tx, ty) && cell(state, tx, ty).owner === 0) || (isCentre(tx, ty) && !crossed)) {
          if (isCentre(tx, ty)) crossed = true;
          tx += dx; ty += dy;
        }
        if (!crossed || !onBoard(tx, ty)) continue;
        const to = cell(state, tx, ty);
        return move(to.owner === me ? STRENGTHEN : ATTACK, x, y, tx, ty);
      }
      return move(ATTACK, ox, oy, 4, 4); // nothing lines up: land on the centre itself
    }
    case 'offboard': {
      const [tx, ty] = theirs[0] || [0, 0];
      return move(ATTACK, 9, 2, tx, ty);
    }
    case 'wrong-type': {
      // Prefer a geometrically legal Strengthen so only the type is wrong (the first request is attack-only).
      const s = legalMoves(state, me).find((m) => m.Type === STRENGTHEN);
      if (s) return s;
      const [tx, ty] = mine[1] || mine[0] || [0, 0];
      return move(STRENGTHEN, ox, oy, tx, ty);
    }
    case 'move-opponent': {
      // A legal attack for the opponent, so moving their stack is the only fault.
      const a = legalMoves(state, -me).find((m) => m.Type === ATTACK);
      if (a) return a;
      const [fx, fy] = theirs[0] || [0, 0];
      return move(ATTACK, fx, fy, ox, oy);
    }
    default:
      log(`unknown misbehave kind ${kind}; playing normally`);
      return null;
  }
}

// ---- main loop ----
let myColor = 0;

function send(m) {
  const out = { ...m, Type: opt.strings ? String(m.Type) : m.Type };
  process.stdout.write(JSON.stringify(out) + '\n');
}

function onRequest(msg) {
  const state = msg.Board && msg.Board.state;
  const allowed = (Array.isArray(msg.AllowedMoves) ? msg.AllowedMoves : []).map(num);
  let me = myColor;
  if (me !== 1 && me !== -1) {
    // No (valid) Color message: guess the side that can move, so a hand-fed request still gets an answer.
    me = legalMoves(state, -1).some((m) => allowed.includes(m.Type)) ? -1 : 1;
    log(`colour unknown, guessing ${me}`);
  }
  switch (opt.misbehave) {
    case null: break;
    case 'sleep': return; // never answer; the referee's timeout must fire
    case 'crash': process.exit(3);
    case 'garbage': process.stdout.write('this is not json\n'); return;
    default: {
      const bad = misbehave(opt.misbehave, state, me);
      if (bad) return send(bad);
    }
  }
  send(chooseMove(state, me, allowed));
}

function onLine(line) {
  if (!line.trim()) return;
  let msg;
  try { msg = JSON.parse(line); } catch (e) { log(`unparseable input ignored: ${line.slice(0, 80)}`); return; }
  if (!msg || typeof msg !== 'object') return;
  if ('Color' in msg) { myColor = num(msg.Color); return; }
  if ('Board' in msg || 'AllowedMoves' in msg) return onRequest(msg);
  if ('Winner' in msg) { const w = num(msg.Winner); if (w) log(`game over, winner ${w}`); return; }
  log('unknown message ignored');
}

const rl = readline.createInterface({ input: process.stdin, terminal: false });
rl.on('line', (line) => {
  // Any bug in here must not kill the bot mid-game: log it and answer nothing for this message.
  try { onLine(line); } catch (e) { log(`error: ${e && e.stack}`); }
});
