/* The chess search itself (included by _chess_search.c, after search_eval.h and
 * search_make.h): server/bots/alphabeta.py's AlphaBeta step for step — negamax with a
 * transposition table in the caller's buffer, principal variation search, late move
 * reductions, null-move, reverse futility, futility and late move pruning, check extension,
 * quiescence with delta pruning, killers and history, draws by repetition, fifty moves and
 * insufficient material — and the root of one iteration of the deepening.
 */
#ifndef KIBITZ_SEARCH_TREE_H
#define KIBITZ_SEARCH_TREE_H

#include "search_common.h"

#define MATE 1000000
#define INF (10 * MATE)
#define MAX_PLY 128

static int REDUCTIONS[64][64];
static const int RFP_MARGIN = 120, FUTILITY[3] = {0, 200, 400}, LATE_MOVES[4] = {0, 8, 12, 18};

/* late move reductions by depth and move index (alphabeta.py's _REDUCTIONS) */
static void init_reductions(void) {
    for (int d = 0; d < 64; d++)
        for (int i = 0; i < 64; i++)
            REDUCTIONS[d][i] = d && i ? (int)(0.75 + log((double)d) * log((double)i) / 2.25) : 0;
}

typedef struct {
    Tree t; /* the table, killers, history (as alphabeta.py's) and clock; t.mate is MATE */
    Board boards[MAX_PLY + 8];
    int half[MAX_PLY + 8];
    uint64_t *keys; /* the game's positions, then the search's path */
    int base;       /* index in keys of the root */
} Search;

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
    tick(&s->t);
    if (s->t.stop) return 0;
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
        if (s->t.stop) return 0;
        if (score >= beta) return score;
        if (score > alpha) alpha = score;
    }
    return alpha;
}

static int negamax(Search *s, int depth, int alpha, int beta, int ply, int allow_null) {
    tick(&s->t);
    if (s->t.stop) return 0;
    int decided = terminal(s, ply);
    if (decided != NOT_DECIDED) return decided;
    const Board *b = &s->boards[ply];
    uint64_t key = s->keys[s->base + ply];
    Entry *e = &s->t.tt[key & s->t.mask];
    int tt_move = -1, settled;
    if (probe(&s->t, e, key, depth, alpha, beta, ply, &tt_move, &settled)) return settled;
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
        if (s->t.stop) return 0;
        if (score >= beta) return beta;
    }
    int keys[256];
    for (int i = 0; i < o.n; i++) keys[i] = rank(&s->t, b, o.codes[i], tt_move, ply);
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
                int r = REDUCTIONS[depth < 63 ? depth : 63][i < 63 ? i : 63];
                reduce = reduction(r, depth, null_window);
            }
            score = -negamax(s, depth - 1 - reduce, -alpha - 1, -alpha, ply + 1, 1);
            if (!s->t.stop && score > alpha && (reduce || score < beta))
                score = -negamax(s, depth - 1, -beta, -alpha, ply + 1, 1);
        }
        if (s->t.stop) return 0;
        if (score > best_score) best_score = score, best_move = code;
        if (score > alpha) alpha = score;
        if (alpha >= beta) {
            if (!capture) cut_off(&s->t, code, depth, ply);
            break;
        }
    }
    store(&s->t, e, key, depth, best_score, original_alpha, beta, ply, best_move);
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
            if (!s->t.stop && score > alpha) score = -negamax(s, depth - 1, -beta, -alpha, 1, 1);
        }
        if (s->t.stop) return;
        if (score > alpha || i == 0) {
            alpha = score, r->move = moves[i];
            if (i > 0 || depth > 1)
                r->has_partial = 1, r->partial_move = r->move, r->partial_score = alpha;
        }
    }
    r->score = alpha;
    uint64_t key = s->keys[s->base];
    Entry *e = &s->t.tt[key & s->t.mask];
    e->key = key, e->depth = (int8_t)depth, e->flag = EXACT, e->score = alpha;
    e->move = (int16_t)r->move;
}

#endif
