/* The stones engine and searcher, compiled: the move generator, apply and undo, the
 * evaluation and an iterative-deepening alpha-beta search, for the built-in `search` bot.
 *
 * It holds no fact of its own about the game. `configure()` hands it, once per process,
 * the board's rays (arena_stones.board), the Zobrist keys (arena_stones.rules) and the
 * evaluation's weights (arena_stones.search), so that a position here has the same cells,
 * moves (in the same order), hash, winner and value as arena_stones.rules.Position and
 * arena_stones.search.compiled_evaluate, which stay the reference: the tests play both
 * side by side.
 *
 * A cell holds the protocol's `owner * (height * 4 + type)`; a move is
 * `kind << 12 | from << 6 | to` (0 is the pass); values are for the side to move, and a
 * child's value is negated only when the side to move changes (a turn is two requests).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NCELLS 60
#define NDIRS 6
#define MAXRAY 9
#define MAXMOVES 400
#define MAXPLY 128
#define HISTORY 12288
#define STACK_VALUES 31
#define MOBILITIES 361

enum { PASS = 0, ATTACK = 1, STRENGTHEN = 2 };
enum { EXACT = 0, LOWER = 1, UPPER = 2 };

#define WIN 1000000
#define DECIDED (WIN - 1000)
#define INF (WIN + 1)

/* -- what configure() hands over ---------------------------------------------------- */

static int configured;
static uint64_t zobrist[NCELLS][256];
static uint64_t turn_keys[4];
static int8_t rays[NCELLS][NDIRS][MAXRAY + 1]; /* each ends with -1 */
static int nrays[NCELLS];
static int8_t forward[NCELLS][NDIRS][MAXRAY + 1]; /* towards E, S, SE: each pair seen once */
static int nforward[NCELLS];
static uint64_t forward_mask[NCELLS][3]; /* the cells of each forward ray, as bits */
static int stack_value[STACK_VALUES];
static int loss[STACK_VALUES];
static int height_bonus[STACK_VALUES];
static int mobility[MOBILITIES];
static int own_gain, their_gain;
static int safe_type[STACK_VALUES];
static int tallest_bonus;

/* -- positions ------------------------------------------------------------------------ */

typedef struct {
    int8_t cells[NCELLS];
    int8_t player; /* 1 White, -1 Black */
    int8_t phase;  /* 0: a turn's attack-only request, 1: its second */
    int8_t single; /* White's opening turn, one request */
    int8_t decided;
    int16_t counts[8]; /* stacks by top type: White's at 1..3, Black's at 5..7 */
    uint64_t hash;
    uint64_t occupied; /* bit i set: cell i holds a stack */
} Pos;

typedef struct {
    uint64_t hash;
    uint16_t move;
    int8_t vf, vt, player, phase, single, decided;
} Undo;

static inline int absi(int v) { return v < 0 ? -v : v; }
static inline int slot_of(int v) { return v > 0 ? (v & 3) : ((-v) & 3) + 4; }
static inline int move_kind(int m) { return m >> 12; }
static inline int move_from(int m) { return (m >> 6) & 63; }
static inline int move_to(int m) { return m & 63; }
static inline int make_move(int kind, int f, int t) { return kind << 12 | f << 6 | t; }

static int missing(const Pos *p, int who) {
    int base = who > 0 ? 0 : 4;
    for (int kind = 1; kind <= 3; kind++)
        if (!p->counts[base + kind]) return kind;
    return 0;
}

/* Fill counts, hash and decided from the cells; -1 if both sides lack a type. */
static int pos_init(Pos *p) {
    memset(p->counts, 0, sizeof p->counts);
    uint64_t key = turn_keys[(p->player > 0) * 2 + p->phase];
    p->occupied = 0;
    for (int i = 0; i < NCELLS; i++) {
        int v = p->cells[i];
        if (v) {
            p->counts[slot_of(v)]++;
            key ^= zobrist[i][(uint8_t)v];
            p->occupied |= (uint64_t)1 << i;
        }
    }
    p->hash = key;
    p->decided = 0;
    int white = missing(p, 1), black = missing(p, -1);
    if (white && black) return -1;
    if (white) p->decided = -1;
    if (black) p->decided = 1;
    return 0;
}

/* Every legal move, in arena_stones.rules.Position.legal_moves' order: the captures, then
 * (at a second request) the pass and the strengthens. None once the game is decided. */
static int generate(const Pos *p, uint16_t *out) {
    if (p->decided) return 0;
    const int8_t *cells = p->cells;
    int me = p->player, second = p->phase == 1;
    uint16_t quiet[MAXMOVES];
    int n = 0, q = 0;
    quiet[q++] = PASS;
    for (int f = 0; f < NCELLS; f++) {
        int v = cells[f];
        if (v * me <= 0) continue;
        int h = absi(v) >> 2;
        for (int r = 0; r < nrays[f]; r++) {
            for (const int8_t *t = rays[f][r]; *t >= 0; t++) {
                int w = cells[*t];
                if (w) {
                    if (w * me < 0) {
                        if ((absi(w) >> 2) <= h) out[n++] = make_move(ATTACK, f, *t);
                    } else if (second) {
                        quiet[q++] = make_move(STRENGTHEN, f, *t);
                    }
                    break;
                }
            }
        }
    }
    if (!second) return n;
    memcpy(out + n, quiet, q * sizeof *quiet);
    return n + q;
}

/* 1 or -1 once the game is decided (a type lost, or no capture at a turn's start), else 0. */
static int winner(const Pos *p) {
    uint16_t moves[MAXMOVES];
    if (p->decided) return p->decided;
    if (p->phase == 0 && !generate(p, moves)) return -p->player;
    return 0;
}

