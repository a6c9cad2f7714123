/* The chess search's evaluation and capture measures (included by _chess_search.c, after
 * server/engine/chess_core.h): PeSTO's tapered score from the tables Python hands over at
 * setup (server/bots/compiled.py reads them from server/bots/pesto.py and chess_eval.py, so
 * that the C and the Python searches evaluate alike), check, and the captures' order, gain
 * and risk that the search's move ordering and pruning use.
 */
#ifndef KIBITZ_SEARCH_EVAL_H
#define KIBITZ_SEARCH_EVAL_H

#define PAWN 1
#define KING 6

/* mg/eg[color * 7 + piece][square], phase and value by piece type: setup()'s */
static int MG[14][64], EG[14][64], PHASE[7], VALUE[7], ready = 0;

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

#endif
