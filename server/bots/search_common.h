/* What the two compiled search trees share (included by search_tree.h, the chess search,
 * and dark_tree.h, Dark Chess's, after search_eval.h): the clock and the node count that
 * stop a search, the transposition table's entries and how a node reads and writes its
 * entry (mate scores kept as distances from the node), and the move ordering's key with the
 * killers and history a cut-off teaches it. Each tree keeps its own move picker, rules and
 * pruning.
 */
#ifndef KIBITZ_SEARCH_COMMON_H
#define KIBITZ_SEARCH_COMMON_H

#define EXACT 0
#define LOWER 1
#define UPPER 2
#define TREE_PLIES 136 /* the killers' rows: more than either tree's deepest ply */

typedef struct {
    uint64_t key;
    int32_t score;
    int16_t move;
    int8_t depth;
    uint8_t flag;
} Entry;

typedef struct {
    Entry *tt;     /* the table, in the caller's buffer */
    uint64_t mask; /* its entries less one (a power of two) */
    int mate;      /* a win's score at the root: scores within 1000 of it are wins by plies */
    int killers[TREE_PLIES][2];
    int history[6 << 12]; /* by move code (both sides share it) */
    long long nodes, max_nodes; /* max_nodes: 0, no cap */
    double deadline;
    int enforce, stop; /* enforce: the deadline and the cap apply; stop: they were reached */
} Tree;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void tick(Tree *t) {
    t->nodes++;
    if (t->max_nodes && t->nodes >= t->max_nodes && t->enforce) t->stop = 1;
    if (t->enforce && (t->nodes & 1023) == 0 && now() >= t->deadline) t->stop = 1;
}

/* a score as the table keeps it at ply (a win as its distance from this node), and back */
static int to_tt(const Tree *t, int score, int ply) {
    int m = t->mate - 1000;
    return score > m ? score + ply : score < -m ? score - ply : score;
}

static int from_tt(const Tree *t, int score, int ply) {
    int m = t->mate - 1000;
    return score > m ? score - ply : score < -m ? score + ply : score;
}

/* the table's entry for key at ply: its move in *tt_move (else -1 is left there), and 1 with
 * its score in *score when it was searched at least depth deep and its bound settles the
 * window */
static int probe(const Tree *t, const Entry *e, uint64_t key, int depth, int alpha, int beta,
                 int ply, int *tt_move, int *score) {
    if (e->key != key) return 0;
    *tt_move = e->move;
    if (e->depth < depth) return 0;
    *score = from_tt(t, e->score, ply);
    return e->flag == EXACT || (e->flag == LOWER && *score >= beta) ||
           (e->flag == UPPER && *score <= alpha);
}

/* the node's result into its entry: best found with window (original_alpha, beta) */
static void store(const Tree *t, Entry *e, uint64_t key, int depth, int best, int original_alpha,
                  int beta, int ply, int move) {
    e->key = key;
    e->depth = (int8_t)(depth < 127 ? depth : 127);
    e->flag = best <= original_alpha ? UPPER : best >= beta ? LOWER : EXACT;
    e->score = to_tt(t, best, ply);
    e->move = (int16_t)move;
}

/* the move ordering's key (alphabeta.py's _order: rank): the table's move, captures by
 * MVV-LVA (losing ones after the killers), the two killers, then history */
static int rank(const Tree *t, const Board *b, int code, int tt_move, int ply) {
    if (code == tt_move) return 10000000;
    if (is_capture(b, code)) return (losing(b, code) ? 700000 : 1000000) + capture_order(b, code);
    if (code == t->killers[ply][0]) return 900000;
    if (code == t->killers[ply][1]) return 800000;
    return t->history[code];
}

/* a quiet move that cut off at depth: the first killer at ply, and history */
static void cut_off(Tree *t, int code, int depth, int ply) {
    int *killers = t->killers[ply];
    if (killers[0] != code) killers[1] = killers[0], killers[0] = code;
    if (t->history[code] < (1 << 30)) /* saturates: an int must not overflow */
        t->history[code] += depth * depth;
}

/* a late move's reduction r (by ln(depth)·ln(index)), one ply less off the principal
 * variation's window, kept between 1 and depth - 2 */
static int reduction(int r, int depth, int null_window) {
    r -= !null_window;
    if (r > depth - 2) r = depth - 2;
    return r < 1 ? 1 : r;
}

#endif