static void apply(Pos *p, int m, Undo *u) {
    int kind = move_kind(m);
    int player = p->player, phase = p->phase;
    uint64_t key = p->hash;
    u->hash = key;
    u->move = (uint16_t)m;
    u->player = (int8_t)player;
    u->phase = (int8_t)phase;
    u->single = p->single;
    u->decided = p->decided;
    u->vf = u->vt = 0;
    if (kind) {
        int f = move_from(m), t = move_to(m);
        int vf = p->cells[f], vt = p->cells[t];
        int new;
        u->vf = (int8_t)vf;
        u->vt = (int8_t)vt;
        if (kind == ATTACK)
            new = vf;
        else if (vt > 0)
            new = vf + (vt & ~3);
        else
            new = vf - ((-vt) & ~3);
        p->cells[f] = 0;
        p->cells[t] = (int8_t)new;
        p->occupied &= ~((uint64_t)1 << f);
        key ^= zobrist[f][(uint8_t)vf] ^ zobrist[t][(uint8_t)vt] ^ zobrist[t][(uint8_t)new];
        int slot = slot_of(vt);
        if (!--p->counts[slot]) p->decided = (int8_t)(kind == ATTACK ? player : -player);
    }
    key ^= turn_keys[(player > 0) * 2 + phase];
    if (phase == 0 && !p->single) {
        p->phase = 1;
        key ^= turn_keys[(player > 0) * 2 + 1];
    } else {
        p->player = (int8_t)-player;
        p->phase = 0;
        p->single = 0;
        key ^= turn_keys[(player < 0) * 2];
    }
    p->hash = key;
}

static void undo(Pos *p, const Undo *u) {
    p->hash = u->hash;
    p->player = u->player;
    p->phase = u->phase;
    p->single = u->single;
    p->decided = u->decided;
    if (move_kind(u->move)) {
        p->cells[move_from(u->move)] = u->vf;
        p->cells[move_to(u->move)] = u->vt;
        p->occupied |= (uint64_t)1 << move_from(u->move);
        p->counts[slot_of(u->vt)]++;
    }
}

/* -- the evaluation: arena_stones.search.compiled_evaluate, term by term --------------- */

static int floor_div(int a, int b) {
    int q = a / b;
    return (a % b && (a < 0) != (b < 0)) ? q - 1 : q;
}

static int best_gain(const int16_t *counts, int base, const int *threatened, int captures) {
    int best = 0;
    for (int kind = 1; kind <= 3; kind++) {
        if (!threatened[kind]) continue;
        int one = loss[counts[base + kind]];
        if (one > best) best = one;
        if (captures == 2) {
            if (threatened[kind] >= 2) {
                int two = one + loss[counts[base + kind] - 1];
                if (two > best) best = two;
            }
            for (int other = kind + 1; other <= 3; other++) {
                if (threatened[other]) {
                    int two = one + loss[counts[base + other]];
                    if (two > best) best = two;
                }
            }
        }
    }
    return best;
}

static int evaluate(const Pos *p) {
    const int8_t *cells = p->cells;
    int heights = 0, attacks_w = 0, attacks_b = 0;
    int threat_w[4] = {0}, threat_b[4] = {0};
    int tall[8] = {0}; /* the tallest stack by top type, as counts */
    uint8_t hit[NCELLS] = {0};
    const uint64_t occupied = p->occupied;
    /* Two stacks that see each other along a line are found once, from the first in reading
     * order: a forward ray's cells come in increasing order, so its nearest stack is the
     * lowest occupied bit of its mask. */
    for (uint64_t rest = occupied; rest; rest &= rest - 1) {
        int f = __builtin_ctzll(rest);
        int v = cells[f];
        if (v > 0) {
            int h = v >> 2;
            heights += height_bonus[h];
            if (h > tall[v & 3]) tall[v & 3] = h;
            for (int r = 0; r < nforward[f]; r++) {
                uint64_t seen = occupied & forward_mask[f][r];
                if (!seen) continue;
                int t = __builtin_ctzll(seen), w = cells[t];
                if (w < 0) {
                    int g = (-w) >> 2;
                    if (h >= g) {
                        attacks_w++;
                        if (!hit[t]) {
                            hit[t] = 1;
                            threat_b[(-w) & 3]++;
                        }
                    }
                    if (g >= h) {
                        attacks_b++;
                        if (!hit[f]) {
                            hit[f] = 1;
                            threat_w[v & 3]++;
                        }
                    }
                }
            }
        } else {
            int h = (-v) >> 2;
            heights -= height_bonus[h];
            if (h > tall[4 + ((-v) & 3)]) tall[4 + ((-v) & 3)] = h;
            for (int r = 0; r < nforward[f]; r++) {
                uint64_t seen = occupied & forward_mask[f][r];
                if (!seen) continue;
                int t = __builtin_ctzll(seen), w = cells[t];
                if (w > 0) {
                    int g = w >> 2;
                    if (h >= g) {
                        attacks_b++;
                        if (!hit[t]) {
                            hit[t] = 1;
                            threat_w[w & 3]++;
                        }
                    }
                    if (g >= h) {
                        attacks_w++;
                        if (!hit[f]) {
                            hit[f] = 1;
                            threat_b[(-v) & 3]++;
                        }
                    }
                }
            }
        }
    }
    const int16_t *c = p->counts;
    int material = stack_value[c[1]] + stack_value[c[2]] + stack_value[c[3]] - stack_value[c[5]] -
                   stack_value[c[6]] - stack_value[c[7]];
    int score = material + heights + mobility[attacks_w] - mobility[attacks_b];
    /* Safety: a type whose tallest stack is taller than every enemy stack cannot be
     * captured until the enemy builds one as tall; and the side with the tallest stack can
     * capture any stack it reaches. */
    int top_w = tall[1] > tall[2] ? tall[1] : tall[2], top_b = tall[5] > tall[6] ? tall[5] : tall[6];
    if (tall[3] > top_w) top_w = tall[3];
    if (tall[7] > top_b) top_b = tall[7];
    for (int kind = 1; kind <= 3; kind++) {
        if (tall[kind] > top_b) score += safe_type[c[kind]];
        if (tall[kind + 4] > top_w) score -= safe_type[c[kind + 4]];
    }
    score += top_w > top_b ? tallest_bonus : top_b > top_w ? -tallest_bonus : 0;
    int mine = p->phase == 0 ? 2 : 1;
    if (p->player > 0) {
        if (!attacks_w && p->phase == 0) return -WIN;
        int own = best_gain(c, 4, threat_b, mine), theirs = best_gain(c, 0, threat_w, 2);
        return score + floor_div(own_gain * own - their_gain * theirs, 10);
    }
    if (!attacks_b && p->phase == 0) return -WIN;
    int own = best_gain(c, 0, threat_w, mine), theirs = best_gain(c, 4, threat_b, 2);
    return -score + floor_div(own_gain * own - their_gain * theirs, 10);
}

