/* The chess search's moves on its boards (included by _chess_search.c, after
 * server/engine/chess_core.h): a position copied and changed by a legal move (no undo),
 * its Zobrist key (the en passant square counts only when a pawn can take there), and the
 * moves the search tries (all legal moves, or the captures for quiescence).
 */
#ifndef KIBITZ_SEARCH_MAKE_H
#define KIBITZ_SEARCH_MAKE_H

static uint64_t ZPIECE[14][64], ZSIDE, ZCASTLE[64], ZEP[64];

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

#endif
