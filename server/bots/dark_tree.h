/* Dark Chess's search on one world (included by _dark_search.c, after chess_core.h,
 * search_eval.h and search_make.h): negamax by Dark Chess's rules — pseudo-legal moves
 * (a king may step into an attack, castling ignores attacks), no check and no mate, a king
 * that can be taken is taken (the side to move that reaches the other king wins at once)
 * — with a transposition table, the table's move, captures by MVV-LVA, killers and
 * history to order, principal variation search, late move reductions, null-move, and a
 * quiescence of captures that skips losing ones (a side whose king is attacked there must
 * answer it: every move is tried, no standing pat). A stalemate is a draw; repetitions and
 * the fifty moves are not seen (a few plies deep they hardly matter).
 */
#ifndef KIBITZ_DARK_TREE_H
#define KIBITZ_DARK_TREE_H

#include "search_common.h"

#define WIN 100000 /* a king taken at the root's child; less a ply per ply deeper */
#define DINF 1000000
#define DMAX_PLY 96

/* the search's state (search_common.h's Tree: mate is WIN, no node cap, the deadline always
 * enforced) */
typedef Tree Dark;

/* the side to move's pseudo-legal moves (captures only: every capture but en passant) */
static void dark_moves(const Board *b, int captures, Out *o) {
    o->n = o->overflow = 0;
    bb_t us = b->co[b->turn], king = b->kings & us;
    bb_t to_mask = captures ? b->co[!b->turn] : ~(bb_t)0;
    pseudo(b, ~king, to_mask, -1, 0, PSEUDO, o); /* no king: its steps and castling are ours */
    if (!king) return;
    int k = lsb(king);
    bb_t steps = KING_STEPS[k] & ~us & to_mask;
    while (steps) {
        int to = msb(steps);
        steps ^= SQ(to);
        add(o, k << 6 | to);
    }
    if (!captures && (b->castling & us)) castling_moves(b, ~(bb_t)0, ~(bb_t)0, 0, o);
}

/* whether the side to move can take the other king now */
static int takes_king(const Board *b) {
    bb_t k = b->kings & b->co[!b->turn];
    return k && attackers(b, b->turn, lsb(k), b->occ) != 0;
}

static int pick_next(Out *o, int *keys, int i) {
    int best = i;
    for (int j = i + 1; j < o->n; j++)
        if (keys[j] > keys[best]) best = j;
    int code = o->codes[best], key = keys[best];
    o->codes[best] = o->codes[i], keys[best] = keys[i];
    o->codes[i] = code, keys[i] = key;
    return code;
}

static int dark_quiesce(Dark *s, const Board *b, int alpha, int beta, int ply) {
    tick(s);
    if (s->stop) return 0;
    if (!(b->kings & b->co[b->turn])) return -WIN + ply;
    if (takes_king(b)) return WIN - ply;
    int attacked = in_check(b), stand = -DINF;
    if (!attacked) {
        stand = evaluate(b);
        if (stand >= beta || ply >= DMAX_PLY) return stand;
        if (stand > alpha) alpha = stand;
    } else if (ply >= DMAX_PLY) {
        return evaluate(b);
    }
    Out o;
    dark_moves(b, !attacked, &o);
    int keys[256], best = attacked ? -WIN + ply + 1 : stand;
    for (int i = 0; i < o.n; i++)
        keys[i] = is_capture(b, o.codes[i]) ? 100000 + capture_order(b, o.codes[i]) : 0;
    for (int i = 0; i < o.n; i++) {
        int code = pick_next(&o, keys, i);
        if (!attacked && (stand + gain(b, code) + 200 < alpha || losing(b, code))) continue;
        Board next;
        make(b, &next, code);
        int score = -dark_quiesce(s, &next, -beta, -alpha, ply + 1);
        if (s->stop) return 0;
        if (score > best) best = score;
        if (score >= beta) return score;
        if (score > alpha) alpha = score;
    }
    return best;
}

static int dark_negamax(Dark *s, const Board *b, int depth, int alpha, int beta, int ply,
                        int allow_null) {
    tick(s);
    if (s->stop) return 0;
    if (!(b->kings & b->co[b->turn])) return -WIN + ply;
    if (takes_king(b)) return WIN - ply;
    if (depth <= 0 || ply + 2 >= DMAX_PLY) return dark_quiesce(s, b, alpha, beta, ply);
    uint64_t key = hash_of(b);
    Entry *e = &s->tt[key & s->mask];
    int tt_move = -1, settled;
    if (probe(s, e, key, depth, alpha, beta, ply, &tt_move, &settled)) return settled;
    int attacked = in_check(b);
    if (allow_null && !attacked && depth >= 3 && beta < WIN - 1000 &&
        (b->co[b->turn] & ~b->pawns & ~b->kings) && evaluate(b) >= beta) {
        Board n = *b;
        n.ep = -1;
        n.turn = !b->turn;
        int score = -dark_negamax(s, &n, depth - 3, -beta, -beta + 1, ply + 1, 0);
        if (s->stop) return 0;
        if (score >= beta) return beta;
    }
    Out o;
    dark_moves(b, 0, &o);
    if (!o.n) return 0; /* stalemate: a draw */
    int keys[256];
    for (int i = 0; i < o.n; i++) keys[i] = rank(s, b, o.codes[i], tt_move, ply);
    int original_alpha = alpha, best_score = -DINF, best_move = o.codes[0];
    int null_window = beta - alpha == 1;
    for (int i = 0; i < o.n; i++) {
        int code = pick_next(&o, keys, i);
        int capture = is_capture(b, code);
        Board next;
        make(b, &next, code);
        int score;
        if (i == 0) {
            score = -dark_negamax(s, &next, depth - 1, -beta, -alpha, ply + 1, 1);
        } else {
            int reduce = 0;
            if (i >= 4 && depth >= 3 && !capture && !attacked) {
                int r = (int)(0.75 + log((double)depth) * log((double)i) / 2.25);
                reduce = reduction(r, depth, null_window);
            }
            score = -dark_negamax(s, &next, depth - 1 - reduce, -alpha - 1, -alpha, ply + 1, 1);
            if (!s->stop && score > alpha && (reduce || score < beta))
                score = -dark_negamax(s, &next, depth - 1, -beta, -alpha, ply + 1, 1);
        }
        if (s->stop) return 0;
        if (score > best_score) best_score = score, best_move = code;
        if (score > alpha) alpha = score;
        if (alpha >= beta) {
            if (!capture) cut_off(s, code, depth, ply);
            break;
        }
    }
    store(s, e, key, depth, best_score, original_alpha, beta, ply, best_move);
    return best_score;
}

/* the score of each of the n root moves (codes, in order) in world b at depth: the best
 * exactly, and every move within margin of the best so far exactly; a move worse than that
 * gets the bound it failed under (best - margin, at least its worth). Moves tried in the
 * order of `order` (indices, best first from the last depth). 0 if stopped. */
static int dark_root(Dark *s, const Board *b, const int *codes, const int *order, int n,
                     int depth, int margin, int *scores) {
    int best = -DINF;
    for (int j = 0; j < n; j++) {
        int i = order[j];
        Board next;
        make(b, &next, codes[i]);
        int alpha = best == -DINF ? -DINF : best - margin;
        int score = -dark_negamax(s, &next, depth - 1, -DINF, -alpha, 1, 1);
        if (s->stop) return 0;
        scores[i] = score;
        if (score > best) best = score;
    }
    return 1;
}

#endif