/* -- the search ---------------------------------------------------------------------- */

typedef struct {
    uint64_t key;
    int32_t value;
    uint16_t move;
    int8_t depth;
    uint8_t flag_age; /* flag in the low 2 bits, the search's generation above */
} Entry;

typedef struct {
    Pos pos;
    Entry *table;
    uint64_t mask; /* entries - 1; a bucket is two entries: depth-preferred, always-replace */
    uint8_t age;
    int32_t history[HISTORY];
    uint16_t killers[MAXPLY][2];
    uint64_t nodes;
    int stop;
    clockid_t clock;      /* what the budget is measured on: the wall or the process's CPU */
    struct timespec hard; /* the budget's end, on that clock */
    struct timespec wall; /* the end by the wall clock, whatever the budget's clock */
    struct timespec started, ran_from; /* the search's start, by the wall and by its thread's CPU */
    double seconds;                    /* its budget */
    uint16_t improved; /* the best root move of the iteration in progress, once one is known */
    int have_improved;
    int full_width; /* no move left out: what thinning is held to */
} Search;

static double seconds_since(clockid_t clock, const struct timespec *start) {
    struct timespec now;
    clock_gettime(clock, &now);
    return (double)(now.tv_sec - start->tv_sec) + (now.tv_nsec - start->tv_nsec) * 1e-9;
}

static int past(clockid_t clock, const struct timespec *deadline) {
    struct timespec now;
    clock_gettime(clock, &now);
    return now.tv_sec > deadline->tv_sec ||
           (now.tv_sec == deadline->tv_sec && now.tv_nsec >= deadline->tv_nsec);
}

static struct timespec after(clockid_t clock, double seconds) {
    struct timespec t;
    clock_gettime(clock, &t);
    if (seconds < 0) seconds = 0;
    time_t whole = (time_t)seconds;
    t.tv_sec += whole;
    t.tv_nsec += (long)((seconds - (double)whole) * 1e9);
    if (t.tv_nsec >= 1000000000L) {
        t.tv_sec++;
        t.tv_nsec -= 1000000000L;
    }
    return t;
}

#define STARVED 0.5 /* on the wall clock, the least share of its time the search expects to run */
#define STARVED_FLOOR 0.2 /* the least share of its budget a starved search still takes */

/* Whether the search must stop: its budget spent on its clock, or its wall-clock stop
 * passed. On the wall clock also when the machine is so busy that the search has run less
 * than STARVED of the time it took: then everything after it (the reply written, the
 * referee reading it) is as slow, and the stalls of a starved process are long, so it
 * stops early, the earlier the less it ran (not before STARVED_FLOOR of its budget). */
static int out_of_time(Search *s) {
    if (past(s->clock, &s->hard)) return 1;
    if (s->clock != CLOCK_MONOTONIC) return past(CLOCK_MONOTONIC, &s->wall);
    double wall = seconds_since(CLOCK_MONOTONIC, &s->started);
    if (wall < s->seconds * STARVED_FLOOR) return 0;
    double share = seconds_since(CLOCK_THREAD_CPUTIME_ID, &s->ran_from) / wall;
    return share < STARVED && wall >= s->seconds * share / STARVED;
}

#define CHECK_EVERY 1023 /* the clock is read every 1024 nodes: well under a millisecond */

/* How the search thins its tree away from the principal variation: at null-window nodes
 * where no side is down to its last stacks of a type, never the first move. Together they
 * reach two requests deeper in the same time, and were kept by A/B games against the same
 * search without them (the figures are in the plugin's README). */
#define LMR_DEPTH 3          /* late strengthens are searched a request less deep from here */
#define LMR_DEEP 5           /* and two requests less from here, after ... */
#define LMR_DEEP_AFTER 12    /* ... this many strengthens */
#define CAPTURE_LMR_DEPTH 2  /* late captures of a plentiful type a request less deep from here */
#define PLENTIFUL 3          /* a type with more stacks than this is not about to be lost */
#define LATE_CAPTURES 6      /* one request above the leaves, captures after this many ... */
#define LATE_PLENTIFUL 4     /* ... of a type with more stacks than this are not searched */
#define FUTILITY_DEPTH 2     /* futility is judged up to this many requests above the leaves */
#define FUTILITY_MARGIN 100  /* a request's worth: how far a quiet move may raise the value */

/* Strengthens searched at a node this many requests above the leaves; the rest are not. */
static const int late_strengthens[] = {0, 2, 4, 8, 12};
#define LMP_DEPTH ((int)(sizeof late_strengthens / sizeof *late_strengthens) - 1)

static Entry *probe(Search *s, uint64_t key) {
    Entry *bucket = &s->table[(key & s->mask) & ~(uint64_t)1];
    if (bucket[0].key == key) return &bucket[0];
    if (bucket[1].key == key) return &bucket[1];
    return NULL;
}

static void store(Search *s, uint64_t key, int depth, int value, int flag, int move) {
    Entry *bucket = &s->table[(key & s->mask) & ~(uint64_t)1];
    Entry *e = &bucket[1];
    if (bucket[0].key == key || bucket[0].depth <= depth || (bucket[0].flag_age >> 2) != s->age)
        e = &bucket[0];
    e->key = key;
    e->value = value;
    e->move = (uint16_t)move;
    e->depth = (int8_t)depth;
    e->flag_age = (uint8_t)(flag | s->age << 2);
}

/* Captures of the opponent's scarcest types first (a last one wins), then the killers,
 * then the quiet moves by history and by what they stack: a scarce type put on top gains,
 * one buried loses. */
