/* The chess bot's search, compiled: server/bots/alphabeta.py's AlphaBeta on
 * server/bots/chess_position.py's ChessPosition (PeSTO's evaluation), the same algorithm
 * step for step, in C — iterative deepening negamax under a deadline, a transposition
 * table, the table's move, captures by MVV-LVA, killers and history to order, principal
 * variation search, late move reductions by ln(depth)·ln(index), null-move, reverse
 * futility, futility and late move pruning, check extension, quiescence with delta pruning
 * that skips losing captures, draws by repetition, fifty moves and insufficient material.
 *
 * It plays on the move generator the engine uses (server/engine/chess_core.h: python-chess's
 * legal moves in its order). What it does differently from the Python search, for speed:
 * positions are copied and changed (no undo), keyed by a Zobrist hash (the en passant square
 * counts only when a pawn can take there), and the table is a fixed array of 16-byte entries
 * in a buffer the caller owns (a bytearray: a bot keeps it from one turn to the next).
 *
 *   setup(mg, eg, phase, value): the evaluation's tables (Python's, so that both evaluate
 *       alike): mg/eg[color*7 + piece][square] as two lists of 2*7*64 ints, phase and value
 *       by piece type (7 ints each). Called once by server/bots/compiled.py.
 *   search(start, moves, root, budget, next_depth, max_depth, max_nodes, table)
 *       -> (code, score, depth, nodes): start is the twelve board fields and the halfmove
 *       clock of the game's first position, moves the game's moves since (codes), root the
 *       moves to choose from in the order to try them; the search stops a depth early once
 *       next_depth of the budget (seconds) is gone, at the budget, or after max_nodes.
 *   evaluate(start, moves): the evaluation of the position after moves, for the side to
 *       move (tests hold it to the Python evaluation's).
 *   perft(start, moves, depth): leaf count through this file's own make (tests hold it to
 *       python-chess's counts).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <math.h>
#include <string.h>
#include <time.h>

#pragma GCC diagnostic ignored "-Wunused-function"
#include "chess_core.h"

#define MATE 1000000
#define INF (10 * MATE)
#define MAX_PLY 128
#define EXACT 0
#define LOWER 1
#define UPPER 2
#define PAWN 1
#define KING 6

static int MG[14][64], EG[14][64], PHASE[7], VALUE[7], ready = 0;
static uint64_t ZPIECE[14][64], ZSIDE, ZCASTLE[64], ZEP[64];
static int REDUCTIONS[64][64];
static const int RFP_MARGIN = 120, FUTILITY[3] = {0, 200, 400}, LATE_MOVES[4] = {0, 8, 12, 18};

typedef struct {
    uint64_t key;
    int32_t score;
    int16_t move;
    int8_t depth;
    uint8_t flag;
} Entry;

typedef struct {
    Board boards[MAX_PLY + 8];
    int half[MAX_PLY + 8];
    uint64_t *keys; /* the game's positions, then the search's path */
    int base;       /* index in keys of the root */
    Entry *tt;
    uint64_t mask;
    int killers[MAX_PLY + 8][2];
    int history[6 << 12]; /* by move code, as alphabeta.py's (both sides share it) */
    long long nodes, max_nodes;
    double deadline;
    int enforce, stop;
} Search;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static uint64_t splitmix(uint64_t *s) {
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static void init_keys(void) {
    uint64_t s = 0x6b6962697a7a; /* fixed: a table kept between turns stays valid */
    for (int p = 0; p < 14; p++)
        for (int sq = 0; sq < 64; sq++) ZPIECE[p][sq] = splitmix(&s);
    ZSIDE = splitmix(&s);
    for (int sq = 0; sq < 64; sq++) ZCASTLE[sq] = splitmix(&s), ZEP[sq] = splitmix(&s);
    for (int d = 0; d < 64; d++)
        for (int i = 0; i < 64; i++)
            REDUCTIONS[d][i] = d && i ? (int)(0.75 + log((double)d) * log((double)i) / 2.25) : 0;
}

static uint64_t hash_of(const Board *b) {
    uint64_t h = b->turn ? ZSIDE : 0;
    for (int c = 0; c < 2; c++)
        for (int t = 1; t <= 6; t++) {
            bb_t s = *piece_set((Board *)b, t) & b->co[c];
            while (s) {
                int sq = lsb(s);
                s &= s - 1;
                h ^= ZPIECE[c * 7 + t][sq];
            }
        }
    bb_t c = b->castling;
    while (c) {
        int sq = lsb(c);
        c &= c - 1;
        h ^= ZCASTLE[sq];
    }
    if (b->ep >= 0) h ^= ZEP[b->ep];
    return h;
}

/* PeSTO's tapered score (server/bots/pesto.py's taper of the packed sums), side to move */
static int evaluate(const Board *b) {
    int mg = 0, eg = 0, phase = 0;
    for (int c = 0; c < 2; c++) {
        int sign = c ? 1 : -1;
        for (int t = 1; t <= 6; t++) {
            bb_t s = *piece_set((Board *)b, t) & b->co[c];
            while (s) {
                int sq = lsb(s);
                s &= s - 1;
                mg += sign * MG[c * 7 + t][sq];
                eg += sign * EG[c * 7 + t][sq];
                phase += PHASE[t];
            }
        }
    }
    int p = phase < 24 ? phase : 24;
    long blend = (long)mg * p + (long)eg * (24 - p);
    int score = (int)(blend / 24); /* C truncates toward zero, as taper rounds */
    return b->turn ? score : -score;
}

static int in_check(const Board *b) {
    bb_t k = b->kings & b->co[b->turn];
    return k && attackers(b, !b->turn, lsb(k), b->occ) != 0;
}

static int is_capture(const Board *b, int code) {
    int from = code >> 6 & 63, to = code & 63;
    if (b->co[!b->turn] & SQ(to)) return 1;
    return to == b->ep && (b->pawns & SQ(from)) && ((to - from) & 7) != 0 && !(b->occ & SQ(to));
}

static int victim_of(const Board *b, int code) {
    int v = piece_at(b, code & 63);
    return v ? v : PAWN; /* en passant */
}

static int capture_order(const Board *b, int code) {
    return 10 * VALUE[victim_of(b, code)] - piece_at(b, code >> 6 & 63) +
           (code >> 12 ? 8000 : 0);
}

static int gain(const Board *b, int code) {
    int value = VALUE[victim_of(b, code)];
    if (code >> 12) value += VALUE[code >> 12] - VALUE[PAWN];
    return value;
}

/* a dearer piece taking a cheaper one where the opponent can take back (promotions never) */
static int losing(const Board *b, int code) {
    if (code >> 12) return 0;
    int from = code >> 6 & 63, to = code & 63;
    int attacker = piece_at(b, from), victim = victim_of(b, code);
    if (!attacker || VALUE[attacker] <= VALUE[victim] + 50) return 0;
    return attackers(b, !b->turn, to, b->occ & ~SQ(from)) != 0;
}

/* b = src after the legal move code; returns whether it resets the fifty-move count */
static int make(const Board *src, Board *b, int code) {
    *b = *src;
    int from = code >> 6 & 63, to = code & 63, promotion = code >> 12, turn = b->turn;
    bb_t fb = SQ(from), tb = SQ(to);
    int piece = piece_at(b, from), captured = piece_at(b, to), zeroing = captured || piece == PAWN;
    b->ep = -1;
    if (captured) {
        *piece_set(b, captured) ^= tb;
        b->co[!turn] ^= tb;
    }
    *piece_set(b, piece) ^= fb | tb;
    b->co[turn] ^= fb | tb;
    if (piece == PAWN) {
        int diff = to - from;
        if (diff == 16 || diff == -16) {
            int ep = (from + to) / 2;
            if (PAWN_ATT[turn][ep] & b->pawns & b->co[!turn]) b->ep = ep;
        } else if (to == src->ep && !captured && (diff & 7)) {
            bb_t gone = SQ(to + (turn ? -8 : 8));
            b->pawns ^= gone;
            b->co[!turn] ^= gone;
        }
        if (promotion) {
            b->pawns ^= tb;
            *piece_set(b, promotion) |= tb;
        }
    } else if (piece == KING) {
        b->castling &= turn ? ~RANK_1 : ~RANK_8;
        if (to - from == 2 || from - to == 2) {
            int rook_from = to > from ? from + 3 : from - 4, rook_to = to > from ? from + 1 : from - 1;
            bb_t m = SQ(rook_from) | SQ(rook_to);
            b->rooks ^= m;
            b->co[turn] ^= m;
        }
    }
    b->castling &= ~fb & ~tb;
    b->promoted = 0;
    b->occ = b->co[0] | b->co[1];
    b->turn = !turn;
    return zeroing;
}

static int gen_moves(const Board *b, int captures, Out *o) {
    o->n = o->overflow = 0;
    if (!captures) return legal(b, ~(bb_t)0, o);
    if (!legal(b, b->co[!b->turn], o)) return 0;
    legal_ep(b, o);
    return 1;
}

static void tick(Search *s) {
    s->nodes++;
    if (s->max_nodes && s->nodes >= s->max_nodes && s->enforce) s->stop = 1;
    if (s->enforce && (s->nodes & 1023) == 0 && now() >= s->deadline) s->stop = 1;
}

/* the score for the side to move if the game is decided here, else 1 (not a score) */
#define NOT_DECIDED 1
static int terminal(Search *s, int ply) {
    int n = s->base + ply, half = s->half[ply];
    if (half >= 100) return 0;
    uint64_t key = s->keys[n];
    for (int i = n - 2, seen = 0; i >= 0 && i >= n - half && seen < 50; i -= 2, seen++)
        if (s->keys[i] == key) return 0;
    const Board *b = &s->boards[ply];
    if (insufficient(b, 1) && insufficient(b, 0)) return 0;
    return NOT_DECIDED;
}

static int to_tt(int score, int ply) {
    return score > MATE - 1000 ? score + ply : score < -MATE + 1000 ? score - ply : score;
}

static int from_tt(int score, int ply) {
    return score > MATE - 1000 ? score - ply : score < -MATE + 1000 ? score + ply : score;
}

/* play move code at ply (into ply + 1); 0 if the path is too long */
static int push(Search *s, int ply, int code) {
    if (ply + 1 >= MAX_PLY) return 0;
    int zeroing = make(&s->boards[ply], &s->boards[ply + 1], code);
    s->half[ply + 1] = zeroing ? 0 : s->half[ply] + 1;
    s->keys[s->base + ply + 1] = hash_of(&s->boards[ply + 1]);
    return 1;
}

/* the i-th move in search order: the highest key among moves i.. moved to place i, the
 * others shifted on (a stable selection: equal keys keep the generator's order, as Python's
 * sort does; the search usually stops after a few moves, so sorting them all would waste) */
static int next_move(Out *o, int *keys, int i) {
    int pick = i;
    for (int j = i + 1; j < o->n; j++)
        if (keys[j] > keys[pick]) pick = j;
    int code = o->codes[pick], key = keys[pick];
    memmove(&o->codes[i + 1], &o->codes[i], (size_t)(pick - i) * sizeof(int32_t));
    memmove(&keys[i + 1], &keys[i], (size_t)(pick - i) * sizeof(int));
    o->codes[i] = code, keys[i] = key;
    return code;
}

static int quiesce(Search *s, int alpha, int beta, int ply) {
    tick(s);
    if (s->stop) return 0;
    int decided = terminal(s, ply);
    if (decided != NOT_DECIDED) return decided;
    const Board *b = &s->boards[ply];
    int stand = evaluate(b);
    if (stand >= beta || ply + 1 >= MAX_PLY) return stand;
    if (stand > alpha) alpha = stand;
    Out o;
    gen_moves(b, 1, &o);
    int order[256];
    for (int i = 0; i < o.n; i++) order[i] = capture_order(b, o.codes[i]);
    for (int i = 0; i < o.n; i++) {
        int code = next_move(&o, order, i);
        if (stand + gain(b, code) + 200 < alpha) continue;
        if (losing(b, code)) continue;
        push(s, ply, code);
        int score = -quiesce(s, -beta, -alpha, ply + 1);
        if (s->stop) return 0;
        if (score >= beta) return score;
        if (score > alpha) alpha = score;
    }
    return alpha;
}

/* the move ordering's key (alphabeta.py's _order: rank) */
static int rank(Search *s, const Board *b, int code, int tt_move, int ply) {
    if (code == tt_move) return 10000000;
    if (is_capture(b, code)) return (losing(b, code) ? 700000 : 1000000) + capture_order(b, code);
    if (code == s->killers[ply][0]) return 900000;
    if (code == s->killers[ply][1]) return 800000;
    return s->history[code];
}

static int negamax(Search *s, int depth, int alpha, int beta, int ply, int allow_null) {
    tick(s);
    if (s->stop) return 0;
    int decided = terminal(s, ply);
    if (decided != NOT_DECIDED) return decided;
    const Board *b = &s->boards[ply];
    uint64_t key = s->keys[s->base + ply];
    Entry *e = &s->tt[key & s->mask];
    int tt_move = -1;
    if (e->key == key) {
        tt_move = e->move;
        if (e->depth >= depth) {
            int score = from_tt(e->score, ply);
            if (e->flag == EXACT || (e->flag == LOWER && score >= beta) ||
                (e->flag == UPPER && score <= alpha))
                return score;
        }
    }
    int check = in_check(b);
    if (check) depth += 1;
    if (depth <= 0 || ply + 2 >= MAX_PLY) return quiesce(s, alpha, beta, ply);
    Out o;
    gen_moves(b, 0, &o);
    if (!o.n) return check ? -MATE + ply : 0;
    int null_window = beta - alpha == 1, futile = 0, late = 1 << 30, stat = 0, have_stat = 0;
    if (!check && depth <= 3 && null_window) {
        stat = evaluate(b), have_stat = 1;
        if (abs(beta) < MATE - 1000 && stat - RFP_MARGIN * depth >= beta) return stat;
        futile = depth <= 2 && stat + FUTILITY[depth] <= alpha;
        late = LATE_MOVES[depth];
    }
    if (allow_null && !check && depth >= 3 && beta < MATE - 1000 &&
        (have_stat ? stat : evaluate(b)) >= beta) {
        Board *n = &s->boards[ply + 1];
        *n = *b;
        n->ep = -1;
        n->turn = !b->turn;
        s->half[ply + 1] = s->half[ply] + 1;
        s->keys[s->base + ply + 1] = hash_of(n);
        int score = -negamax(s, depth - 3, -beta, -beta + 1, ply + 1, 0);
        if (s->stop) return 0;
        if (score >= beta) return beta;
    }
    int keys[256];
    for (int i = 0; i < o.n; i++) keys[i] = rank(s, b, o.codes[i], tt_move, ply);
    int original_alpha = alpha, best_score = -INF, best_move = tt_move >= 0 ? tt_move : o.codes[0];
    for (int i = 0; i < o.n; i++) {
        int code = next_move(&o, keys, i);
        int capture = is_capture(b, code);
        push(s, ply, code);
        if (((futile && i > 0) || i >= late) && !capture && !in_check(&s->boards[ply + 1]))
            continue; /* a quiet move too far below alpha, or too late in the order */
        int score;
        if (i == 0) {
            score = -negamax(s, depth - 1, -beta, -alpha, ply + 1, 1);
        } else {
            int reduce = 0;
            if (i >= 4 && depth >= 3 && !capture && !check) {
                reduce = REDUCTIONS[depth < 63 ? depth : 63][i < 63 ? i : 63] - !null_window;
                if (reduce > depth - 2) reduce = depth - 2;
                if (reduce < 1) reduce = 1;
            }
            score = -negamax(s, depth - 1 - reduce, -alpha - 1, -alpha, ply + 1, 1);
            if (!s->stop && score > alpha && (reduce || score < beta))
                score = -negamax(s, depth - 1, -beta, -alpha, ply + 1, 1);
        }
        if (s->stop) return 0;
        if (score > best_score) best_score = score, best_move = code;
        if (score > alpha) alpha = score;
        if (alpha >= beta) {
            if (!capture) {
                int *killers = s->killers[ply];
                if (killers[0] != code) killers[1] = killers[0], killers[0] = code;
                if (s->history[code] < (1 << 30)) /* saturates: an int must not overflow */
                    s->history[code] += depth * depth;
            }
            break;
        }
    }
    e->key = key;
    e->depth = (int8_t)(depth < 127 ? depth : 127);
    e->flag = best_score <= original_alpha ? UPPER : best_score >= beta ? LOWER : EXACT;
    e->score = to_tt(best_score, ply);
    e->move = (int16_t)best_move;
    return best_score;
}

typedef struct {
    int move, score, has_partial, partial_move, partial_score;
} Root;

static void root(Search *s, const int *moves, int n, int depth, Root *r) {
    int alpha = -INF, beta = INF;
    r->move = moves[0], r->has_partial = 0;
    for (int i = 0; i < n; i++) {
        push(s, 0, moves[i]);
        int score;
        if (i == 0) {
            score = -negamax(s, depth - 1, -beta, -alpha, 1, 1);
        } else {
            score = -negamax(s, depth - 1, -alpha - 1, -alpha, 1, 1);
            if (!s->stop && score > alpha) score = -negamax(s, depth - 1, -beta, -alpha, 1, 1);
        }
        if (s->stop) return;
        if (score > alpha || i == 0) {
            alpha = score, r->move = moves[i];
            if (i > 0 || depth > 1)
                r->has_partial = 1, r->partial_move = r->move, r->partial_score = alpha;
        }
    }
    r->score = alpha;
    uint64_t key = s->keys[s->base];
    Entry *e = &s->tt[key & s->mask];
    e->key = key, e->depth = (int8_t)depth, e->flag = EXACT, e->score = alpha;
    e->move = (int16_t)r->move;
}

/* -- the Python side ------------------------------------------------------------------ */

static int read_ints(PyObject *list, int *out, Py_ssize_t n, const char *what) {
    if (!PyList_Check(list) || PyList_GET_SIZE(list) != n) {
        PyErr_Format(PyExc_ValueError, "%s: a list of %zd ints", what, n);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long v = PyLong_AsLong(PyList_GET_ITEM(list, i));
        if (v == -1 && PyErr_Occurred()) return -1;
        out[i] = (int)v;
    }
    return 0;
}

static int is_legal(const Board *b, long code) {
    Out o;
    gen_moves(b, 0, &o);
    for (int i = 0; i < o.n; i++)
        if (o.codes[i] == code) return 1;
    return 0;
}

static PyObject *setup(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *mg, *eg, *phase, *value;
    if (!PyArg_ParseTuple(args, "OOOO", &mg, &eg, &phase, &value)) return NULL;
    if (read_ints(mg, &MG[0][0], 14 * 64, "mg") < 0 || read_ints(eg, &EG[0][0], 14 * 64, "eg") < 0 ||
        read_ints(phase, PHASE, 7, "phase") < 0 || read_ints(value, VALUE, 7, "value") < 0)
        return NULL;
    ready = 1;
    Py_RETURN_NONE;
}

/* the game's positions: start (twelve fields and the halfmove clock) and moves (codes);
 * fills s->boards[0], s->half[0], s->keys[0 .. len(moves)] and s->base. */
static int replay(Search *s, PyObject *start, PyObject *moves) {
    if (!ready) {
        PyErr_SetString(PyExc_RuntimeError, "setup() first");
        return -1;
    }
    if (!PyTuple_Check(start) || PyTuple_GET_SIZE(start) != 13 || !PyList_Check(moves)) {
        PyErr_SetString(PyExc_TypeError, "start: 13 fields; moves: a list of codes");
        return -1;
    }
    Board b;
    if (read_board(&PyTuple_GET_ITEM(start, 0), &b) < 0) return -1;
    long half = PyLong_AsLong(PyTuple_GET_ITEM(start, 12));
    if (half == -1 && PyErr_Occurred()) return -1;
    if (!(b.kings & b.co[0]) || !(b.kings & b.co[1])) {
        PyErr_SetString(PyExc_ValueError, "a board without a king of each colour");
        return -1;
    }
    b.castling = clean_castling(&b);
    b.promoted = 0;
    if (b.ep >= 0 && !(PAWN_ATT[!b.turn][b.ep] & b.pawns & b.co[b.turn])) b.ep = -1;
    Py_ssize_t n = PyList_GET_SIZE(moves);
    s->keys = PyMem_Malloc(sizeof(uint64_t) * (size_t)(n + MAX_PLY + 8));
    if (s->keys == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    s->keys[0] = hash_of(&b);
    for (Py_ssize_t i = 0; i < n; i++) {
        long code = PyLong_AsLong(PyList_GET_ITEM(moves, i));
        if (code == -1 && PyErr_Occurred()) return -1;
        if (!is_legal(&b, code)) {
            PyErr_Format(PyExc_ValueError, "moves[%zd] (%ld) is not a legal move there", i, code);
            return -1;
        }
        Board next;
        half = make(&b, &next, (int)code) ? 0 : half + 1;
        b = next;
        s->keys[i + 1] = hash_of(&b);
    }
    s->boards[0] = b;
    s->half[0] = (int)half;
    s->base = (int)n;
    return 0;
}

static PyObject *search(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *start, *moves, *root_list, *table;
    double budget, next_depth;
    int max_depth;
    long long max_nodes;
    if (!PyArg_ParseTuple(args, "OOOddiLO", &start, &moves, &root_list, &budget, &next_depth,
                          &max_depth, &max_nodes, &table))
        return NULL;
    if (!(budget >= 0 && budget <= 86400) || !(next_depth >= 0 && next_depth <= 1) ||
        max_depth < 1 || max_depth > 64 || max_nodes < 0) {
        PyErr_SetString(PyExc_ValueError,
                        "budget: 0 to 86400 s; next_depth: 0 to 1; max_depth: 1 to 64; "
                        "max_nodes: 0 or more");
        return NULL;
    }
    Py_buffer view;
    if (PyObject_GetBuffer(table, &view, PyBUF_WRITABLE) < 0) return NULL;
    size_t entries = (size_t)view.len / sizeof(Entry);
    if (entries < 1024 || (entries & (entries - 1)) || (size_t)view.len % sizeof(Entry)) {
        PyBuffer_Release(&view);
        PyErr_SetString(PyExc_ValueError, "table: a power of two of 16-byte entries (>= 1024)");
        return NULL;
    }
    Search *s = PyMem_Calloc(1, sizeof(Search));
    int root_moves[256], n = 0;
    if (s == NULL) {
        PyBuffer_Release(&view);
        return PyErr_NoMemory();
    }
    PyObject *result = NULL;
    if (replay(s, start, moves) < 0) goto done;
    if (!PyList_Check(root_list) || PyList_GET_SIZE(root_list) < 1 ||
        PyList_GET_SIZE(root_list) > 256) {
        PyErr_SetString(PyExc_ValueError, "root: a list of 1 to 256 move codes");
        goto done;
    }
    n = (int)PyList_GET_SIZE(root_list);
    if (read_ints(root_list, root_moves, n, "root") < 0) goto done;
    for (int i = 0; i < n; i++)
        if (!is_legal(&s->boards[0], root_moves[i])) {
            PyErr_Format(PyExc_ValueError, "root[%d] (%d) is not a legal move here", i, root_moves[i]);
            goto done;
        }
    s->tt = (Entry *)view.buf;
    s->mask = entries - 1;
    s->max_nodes = max_nodes;
    double started = now();
    s->deadline = started + budget;
    int best = root_moves[0], best_score = -INF, done_depth = 0;
    Py_BEGIN_ALLOW_THREADS
    for (int depth = 1; depth <= max_depth; depth++) {
        if (depth > 1 && now() - started > next_depth * budget) break;
        s->enforce = depth > 1;
        Root r;
        root(s, root_moves, n, depth, &r);
        if (s->stop) {
            if (r.has_partial) best = r.partial_move, best_score = r.partial_score;
            break;
        }
        best = r.move, best_score = r.score, done_depth = depth;
        for (int i = 0; i < n; i++) /* the best move first at the next depth */
            if (root_moves[i] == best) {
                memmove(&root_moves[1], &root_moves[0], (size_t)i * sizeof(int));
                root_moves[0] = best;
                break;
            }
        if (abs(best_score) > MATE - 1000) break;
    }
    Py_END_ALLOW_THREADS
    result = Py_BuildValue("(iiiL)", best, best_score, done_depth, s->nodes);
done:
    PyMem_Free(s->keys);
    PyMem_Free(s);
    PyBuffer_Release(&view);
    return result;
}

static PyObject *py_evaluate(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *start, *moves;
    if (!PyArg_ParseTuple(args, "OO", &start, &moves)) return NULL;
    Search *s = PyMem_Calloc(1, sizeof(Search));
    if (s == NULL) return PyErr_NoMemory();
    PyObject *result = NULL;
    if (replay(s, start, moves) == 0) result = PyLong_FromLong(evaluate(&s->boards[0]));
    PyMem_Free(s->keys);
    PyMem_Free(s);
    return result;
}

static long long perft_of(const Board *b, int depth) {
    Out o;
    gen_moves(b, 0, &o);
    if (depth == 1) return o.n;
    long long total = 0;
    for (int i = 0; i < o.n; i++) {
        Board next;
        make(b, &next, o.codes[i]);
        total += perft_of(&next, depth - 1);
    }
    return total;
}

static PyObject *perft(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *start, *moves;
    int depth;
    if (!PyArg_ParseTuple(args, "OOi", &start, &moves, &depth)) return NULL;
    if (depth < 1 || depth > 6) {
        PyErr_SetString(PyExc_ValueError, "depth: 1 to 6");
        return NULL;
    }
    Search *s = PyMem_Calloc(1, sizeof(Search));
    if (s == NULL) return PyErr_NoMemory();
    PyObject *result = NULL;
    if (replay(s, start, moves) == 0) result = PyLong_FromLongLong(perft_of(&s->boards[0], depth));
    PyMem_Free(s->keys);
    PyMem_Free(s);
    return result;
}

static PyMethodDef methods[] = {
    {"setup", setup, METH_VARARGS, "setup(mg, eg, phase, value): the evaluation's tables"},
    {"search", search, METH_VARARGS,
     "search(start, moves, root, budget, next_depth, max_depth, max_nodes, table) -> "
     "(code, score, depth, nodes)"},
    {"evaluate", py_evaluate, METH_VARARGS, "evaluate(start, moves) -> centipawns, side to move"},
    {"perft", perft, METH_VARARGS, "perft(start, moves, depth) -> leaf count"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_chess_search",
                                    "The chess bot's alpha-beta search, compiled.", -1, methods};

PyMODINIT_FUNC PyInit__chess_search(void) {
    init_tables();
    init_keys();
    return PyModule_Create(&module);
}
