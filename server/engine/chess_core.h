/* The compiled chess core's board and legal move generation, shared by the move module
 * (server/engine/_chess_moves.c, which the engine uses) and the search
 * (server/bots/_chess_search.c, which the chess bot uses): python-chess's own moves, in
 * its own order, for a standard board. Include after <Python.h>.
 */
#ifndef KIBITZ_CHESS_CORE_H
#define KIBITZ_CHESS_CORE_H
#include <stdint.h>
#include <string.h>

typedef uint64_t bb_t;

#define SQ(s) ((bb_t)1 << (s))
#define RANK_1 0x00000000000000ffULL
#define RANK_8 0xff00000000000000ULL
#define RANK_3 0x0000000000ff0000ULL
#define RANK_4 0x00000000ff000000ULL
#define RANK_5 0x000000ff00000000ULL
#define RANK_6 0x0000ff0000000000ULL
#define BACK_RANKS (RANK_1 | RANK_8)
#define FILE_A 0x0101010101010101ULL

static bb_t KNIGHT[64], KING[64], PAWN_ATT[2][64]; /* PAWN_ATT[color][sq]: a pawn of color on sq */
static bb_t RAY[8][64];                            /* exclusive rays by direction */
static bb_t LINE[64][64];                          /* python-chess BB_RAYS */
static bb_t BETWEEN[64][64];                       /* python-chess between() */
static const int DR[8] = {1, -1, 0, 0, 1, 1, -1, -1};  /* N S E W NE NW SE SW */
static const int DF[8] = {0, 0, 1, -1, 1, -1, 1, -1};
/* N, E, NE, NW grow the square index (nearest blocker: lowest bit); the others shrink it */
static const int GROWS[8] = {1, 0, 1, 0, 1, 1, 0, 0};

static inline int msb(bb_t b) { return 63 - __builtin_clzll(b); }
static inline int lsb(bb_t b) { return __builtin_ctzll(b); }

static bb_t ray_attacks(int d, int sq, bb_t occ) {
    bb_t a = RAY[d][sq], blockers = a & occ;
    if (blockers) a ^= RAY[d][GROWS[d] ? lsb(blockers) : msb(blockers)];
    return a;
}

static inline bb_t rook_attacks(int sq, bb_t occ) {
    return ray_attacks(0, sq, occ) | ray_attacks(1, sq, occ) | ray_attacks(2, sq, occ) |
           ray_attacks(3, sq, occ);
}

static inline bb_t bishop_attacks(int sq, bb_t occ) {
    return ray_attacks(4, sq, occ) | ray_attacks(5, sq, occ) | ray_attacks(6, sq, occ) |
           ray_attacks(7, sq, occ);
}