static void score_moves(const Search *s, const uint16_t *moves, int n, int64_t *scores,
                        int first, int ply) {
    const Pos *p = &s->pos;
    int theirs = p->player > 0 ? 4 : 0, mine = 4 - theirs;
    for (int i = 0; i < n; i++) {
        int m = moves[i];
        int64_t score;
        if (m == first) {
            score = (int64_t)1 << 40;
        } else if (move_kind(m) == ATTACK) {
            int victim = absi(p->cells[move_to(m)]);
            int attacker = absi(p->cells[move_from(m)]);
            score = ((int64_t)1 << 36) + (int64_t)loss[p->counts[theirs + (victim & 3)]] * 64 +
                    (victim >> 2) * 4 - (attacker >> 2);
        } else if (ply < MAXPLY && (m == s->killers[ply][0] || m == s->killers[ply][1])) {
            score = ((int64_t)1 << 34) + (m == s->killers[ply][0]);
        } else if (m == PASS) {
            score = ((int64_t)1 << 33) + s->history[m];
        } else {
            int kept = loss[p->counts[mine + (absi(p->cells[move_from(m)]) & 3)]];
            int buried = loss[p->counts[mine + (absi(p->cells[move_to(m)]) & 3)]];
            score = ((int64_t)s->history[m] << 20) + kept - buried;
        }
        scores[i] = score;
    }
}

static int pick(uint16_t *moves, int64_t *scores, int from, int n) {
    int best = from;
    for (int i = from + 1; i < n; i++)
        if (scores[i] > scores[best]) best = i;
    if (best != from) {
        uint16_t m = moves[best];
        int64_t sc = scores[best];
        moves[best] = moves[from];
        scores[best] = scores[from];
        moves[from] = m;
        scores[from] = sc;
    }
    return moves[from];
}

static int search(Search *s, int depth, int alpha, int beta, int ply);

static inline int child(Search *s, int same, int depth, int alpha, int beta, int ply) {
    if (same) return search(s, depth, alpha, beta, ply);
    return -search(s, depth, -beta, -alpha, ply);
}

static void reward(Search *s, int move, int depth, int ply) {
    if (move_kind(move) == ATTACK) return;
    int32_t *h = &s->history[move];
    *h += depth * depth;
    if (*h > (1 << 20)) {
        for (int i = 0; i < HISTORY; i++) s->history[i] >>= 1;
    }
    if (ply < MAXPLY && s->killers[ply][0] != move) {
        s->killers[ply][1] = s->killers[ply][0];
        s->killers[ply][0] = (uint16_t)move;
    }
}

#define QUIESCE_DEPTH 4
#define SCARCE 2 /* a type down to this many stacks is about to be lost */

/* Past the search's depth, only the captures that take one of the opponent's last
 * SCARCE stacks of a type are searched (those decide games; the evaluation's
 * threats stand in for the rest), up to QUIESCE_DEPTH requests more. The side to move
 * may stand on the evaluation (which counts the captures it is about to make). */
static int quiesce(Search *s, int alpha, int beta, int ply, int left) {
    Pos *p = &s->pos;
    if (!(++s->nodes & CHECK_EVERY) && out_of_time(s)) s->stop = 1;
    if (s->stop) return 0;
    if (p->decided) return p->decided == p->player ? WIN - ply : ply - WIN;
    int stand = evaluate(p);
    if (stand == -WIN) return ply - WIN;
    if (!left || stand >= beta) return stand;
    int theirs = p->player > 0 ? 4 : 0;
    if (p->counts[theirs + 1] > SCARCE && p->counts[theirs + 2] > SCARCE &&
        p->counts[theirs + 3] > SCARCE)
        return stand; /* no capture here takes a scarce stack: no moves to generate */
    if (stand > alpha) alpha = stand;
    uint16_t moves[MAXMOVES];
    int n = generate(p, moves);
    int me = p->player, best = stand;
    for (int i = 0; i < n; i++) {
        int m = moves[i];
        if (move_kind(m) != ATTACK) break; /* the captures come first */
        int victim = absi(p->cells[move_to(m)]) & 3;
        if (p->counts[theirs + victim] > SCARCE) continue;
        Undo u;
        apply(p, m, &u);
        int value = p->player == me ? quiesce(s, alpha, beta, ply + 1, left - 1)
                                    : -quiesce(s, -beta, -alpha, ply + 1, left - 1);
        undo(p, &u);
        if (s->stop) return 0;
        if (value > best) {
            best = value;
            if (value > alpha) {
                alpha = value;
                if (alpha >= beta) break;
            }
        }
    }
    return best;
}

/* Whether a side is down to its last stacks of a type: then every move may decide the
 * game, and the search leaves none out. */
static int tense(const Pos *p) {
    for (int kind = 1; kind <= 3; kind++)
        if (p->counts[kind] <= SCARCE || p->counts[4 + kind] <= SCARCE) return 1;
    return 0;
}

/* Where futility is judged: near the leaves, at a turn's second request. Only there does a
 * thinned node need its evaluation. */
static inline int futility_frontier(const Pos *p, int depth) {
    return depth <= FUTILITY_DEPTH && p->phase == 1;
}

/* Whether a move of a null-window node is left out: late strengthens near the leaves, all
 * the strengthens (and captures of a plentiful type) of a node too far below alpha for a
 * quiet move to matter, and late captures of a plentiful type one request above the
 * leaves. `quiets` counts the strengthens reached so far, this one included. */
static int pruned(const Search *s, int move, int i, int depth, int alpha, int stand, int quiets) {
    const Pos *p = &s->pos;
    int frontier = futility_frontier(p, depth);
    if (move_kind(move) == STRENGTHEN)
        return (depth <= LMP_DEPTH && quiets > late_strengthens[depth]) ||
               (frontier && stand + FUTILITY_MARGIN * depth <= alpha);
    if (move_kind(move) != ATTACK) return 0;
    int left = p->counts[(p->player > 0 ? 4 : 0) + (absi(p->cells[move_to(move)]) & 3)];
    if (depth == 1 && i >= LATE_CAPTURES && left > LATE_PLENTIFUL) return 1;
    return frontier && left > PLENTIFUL && stand + FUTILITY_MARGIN * (depth + 1) <= alpha;
}

static int search(Search *s, int depth, int alpha, int beta, int ply) {
    Pos *p = &s->pos;
    if (!(++s->nodes & CHECK_EVERY) && out_of_time(s)) s->stop = 1;
    if (s->stop) return 0;
    if (p->decided) return p->decided == p->player ? WIN - ply : ply - WIN;
    if (depth <= 0) return quiesce(s, alpha, beta, ply, QUIESCE_DEPTH);
    uint64_t key = p->hash;
    int first = -1;
    Entry *e = probe(s, key);
    if (e != NULL) {
        first = e->move;
        if (e->depth >= depth) {
            int value = e->value, flag = e->flag_age & 3;
            if (value >= DECIDED)
                value -= ply;
            else if (value <= -DECIDED)
                value += ply;
            if (flag == EXACT || (flag == LOWER && value >= beta) || (flag == UPPER && value <= alpha))
                return value;
        }
    }
    uint16_t moves[MAXMOVES];
    int64_t scores[MAXMOVES];
    int n = generate(p, moves);
    if (!n) return ply - WIN;
    int thin = beta - alpha == 1 && !s->full_width && !tense(p);
    int stand = thin && futility_frontier(p, depth) ? evaluate(p) : -INF;
    score_moves(s, moves, n, scores, first, ply);
    int me = p->player, original = alpha, best = -INF, best_move = -1, quiets = 0;
    for (int i = 0; i < n; i++) {
        int move = pick(moves, scores, i, n);
        int late = i > 0 && move != first;
        quiets += late && thin && move_kind(move) == STRENGTHEN;
        if (late && thin && pruned(s, move, i, depth, alpha, stand, quiets)) {
            if (move_kind(move) == STRENGTHEN) {
                /* every later strengthen would be left out too: drop them unpicked */
                int kept = i + 1;
                for (int j = i + 1; j < n; j++) {
                    if (move_kind(moves[j]) != STRENGTHEN) {
                        moves[kept] = moves[j];
                        scores[kept++] = scores[j];
                    }
                }
                n = kept;
            }
            continue;
        }
        Undo u;
        apply(p, move, &u);
        int same = p->player == me, value;
        if (i == 0) {
            value = child(s, same, depth - 1, alpha, beta, ply + 1);
        } else {
            /* Late moves, by the order above, are first searched less deep; one that proves
             * better than alpha is searched again at full depth: strengthens from the third,
             * and captures from the third of a type that keeps more than PLENTIFUL stacks. */
            int reduce = 0;
            if (late && i >= 2 && move_kind(move) == STRENGTHEN && depth >= LMR_DEPTH)
                reduce = depth >= LMR_DEEP && quiets > LMR_DEEP_AFTER ? 2 : 1;
            else if (late && i >= 2 && move_kind(move) == ATTACK && depth >= CAPTURE_LMR_DEPTH &&
                     p->counts[slot_of(u.vt)] > PLENTIFUL)
                reduce = 1;
            value = child(s, same, depth - 1 - reduce, alpha, alpha + 1, ply + 1);
            if (reduce && value > alpha && !s->stop)
                value = child(s, same, depth - 1, alpha, alpha + 1, ply + 1);
            if (value > alpha && value < beta && !s->stop)
                value = child(s, same, depth - 1, alpha, beta, ply + 1);
        }
        undo(p, &u);
        if (s->stop) return 0;
        if (value > best) {
            best = value;
            best_move = move;
            if (value > alpha) {
                alpha = value;
                if (alpha >= beta) {
                    reward(s, move, depth, ply);
                    break;
                }
            }
        }
    }
    int flag = best >= beta ? LOWER : best > original ? EXACT : UPPER;
    int stored = best >= DECIDED ? best + ply : best <= -DECIDED ? best - ply : best;
    store(s, key, depth, stored, flag, best_move);
    return best;
}

/* One iteration over the root moves (kept in order: the best of the last iteration first);
 * returns the best value and moves the best move to the front. */
static int root(Search *s, uint16_t *moves, int n, int depth) {
    Pos *p = &s->pos;
    int me = p->player, alpha = -INF;
    int64_t values[MAXMOVES];
    s->have_improved = 0;
    for (int i = 0; i < n; i++) {
        Undo u;
        apply(p, moves[i], &u);
        int same = p->player == me, value;
        if (i == 0) {
            value = child(s, same, depth - 1, alpha, INF, 1);
        } else {
            value = child(s, same, depth - 1, alpha, alpha + 1, 1);
            if (value > alpha && !s->stop) {
                /* Proven better than the best so far: worth playing even if the clock stops
                 * the exact search that follows. */
                s->improved = moves[i];
                s->have_improved = 1;
                value = child(s, same, depth - 1, value, INF, 1);
            }
        }
        undo(p, &u);
        if (s->stop) return alpha;
        values[i] = value;
        if (value > alpha) {
            alpha = value;
            s->improved = moves[i];
            s->have_improved = 1;
        }
    }
    /* A stable sort by value, best first: moves that failed low only have an upper bound,
     * still a fair order for the next iteration. */
    for (int i = 1; i < n; i++) {
        uint16_t m = moves[i];
        int64_t v = values[i];
        int j = i - 1;
        while (j >= 0 && values[j] < v) {
            values[j + 1] = values[j];
            moves[j + 1] = moves[j];
            j--;
        }
        values[j + 1] = v;
        moves[j + 1] = m;
    }
    return (int)values[0];
}

typedef struct {
    int move, depth, value;
    uint64_t nodes;
    double elapsed;
} Result;

/* The best move within `hard` seconds on `clock` (and `wall` seconds by the wall clock), no
 * new iteration begun after `soft` seconds on `clock`. */
static Result think(Search *s, clockid_t clock, double hard, double soft, double wall,
                    int max_depth) {
    struct timespec start, budget_start;
    clock_gettime(CLOCK_MONOTONIC, &start);
    clock_gettime(clock, &budget_start);
    s->clock = clock;
    s->started = start;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &s->ran_from);
    s->seconds = hard;
    s->hard = after(clock, hard);
    s->wall = after(CLOCK_MONOTONIC, wall);
    s->stop = 0;
    s->nodes = 0;
    s->age = (uint8_t)((s->age + 1) & 63);
    for (int i = 0; i < HISTORY; i++) s->history[i] >>= 2;
    memset(s->killers, 0, sizeof s->killers);
    uint16_t moves[MAXMOVES];
    int n = generate(&s->pos, moves);
    Result r = {n ? moves[0] : -1, 0, 0, 0, 0.0};
    if (n > 1) {
        /* The first iteration's order: as the inner nodes order their moves. */
        int64_t scores[MAXMOVES];
        Entry *e = probe(s, s->pos.hash);
        score_moves(s, moves, n, scores, e ? e->move : -1, 0);
        for (int i = 0; i < n; i++) pick(moves, scores, i, n);
        r.move = moves[0];
        for (int depth = 1; depth <= max_depth; depth++) {
            int value = root(s, moves, n, depth);
            if (s->stop) {
                if (s->have_improved) r.move = s->improved;
                break;
            }
            r.move = moves[0];
            r.depth = depth;
            r.value = value;
            if (value >= DECIDED || value <= -DECIDED || seconds_since(clock, &budget_start) >= soft)
                break;
        }
    }
    r.nodes = s->nodes;
    r.elapsed = seconds_since(CLOCK_MONOTONIC, &start);
    return r;
}