static void init_tables(void) {
    static const int KN[8][2] = {{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
    for (int sq = 0; sq < 64; sq++) {
        int r = sq >> 3, f = sq & 7;
        KNIGHT[sq] = KING[sq] = PAWN_ATT[0][sq] = PAWN_ATT[1][sq] = 0;
        for (int i = 0; i < 8; i++) {
            int rr = r + KN[i][0], ff = f + KN[i][1];
            if (rr >= 0 && rr < 8 && ff >= 0 && ff < 8) KNIGHT[sq] |= SQ(rr * 8 + ff);
            rr = r + DR[i], ff = f + DF[i];
            if (rr >= 0 && rr < 8 && ff >= 0 && ff < 8) KING[sq] |= SQ(rr * 8 + ff);
        }
        for (int df = -1; df <= 1; df += 2) {
            if (f + df < 0 || f + df > 7) continue;
            if (r < 7) PAWN_ATT[1][sq] |= SQ((r + 1) * 8 + f + df); /* white */
            if (r > 0) PAWN_ATT[0][sq] |= SQ((r - 1) * 8 + f + df); /* black */
        }
        for (int d = 0; d < 8; d++) {
            RAY[d][sq] = 0;
            for (int rr = r + DR[d], ff = f + DF[d]; rr >= 0 && rr < 8 && ff >= 0 && ff < 8;
                 rr += DR[d], ff += DF[d])
                RAY[d][sq] |= SQ(rr * 8 + ff);
        }
    }
    for (int a = 0; a < 64; a++)
        for (int b = 0; b < 64; b++) {
            LINE[a][b] = BETWEEN[a][b] = 0;
            for (int d = 0; d < 8; d++)
                if (RAY[d][a] & SQ(b)) {
                    int o = d ^ 1; /* the opposite direction: N/S, E/W, NE/SW... */
                    if (d >= 4) o = (d == 4) ? 7 : (d == 5) ? 6 : (d == 6) ? 5 : 4;
                    LINE[a][b] = RAY[d][a] | RAY[o][a] | SQ(a);
                    BETWEEN[a][b] = RAY[d][a] & RAY[o][b];
                }
        }
}

typedef struct {
    int turn; /* 1 white, 0 black */
    bb_t pawns, knights, bishops, rooks, queens, kings, co[2], promoted, occ;
    int ep; /* -1: none */
    bb_t castling;
} Board;

typedef struct {
    int32_t codes[256]; /* a legal position has at most 218 moves */
    int n, overflow;
} Out;

static inline void add(Out *o, int code) {
    if (o->n < 256)
        o->codes[o->n++] = code;
    else
        o->overflow = 1;
}

/* attackers_mask(color, sq) with the given occupancy (pieces as the board has them) */
static bb_t attackers(const Board *b, int color, int sq, bb_t occ) {
    bb_t qr = b->queens | b->rooks, qb = b->queens | b->bishops;
    bb_t a = (KING[sq] & b->kings) | (KNIGHT[sq] & b->knights) | (rook_attacks(sq, occ) & qr) |
             (bishop_attacks(sq, occ) & qb) | (PAWN_ATT[!color][sq] & b->pawns);
    return a & b->co[color];
}

static bb_t slider_blockers(const Board *b, int king) {
    bb_t snipers = (rook_attacks(king, 0) & (b->rooks | b->queens)) |
                   (bishop_attacks(king, 0) & (b->bishops | b->queens));
    snipers &= b->co[!b->turn];
    bb_t blockers = 0;
    while (snipers) {
        int s = msb(snipers);
        snipers ^= SQ(s);
        bb_t between = BETWEEN[king][s] & b->occ;
        if (between && !(between & (between - 1))) blockers |= between;
    }
    return blockers & b->co[b->turn];
}

/* the squares of targets (highest first) that no piece of enemy attacks, board as it stands */
static void safe_steps(const Board *b, int enemy, int from, bb_t targets, Out *o) {
    while (targets) {
        int sq = msb(targets);
        targets ^= SQ(sq);
        if (!attackers(b, enemy, sq, b->occ)) add(o, from << 6 | sq);
    }
}

static void pawn_moves(int from, bb_t targets, Out *o) {
    static const int PROMOTIONS[4] = {5, 4, 3, 2}; /* queen, rook, bishop, knight */
    while (targets) {
        int to = msb(targets);
        targets ^= SQ(to);
        if (SQ(to) & BACK_RANKS)
            for (int i = 0; i < 4; i++) add(o, PROMOTIONS[i] << 12 | from << 6 | to);
        else
            add(o, from << 6 | to);
    }
}

static void en_passant(const Board *b, int king, bb_t pinned, int legal, Out *o) {
    int ep = b->ep, turn = b->turn;
    if (SQ(ep) & b->occ) return;
    bb_t capturers = b->pawns & b->co[turn] & PAWN_ATT[!turn][ep] & (turn ? RANK_5 : RANK_4);
    int last_double = ep + (turn ? -8 : 8);
    bb_t them = b->co[!turn];
    while (capturers) {
        int from = msb(capturers);
        capturers ^= SQ(from);
        if (legal) { /* python-chess's _is_safe for en passant: the pin, then the skewer */
            if ((SQ(from) & pinned) && !(LINE[king][from] & SQ(ep))) continue;
            bb_t occ = (b->occ & ~SQ(last_double) & ~SQ(from)) | SQ(ep);
            bb_t r = ray_attacks(2, king, occ) | ray_attacks(3, king, occ);
            if (r & them & (b->rooks | b->queens)) continue;
            if (bishop_attacks(king, occ) & them & (b->bishops | b->queens)) continue;
        }
        add(o, from << 6 | ep);
    }
}

static bb_t clean_castling(const Board *b) {
    bb_t castling = b->castling & b->rooks;
    bb_t white = castling & RANK_1 & b->co[1] & (SQ(0) | SQ(7));
    bb_t black = castling & RANK_8 & b->co[0] & (SQ(56) | SQ(63));
    if (!(b->co[1] & b->kings & ~b->promoted & SQ(4))) white = 0;
    if (!(b->co[0] & b->kings & ~b->promoted & SQ(60))) black = 0;
    return white | black;
}

static int attacked_for_king(const Board *b, bb_t path, bb_t occ) {
    while (path) {
        int sq = msb(path);
        path ^= SQ(sq);
        if (attackers(b, !b->turn, sq, occ)) return 1;
    }
    return 0;
}

/* python-chess's castling moves (attacks = 1), or Dark Chess's (attacks = 0: OpenSpiel's,
 * rights intact and the squares between king and rook empty, attacks ignored) */
static void castling_moves(const Board *b, bb_t from_mask, bb_t to_mask, int attacks, Out *o) {
    bb_t backrank = b->turn ? RANK_1 : RANK_8;
    bb_t king = b->co[b->turn] & b->kings & ~b->promoted & backrank & from_mask;
    king &= (~king + 1);
    if (!king) return;
    int k = msb(king);
    bb_t candidates = clean_castling(b) & backrank & to_mask;
    int base = b->turn ? 0 : 56;
    while (candidates) {
        int c = msb(candidates);
        candidates ^= SQ(c);
        bb_t rook = SQ(c);
        int a_side = rook < king;
        int king_to = base + (a_side ? 2 : 6), rook_to = base + (a_side ? 3 : 5);
        bb_t king_path = BETWEEN[k][king_to], rook_path = BETWEEN[c][rook_to];
        if ((b->occ ^ king ^ rook) & (king_path | rook_path | SQ(king_to) | SQ(rook_to))) continue;
        if (attacks && attacked_for_king(b, king_path | king, b->occ ^ king)) continue;
        if (attacks && attacked_for_king(b, SQ(king_to), b->occ ^ king ^ rook ^ SQ(rook_to)))
            continue;
        /* _from_chess960 for a standard board: e1h1 is e1g1, e1a1 is e1c1 */
        int to = c;
        if (k == base + 4 && (b->kings & SQ(k))) {
            if (c == base + 7) to = base + 6;
            else if (c == base) to = base + 2;
        }
        add(o, k << 6 | to);
    }
}

/* what pseudo() generates: python-chess's legal moves, its pseudo-legal ones, or Dark
 * Chess's (pseudo-legal, castling by OpenSpiel's rule: docs/GAMES.md 2.2) */
enum { PSEUDO = 0, LEGAL = 1, DARK = 2 };

/* python-chess's generate_pseudo_legal_moves(from_mask, to_mask), legal ones only (LEGAL:
 * pinned, the king's steps, en passant), or with PSEUDO or DARK (no pins, king == -1) all of
 * them */
static void pseudo(const Board *b, bb_t from_mask, bb_t to_mask, int king, bb_t pinned,
                   int legal, Out *o) {
    int turn = b->turn;
    bb_t us = b->co[turn], them = b->co[!turn], occ = b->occ;
    bb_t free_ = ~us & to_mask;
    bb_t pieces = us & ~b->pawns & from_mask;
    while (pieces) {
        int from = msb(pieces);
        bb_t bb = SQ(from), targets;
        pieces ^= bb;
        if (bb & b->knights) {
            targets = KNIGHT[from] & free_;
        } else if (bb & b->kings) {
            if (legal != LEGAL) {
                targets = KING[from] & free_;
            } else {
                safe_steps(b, !turn, from, KING[from] & free_, o);
                continue;
            }
        } else {
            targets = 0;
            if (bb & (b->rooks | b->queens)) targets = rook_attacks(from, occ);
            if (bb & (b->bishops | b->queens)) targets |= bishop_attacks(from, occ);
            targets &= free_;
        }
        if (bb & pinned) targets &= LINE[king][from];
        while (targets) {
            int to = msb(targets);
            targets ^= SQ(to);
            add(o, from << 6 | to);
        }
    }
    if ((from_mask & b->kings) && (b->castling & us))
        castling_moves(b, from_mask, to_mask, legal != DARK, o);
    bb_t pawns = b->pawns & us & from_mask;
    if (!pawns) return;
    bb_t capturers = pawns;
    while (capturers) {
        int from = msb(capturers);
        capturers ^= SQ(from);
        bb_t targets = PAWN_ATT[turn][from] & them & to_mask;
        if (!targets) continue;
        if (SQ(from) & pinned) targets &= LINE[king][from];
        pawn_moves(from, targets, o);
    }
    bb_t single, dbl;
    int back;
    if (turn) {
        single = pawns << 8 & ~occ;
        dbl = single << 8 & ~occ & (RANK_3 | RANK_4);
        back = -8;
    } else {
        single = pawns >> 8 & ~occ;
        dbl = single >> 8 & ~occ & (RANK_6 | RANK_5);
        back = 8;
    }
    single &= to_mask;
    while (single) {
        int to = msb(single);
        single ^= SQ(to);
        int from = to + back;
        if ((SQ(from) & pinned) && !(LINE[king][from] & SQ(to))) continue;
        if (SQ(to) & BACK_RANKS)
            pawn_moves(from, SQ(to), o);
        else
            add(o, from << 6 | to);
    }
    dbl &= to_mask;
    while (dbl) {
        int to = msb(dbl);
        dbl ^= SQ(to);
        int from = to + 2 * back;
        if ((SQ(from) & pinned) && !(LINE[king][from] & SQ(to))) continue;
        add(o, from << 6 | to);
    }
    if (b->ep >= 0 && (to_mask & SQ(b->ep))) en_passant(b, king, pinned, legal == LEGAL, o);
}

/* python-chess's generate_legal_moves(to_mask=to_mask); 0 when there is no king */
static int legal(const Board *b, bb_t to_mask, Out *o) {
    int turn = b->turn;
    bb_t us = b->co[turn], kings = b->kings & us;
    if (!kings) return 0;
    int king = msb(kings);
    bb_t checkers = attackers(b, !turn, king, b->occ);
    bb_t pinned = slider_blockers(b, king);
    if (checkers) {
        bb_t sliders = checkers & (b->bishops | b->rooks | b->queens), beyond = 0;
        while (sliders) {
            int c = msb(sliders);
            sliders ^= SQ(c);
            beyond |= LINE[king][c] & ~SQ(c);
        }
        safe_steps(b, !turn, king, KING[king] & ~us & ~beyond & to_mask, o);
        if (checkers & (checkers - 1)) return 1; /* double check: the king moves */
        int checker = msb(checkers);
        bb_t target = BETWEEN[king][checker] | checkers;
        pseudo(b, ~b->kings, target & to_mask, king, pinned, LEGAL, o);
        int ep = b->ep;
        if (ep >= 0 && !(SQ(ep) & target) && (SQ(ep) & to_mask) &&
            ep + (turn ? -8 : 8) == checker)
            en_passant(b, king, pinned, 1, o);
        return 1;
    }
    pseudo(b, ~(bb_t)0, to_mask, king, pinned, LEGAL, o);
    return 1;
}

static int read_bb(PyObject *x, bb_t *out) {
    unsigned long long v = PyLong_AsUnsignedLongLong(x);
    if (v == (unsigned long long)-1 && PyErr_Occurred()) return -1;
    *out = (bb_t)v;
    return 0;
}

/* the twelve board fields (turn, pawns, knights, bishops, rooks, queens, kings, white,
 * black, promoted, ep or -1, castling) from Python objects */
static int read_board(PyObject *const *args, Board *b) {
    int turn = PyObject_IsTrue(args[0]);
    if (turn < 0) return -1;
    b->turn = turn;
    bb_t *fields[] = {&b->pawns, &b->knights, &b->bishops, &b->rooks, &b->queens, &b->kings,
                      &b->co[1], &b->co[0], &b->promoted};
    for (int i = 0; i < 9; i++)
        if (read_bb(args[1 + i], fields[i]) < 0) return -1;
    long ep = PyLong_AsLong(args[10]);
    if (ep == -1 && PyErr_Occurred()) return -1;
    if (ep < -1 || ep > 63) {
        PyErr_SetString(PyExc_ValueError, "ep is a square (0..63) or -1");
        return -1;
    }
    b->ep = (int)ep;
    if (read_bb(args[11], &b->castling) < 0) return -1;
    b->occ = b->co[0] | b->co[1];
    return 0;
}

/* python-chess's generate_legal_ep(): in check, only as an evasion (taking the checking
 * pawn, or blocking a single slider's check), then safe (pin, skewer) */
static void legal_ep(const Board *b, Out *o) {
    if (b->ep < 0 || !(b->kings & b->co[b->turn])) return;
    int king = msb(b->kings & b->co[b->turn]);
    bb_t checkers = attackers(b, !b->turn, king, b->occ);
    if (checkers) {
        if (checkers & (checkers - 1)) return;
        int checker = msb(checkers);
        bb_t target = BETWEEN[king][checker] | checkers;
        if (!(SQ(b->ep) & target) && b->ep + (b->turn ? -8 : 8) != checker) return;
    }
    en_passant(b, king, slider_blockers(b, king), 1, o);
}


/* piece type on sq (1 pawn .. 6 king), 0 for none: python-chess's piece_type_at */
static int piece_at(const Board *b, int sq) {
    bb_t m = SQ(sq);
    if (!(b->occ & m)) return 0;
    return (b->pawns & m) ? 1 : (b->knights & m) ? 2 : (b->bishops & m) ? 3
         : (b->rooks & m) ? 4 : (b->queens & m) ? 5 : 6;
}

static bb_t *piece_set(Board *b, int type) {
    bb_t *sets[] = {NULL, &b->pawns, &b->knights, &b->bishops, &b->rooks, &b->queens, &b->kings};
    return sets[type];
}

/* python-chess's has_insufficient_material(color) */
static int insufficient(const Board *b, int color) {
    bb_t us = b->co[color];
    if (us & (b->pawns | b->rooks | b->queens)) return 0;
    if (us & b->knights)
        return __builtin_popcountll(us) <= 2 && !(b->co[!color] & ~b->kings & ~b->queens);
    if (us & b->bishops) {
        const bb_t DARK = 0xaa55aa55aa55aa55ULL;
        int same_color = !(b->bishops & DARK) || !(b->bishops & ~DARK);
        return same_color && !b->pawns && !b->knights;
    }
    return 1;
}

#endif