/* -- Python: configure() ---------------------------------------------------------------- */

static int read_ints(PyObject *seq, const char *what, int *out, Py_ssize_t size) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (fast == NULL) return -1;
    if (PySequence_Fast_GET_SIZE(fast) < size) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "%s: at least %zd values needed", what, size);
        return -1;
    }
    for (Py_ssize_t i = 0; i < size; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
        out[i] = (int)v;
    }
    Py_DECREF(fast);
    return 0;
}

static int read_keys(PyObject *seq, const char *what, uint64_t *out, Py_ssize_t size) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (fast == NULL) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != size) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "%s: %zd keys needed", what, size);
        return -1;
    }
    for (Py_ssize_t i = 0; i < size; i++) {
        out[i] = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(fast, i));
        if (PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
    }
    Py_DECREF(fast);
    return 0;
}

/* rays: per cell, a sequence of rays, each a sequence of cell indexes. */
static int read_rays(PyObject *seq, const char *what, int8_t out[][NDIRS][MAXRAY + 1], int *count,
                     int most) {
    PyObject *cells = PySequence_Fast(seq, what);
    if (cells == NULL) return -1;
    int ok = PySequence_Fast_GET_SIZE(cells) == NCELLS;
    for (Py_ssize_t c = 0; ok && c < NCELLS; c++) {
        PyObject *cell = PySequence_Fast(PySequence_Fast_GET_ITEM(cells, c), what);
        if (cell == NULL) break;
        Py_ssize_t n = PySequence_Fast_GET_SIZE(cell);
        ok = n <= most;
        count[c] = (int)n;
        for (Py_ssize_t r = 0; ok && r < n; r++) {
            PyObject *ray = PySequence_Fast(PySequence_Fast_GET_ITEM(cell, r), what);
            if (ray == NULL) {
                ok = 0;
                break;
            }
            Py_ssize_t len = PySequence_Fast_GET_SIZE(ray);
            ok = len <= MAXRAY;
            for (Py_ssize_t k = 0; ok && k < len; k++) {
                long t = PyLong_AsLong(PySequence_Fast_GET_ITEM(ray, k));
                ok = t >= 0 && t < NCELLS;
                out[c][r][k] = (int8_t)t;
            }
            out[c][r][ok ? len : 0] = -1;
            Py_DECREF(ray);
        }
        Py_DECREF(cell);
    }
    Py_DECREF(cells);
    if (!ok && !PyErr_Occurred()) PyErr_Format(PyExc_ValueError, "%s: not a board's rays", what);
    return ok ? 0 : -1;
}

/* forward_mask from forward; -1 unless every forward ray's cells increase, which the
 * evaluation's lowest-bit lookup of a ray's nearest stack relies on. */
static int forward_masks(void) {
    for (int c = 0; c < NCELLS; c++) {
        for (int r = 0; r < nforward[c]; r++) {
            uint64_t mask = 0;
            int last = c;
            for (const int8_t *t = forward[c][r]; *t >= 0; t++) {
                if (*t <= last) return -1;
                last = *t;
                mask |= (uint64_t)1 << *t;
            }
            forward_mask[c][r] = mask;
        }
    }
    return 0;
}

static PyObject *py_configure(PyObject *self, PyObject *args, PyObject *kw) {
    static char *names[] = {"rays",       "forward_rays", "zobrist",       "turn_keys",
                            "stack_value", "loss",        "height",        "mobility",
                            "own_gain",   "their_gain",   "safe_type",     "tallest",
                            NULL};
    PyObject *ray_seq, *forward_seq, *zob_seq, *turn_seq, *value_seq, *loss_seq, *height_seq,
        *mobility_seq, *safe_seq;
    int own, their, tallest;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOOOOOOOiiOi", names, &ray_seq, &forward_seq,
                                     &zob_seq, &turn_seq, &value_seq, &loss_seq, &height_seq,
                                     &mobility_seq, &own, &their, &safe_seq, &tallest))
        return NULL;
    uint64_t *keys = PyMem_Malloc(sizeof(uint64_t) * NCELLS * 256);
    if (keys == NULL) return PyErr_NoMemory();
    int failed = read_rays(ray_seq, "rays", rays, nrays, NDIRS) ||
                 read_rays(forward_seq, "forward_rays", forward, nforward, 3) ||
                 read_keys(zob_seq, "zobrist", keys, NCELLS * 256) ||
                 read_keys(turn_seq, "turn_keys", turn_keys, 4) ||
                 read_ints(value_seq, "stack_value", stack_value, STACK_VALUES) ||
                 read_ints(loss_seq, "loss", loss, STACK_VALUES) ||
                 read_ints(height_seq, "height", height_bonus, STACK_VALUES) ||
                 read_ints(mobility_seq, "mobility", mobility, MOBILITIES) ||
                 read_ints(safe_seq, "safe_type", safe_type, STACK_VALUES);
    if (!failed && forward_masks()) {
        PyErr_SetString(PyExc_ValueError, "forward_rays: a ray's cells must come in increasing order");
        failed = 1;
    }
    if (!failed) {
        memcpy(zobrist, keys, sizeof zobrist);
        own_gain = own;
        their_gain = their;
        tallest_bonus = tallest;
        configured = 1;
    }
    PyMem_Free(keys);
    if (failed) return NULL;
    Py_RETURN_NONE;
}

static int check_configured(void) {
    if (!configured) PyErr_SetString(PyExc_RuntimeError, "configure() the engine first");
    return configured;
}

/* -- Python: Board ------------------------------------------------------------------- */

#define BOARD_UNDOS 1024

typedef struct {
    PyObject_HEAD Pos pos;
    Undo undos[BOARD_UNDOS];
    int top;
} Board;

static PyTypeObject BoardType;

static PyObject *move_tuple(int m) {
    if (!move_kind(m)) return Py_BuildValue("(iii)", PASS, -1, -1);
    return Py_BuildValue("(iii)", move_kind(m), move_from(m), move_to(m));
}

static int move_of(PyObject *obj, int *m) {
    int kind, f, t;
    if (!PyArg_ParseTuple(obj, "iii;a move is (kind, from, to)", &kind, &f, &t)) return -1;
    if (kind == PASS) {
        *m = PASS;
        return 0;
    }
    if ((kind != ATTACK && kind != STRENGTHEN) || f < 0 || f >= NCELLS || t < 0 || t >= NCELLS) {
        PyErr_Format(PyExc_ValueError, "not a move: (%d, %d, %d)", kind, f, t);
        return -1;
    }
    *m = make_move(kind, f, t);
    return 0;
}

/* Fill a position from (cells, player, phase, single); what a Board and a search start on. */
static int read_position(Pos *p, PyObject *cells, int player, int phase, int single) {
    if (!check_configured()) return -1;
    int values[NCELLS];
    PyObject *fast = PySequence_Fast(cells, "cells must be a sequence");
    if (fast == NULL) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    Py_DECREF(fast);
    if (n != NCELLS) {
        PyErr_Format(PyExc_ValueError, "a position has %d cells, not %zd", NCELLS, n);
        return -1;
    }
    if (read_ints(cells, "cells", values, NCELLS)) return -1;
    for (int i = 0; i < NCELLS; i++) {
        if (values[i] < -123 || values[i] > 123 || (values[i] && (absi(values[i]) & 3) == 0) ||
            (values[i] && absi(values[i]) < 4)) {
            PyErr_Format(PyExc_ValueError, "cell %d holds %d, which is no stack", i, values[i]);
            return -1;
        }
        p->cells[i] = (int8_t)values[i];
    }
    if ((player != 1 && player != -1) || (phase != 0 && phase != 1) || (single && phase)) {
        PyErr_SetString(PyExc_ValueError, "no such request (player, phase, single)");
        return -1;
    }
    p->player = (int8_t)player;
    p->phase = (int8_t)phase;
    p->single = (int8_t)(single != 0);
    if (pos_init(p)) {
        PyErr_SetString(PyExc_ValueError, "both sides lack a stone type: not a position of a game");
        return -1;
    }
    return 0;
}

static int Board_init(Board *self, PyObject *args, PyObject *kw) {
    static char *names[] = {"cells", "player", "phase", "single", NULL};
    PyObject *cells;
    int player, phase, single;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "Oiip", names, &cells, &player, &phase, &single))
        return -1;
    self->top = 0;
    return read_position(&self->pos, cells, player, phase, single);
}

static PyObject *Board_legal_moves(Board *self, PyObject *unused) {
    uint16_t moves[MAXMOVES];
    int n = generate(&self->pos, moves);
    PyObject *list = PyList_New(n);
    if (list == NULL) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *t = move_tuple(moves[i]);
        if (t == NULL) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, t);
    }
    return list;
}

static PyObject *Board_apply(Board *self, PyObject *move) {
    int m;
    if (move_of(move, &m)) return NULL;
    if (self->top == BOARD_UNDOS) {
        PyErr_SetString(PyExc_OverflowError, "too many moves to undo");
        return NULL;
    }
    apply(&self->pos, m, &self->undos[self->top++]);
    Py_RETURN_NONE;
}

static PyObject *Board_undo(Board *self, PyObject *unused) {
    if (!self->top) {
        PyErr_SetString(PyExc_IndexError, "no move to undo");
        return NULL;
    }
    undo(&self->pos, &self->undos[--self->top]);
    Py_RETURN_NONE;
}

static PyObject *Board_winner(Board *self, PyObject *unused) { return PyLong_FromLong(winner(&self->pos)); }

static PyObject *Board_evaluate(Board *self, PyObject *unused) { return PyLong_FromLong(evaluate(&self->pos)); }

static PyObject *Board_get_cells(Board *self, void *closure) {
    PyObject *list = PyList_New(NCELLS);
    if (list == NULL) return NULL;
    for (int i = 0; i < NCELLS; i++) PyList_SET_ITEM(list, i, PyLong_FromLong(self->pos.cells[i]));
    return list;
}

static PyObject *Board_get_counts(Board *self, void *closure) {
    PyObject *list = PyList_New(8);
    if (list == NULL) return NULL;
    for (int i = 0; i < 8; i++) PyList_SET_ITEM(list, i, PyLong_FromLong(self->pos.counts[i]));
    return list;
}

static PyObject *Board_get_player(Board *self, void *c) { return PyLong_FromLong(self->pos.player); }
static PyObject *Board_get_phase(Board *self, void *c) { return PyLong_FromLong(self->pos.phase); }
static PyObject *Board_get_single(Board *self, void *c) { return PyBool_FromLong(self->pos.single); }
static PyObject *Board_get_decided(Board *self, void *c) { return PyLong_FromLong(self->pos.decided); }
static PyObject *Board_get_hash(Board *self, void *c) { return PyLong_FromUnsignedLongLong(self->pos.hash); }

static PyMethodDef Board_methods[] = {
    {"legal_moves", (PyCFunction)Board_legal_moves, METH_NOARGS,
     "Every legal move as (kind, from, to), in Position.legal_moves' order."},
    {"apply", (PyCFunction)Board_apply, METH_O, "Play a legal move (unchecked)."},
    {"undo", (PyCFunction)Board_undo, METH_NOARGS, "Take back the last move applied."},
    {"winner", (PyCFunction)Board_winner, METH_NOARGS, "1 or -1 once decided, 0 while it runs."},
    {"evaluate", (PyCFunction)Board_evaluate, METH_NOARGS,
     "The position's worth to the side to move, as arena_stones.search.compiled_evaluate."},
    {NULL}};

static PyGetSetDef Board_getset[] = {
    {"cells", (getter)Board_get_cells, NULL, "the encoded cells by index", NULL},
    {"counts", (getter)Board_get_counts, NULL, "stacks by top type, as Position.counts", NULL},
    {"player", (getter)Board_get_player, NULL, "the side to move", NULL},
    {"phase", (getter)Board_get_phase, NULL, "0 at a turn's first request, 1 at its second", NULL},
    {"single", (getter)Board_get_single, NULL, "White's single-request opening turn", NULL},
    {"decided", (getter)Board_get_decided, NULL, "the winner by a lost type, or 0", NULL},
    {"hash", (getter)Board_get_hash, NULL, "the Zobrist key, as Position.hash", NULL},
    {NULL}};

static PyTypeObject BoardType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "arena_stones._engine.Board",
    .tp_doc = PyDoc_STR("Board(cells, player, phase, single): a position of the compiled engine."),
    .tp_basicsize = sizeof(Board),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Board_init,
    .tp_methods = Board_methods,
    .tp_getset = Board_getset,
};

/* -- Python: Searcher ---------------------------------------------------------------- */

typedef struct {
    PyObject_HEAD Search *search;
    int busy;
} Searcher;

static int Searcher_init(Searcher *self, PyObject *args, PyObject *kw) {
    static char *names[] = {"table_bits", NULL};
    int bits = 20;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|i", names, &bits)) return -1;
    if (bits < 4 || bits > 28) {
        PyErr_SetString(PyExc_ValueError, "table_bits must be between 4 and 28");
        return -1;
    }
    if (self->search == NULL) {
        self->search = calloc(1, sizeof(Search));
        if (self->search == NULL) {
            PyErr_NoMemory();
            return -1;
        }
    }
    free(self->search->table);
    /* calloc: the pages are only touched, and so only cost memory, as the search fills them. */
    self->search->table = calloc((size_t)1 << bits, sizeof(Entry));
    if (self->search->table == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    self->search->mask = ((uint64_t)1 << bits) - 1;
    return 0;
}

static void Searcher_dealloc(Searcher *self) {
    if (self->search != NULL) {
        free(self->search->table);
        free(self->search);
    }
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *Searcher_think(Searcher *self, PyObject *args, PyObject *kw) {
    static char *names[] = {"cells", "player", "phase", "single",     "seconds", "soft",
                            "max_depth", "cpu", "wall", "full_width", NULL};
    PyObject *cells;
    int player, phase, single, max_depth = 64, cpu = 0, full_width = 0;
    double hard, soft = -1.0, wall = -1.0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "Oiipd|dipdp", names, &cells, &player, &phase,
                                     &single, &hard, &soft, &max_depth, &cpu, &wall, &full_width))
        return NULL;
    if (self->search == NULL || self->search->table == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "Searcher was not initialised");
        return NULL;
    }
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "this Searcher is already thinking");
        return NULL;
    }
    if (max_depth < 1 || max_depth > MAXPLY - 8) {
        PyErr_Format(PyExc_ValueError, "max_depth must be between 1 and %d", MAXPLY - 8);
        return NULL;
    }
    Search *s = self->search;
    if (read_position(&s->pos, cells, player, phase, single)) return NULL;
    if (soft < 0) soft = hard;
    if (wall < 0) wall = hard;
    s->full_width = full_width;
    Result r;
    self->busy = 1;
    clockid_t clock = cpu ? CLOCK_PROCESS_CPUTIME_ID : CLOCK_MONOTONIC;
    Py_BEGIN_ALLOW_THREADS r = think(s, clock, hard, soft, cpu ? wall : hard, max_depth);
    Py_END_ALLOW_THREADS self->busy = 0;
    if (r.move < 0) {
        PyErr_SetString(PyExc_ValueError, "no legal move: the game is over");
        return NULL;
    }
    PyObject *move = move_tuple(r.move);
    if (move == NULL) return NULL;
    return Py_BuildValue("(NiiKd)", move, r.depth, r.value, (unsigned long long)r.nodes, r.elapsed);
}

static PyMethodDef Searcher_methods[] = {
    {"think", (PyCFunction)(void (*)(void))Searcher_think, METH_VARARGS | METH_KEYWORDS,
     "think(cells, player, phase, single, seconds, soft=seconds, max_depth=64, cpu=False, "
     "wall=seconds) -> (move, depth, value, nodes, elapsed): the best move found in at most "
     "`seconds` by the wall clock (with cpu: of the process's CPU time, and at most `wall` by the "
     "wall clock), no new iteration begun after `soft` on the same clock; depth is that of the "
     "last completed iteration, elapsed the wall time taken."},
    {NULL}};

static PyTypeObject SearcherType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "arena_stones._engine.Searcher",
    .tp_doc = PyDoc_STR("Searcher(table_bits=20): iterative-deepening alpha-beta with a "
                        "transposition table of 2**table_bits entries, kept from move to move."),
    .tp_basicsize = sizeof(Searcher),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Searcher_init,
    .tp_dealloc = (destructor)Searcher_dealloc,
    .tp_methods = Searcher_methods,
};

/* -- the module ---------------------------------------------------------------------- */

static PyMethodDef module_methods[] = {
    {"configure", (PyCFunction)(void (*)(void))py_configure, METH_VARARGS | METH_KEYWORDS,
     "configure(rays, forward_rays, zobrist, turn_keys, stack_value, loss, height, mobility, "
     "own_gain, their_gain, safe_type, tallest): the board, the keys and the evaluation's "
     "weights, once."},
    {NULL}};

static struct PyModuleDef engine_module = {
    PyModuleDef_HEAD_INIT, "_engine",
    "The compiled stones engine and searcher (see arena_stones.engine).", -1, module_methods};

PyMODINIT_FUNC PyInit__engine(void) {
    if (PyType_Ready(&BoardType) < 0 || PyType_Ready(&SearcherType) < 0) return NULL;
    PyObject *m = PyModule_Create(&engine_module);
    if (m == NULL) return NULL;
    Py_INCREF(&BoardType);
    Py_INCREF(&SearcherType);
    if (PyModule_AddObject(m, "Board", (PyObject *)&BoardType) < 0 ||
        PyModule_AddObject(m, "Searcher", (PyObject *)&SearcherType) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
