/* Legal chess moves as codes, compiled: python-chess's legal moves in its own order, for a
 * standard board (server/engine/chess_moves.py calls it, and python-chess without it).
 *
 * One function, gen(mode, turn, pawns, knights, bishops, rooks, queens, kings, white,
 * black, promoted, ep, castling, to_mask), reads the board's bitboards as Python ints and
 * returns the list of codes (promotion << 12 | from << 6 | to):
 *
 *   mode 0: board.generate_legal_moves(to_mask=to_mask)
 *   mode 1: board.generate_legal_captures()        (to_mask ignored)
 *   mode 2: board.generate_pseudo_legal_captures() (to_mask ignored)
 *   mode 3: Dark Chess's moves, DarkBoard.generate_legal_moves(to_mask=to_mask): pseudo-legal,
 *           castling by OpenSpiel's rule (server/engine/dark_chess/rules.py); the caller
 *           asks only while both kings stand
 *
 * or None when the side to move has no king (the caller falls back to python-chess).
 * ``ep`` is the en passant square or -1; ``castling`` is board.castling_rights (raw: the
 * rights are cleaned here as python-chess cleans them for standard chess).
 *
 * python-chess is the reference: tests/engine/test_chess_moves.py compares this with it list
 * for list over many thousands of positions.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#include "chess_core.h"


/* ``name`` takes ``want`` arguments, the board's twelve fields from ``args[skip]`` on */
static int board_args(const char *name, PyObject *const *args, Py_ssize_t nargs,
                      Py_ssize_t want, int skip, Board *b) {
    if (nargs != want) {
        PyErr_Format(PyExc_TypeError, "%s() takes %zd arguments", name, want);
        return -1;
    }
    return read_board(args + skip, b);
}

static PyObject *gen(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    Board b;
    bb_t to_mask;
    if (board_args("gen", args, nargs, 14, 1, &b) < 0 || read_bb(args[13], &to_mask) < 0)
        return NULL;
    long mode = PyLong_AsLong(args[0]);
    if (mode == -1 && PyErr_Occurred()) return NULL;
    Out o;
    o.n = o.overflow = 0;
    if (mode == 0) {
        if (!legal(&b, to_mask, &o)) Py_RETURN_NONE;
    } else if (mode == 1) {
        if (!legal(&b, b.co[!b.turn], &o)) Py_RETURN_NONE;
        legal_ep(&b, &o);
    } else if (mode == 2) {
        pseudo(&b, ~(bb_t)0, b.co[!b.turn], -1, 0, PSEUDO, &o);
        if (b.ep >= 0) en_passant(&b, -1, 0, 0, &o);
    } else if (mode == 3) {
        pseudo(&b, ~(bb_t)0, to_mask, -1, 0, DARK, &o);
    } else {
        PyErr_SetString(PyExc_ValueError, "mode is 0, 1, 2 or 3");
        return NULL;
    }
    if (o.overflow) Py_RETURN_NONE; /* the caller asks python-chess */
    PyObject *list = PyList_New(o.n);
    if (list == NULL) return NULL;
    for (int i = 0; i < o.n; i++) {
        PyObject *code = PyLong_FromLong(o.codes[i]);
        if (code == NULL) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, code);
    }
    return list;
}

/* python-chess's castling_xfen() on a standard board (its very steps: a set-up board may
 * have two kings of a colour, or a rook beyond the castling one) */
static int castling_text(const Board *b, char *out) {
    bb_t clean = clean_castling(b);
    int n = 0;
    for (int color = 1; color >= 0; color--) { /* White, then Black */
        bb_t kings = b->co[color] & b->kings & ~b->promoted;
        if (!kings) continue;
        int king_file = msb(kings) & 7;
        bb_t backrank = color ? RANK_1 : RANK_8;
        bb_t rooks = clean & backrank;
        while (rooks) {
            int rook = msb(rooks);
            rooks ^= SQ(rook);
            int rook_file = rook & 7, a_side = rook_file < king_file;
            bb_t others = b->co[color] & b->rooks & backrank & ~SQ(rook);
            int lettered = 0;
            while (others) {
                int other = msb(others);
                others ^= SQ(other);
                if (((other & 7) < rook_file) == a_side) lettered = 1;
            }
            char c = lettered ? (char)('a' + rook_file) : a_side ? 'q' : 'k';
            out[n++] = color ? (char)(c - 'a' + 'A') : c;
        }
    }
    if (!n) out[n++] = '-';
    return n;
}

/* fen(turn, pawns, knights, bishops, rooks, queens, kings, white, black, promoted, ep,
 * castling, halfmove_clock, fullmove_number) -> board.fen() of a standard board */
static PyObject *fen(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    Board b;
    if (board_args("fen", args, nargs, 14, 0, &b) < 0) return NULL;
    long half = PyLong_AsLong(args[12]), full = PyLong_AsLong(args[13]);
    if (PyErr_Occurred()) return NULL;
    static const char LETTERS[] = "pnbrqk";
    char text[160];
    int n = 0;
    for (int rank = 7; rank >= 0; rank--) {
        int empty = 0;
        for (int file = 0; file < 8; file++) {
            bb_t sq = SQ(rank * 8 + file);
            if (!(b.occ & sq)) {
                empty++;
                continue;
            }
            if (empty) text[n++] = (char)('0' + empty), empty = 0;
            int kind = (b.pawns & sq) ? 0 : (b.knights & sq) ? 1 : (b.bishops & sq) ? 2
                     : (b.rooks & sq) ? 3 : (b.queens & sq) ? 4 : 5;
            char c = LETTERS[kind];
            text[n++] = (b.co[1] & sq) ? (char)(c - 'a' + 'A') : c;
        }
        if (empty) text[n++] = (char)('0' + empty);
        if (rank) text[n++] = '/';
    }
    text[n++] = ' ';
    text[n++] = b.turn ? 'w' : 'b';
    text[n++] = ' ';
    n += castling_text(&b, text + n);
    text[n++] = ' ';
    Out ep;
    ep.n = ep.overflow = 0;
    legal_ep(&b, &ep);
    if (ep.n) {
        text[n++] = (char)('a' + (b.ep & 7));
        text[n++] = (char)('1' + (b.ep >> 3));
    } else {
        text[n++] = '-';
    }
    n += snprintf(text + n, sizeof text - (size_t)n, " %ld %ld", half, full);
    return PyUnicode_FromStringAndSize(text, n);
}

/* python-chess's _remove_piece_at */
static int remove_at(Board *b, int sq) {
    int type = piece_at(b, sq);
    if (!type) return 0;
    bb_t m = SQ(sq);
    *piece_set(b, type) ^= m;
    b->occ ^= m;
    b->co[0] &= ~m;
    b->co[1] &= ~m;
    b->promoted &= ~m;
    return type;
}

/* python-chess's _set_piece_at */
static void set_at(Board *b, int sq, int type, int color, int promoted) {
    remove_at(b, sq);
    bb_t m = SQ(sq);
    *piece_set(b, type) |= m;
    b->occ ^= m;
    b->co[color] ^= m;
    if (promoted) b->promoted ^= m;
}

static int is_zeroing(const Board *b, int from, int to) {
    bb_t touched = SQ(from) ^ SQ(to);
    return (touched & b->pawns) || (touched & b->co[!b->turn]);
}

/* play(turn, pawns, knights, bishops, rooks, queens, kings, white, black, promoted, ep,
 * castling, halfmove_clock, fullmove_number, code) -> the board after python-chess's
 * push of that (legal) move on a standard board, with what the rooms ask of the move and
 * the position after, in one call:
 *   (pawns, knights, bishops, rooks, queens, kings, white, black, promoted, turn,
 *    castling_rights, ep_square or None, halfmove_clock, fullmove_number,
 *    irreversible (board.is_irreversible(move) before it),
 *    clean_castling_rights() after, the en passant square if a legal capture there exists
 *    after, else None: the two last fields of chess_moves.position_key) */
static PyObject *play(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    Board b;
    if (board_args("play", args, nargs, 15, 0, &b) < 0) return NULL;
    long half = PyLong_AsLong(args[12]), full = PyLong_AsLong(args[13]);
    long code = PyLong_AsLong(args[14]);
    if (PyErr_Occurred()) return NULL;
    int from = (int)(code >> 6 & 63), to = (int)(code & 63), promotion = (int)(code >> 12);
    if (code < 0 || promotion > 6) {
        PyErr_SetString(PyExc_ValueError, "not a move code");
        return NULL;
    }
    int turn = b.turn;
    /* board.is_irreversible(move), before it */
    bb_t clean = clean_castling(&b), touched = SQ(from) ^ SQ(to);
    Out ep_moves;
    ep_moves.n = ep_moves.overflow = 0;
    legal_ep(&b, &ep_moves);
    int irreversible =
        is_zeroing(&b, from, to) || (touched & clean) ||
        ((clean & RANK_1) && (touched & b.kings & b.co[1] & ~b.promoted)) ||
        ((clean & RANK_8) && (touched & b.kings & b.co[0] & ~b.promoted)) || ep_moves.n > 0;
    /* push: _to_chess960 (e1g1 is e1h1 inside, when the g-square has no rook) */
    for (int r = 0; r <= 56; r += 56) {
        if (from == r + 4 && (b.kings & SQ(r + 4))) {
            if (to == r + 6 && !(b.rooks & SQ(r + 6))) to = r + 7;
            else if (to == r + 2 && !(b.rooks & SQ(r + 2))) to = r;
        }
    }
    bb_t from_bb = SQ(from), to_bb = SQ(to);
    b.castling = clean;
    int ep_before = b.ep;
    b.ep = -1;
    half += 1;
    if (!turn) full += 1;
    if (is_zeroing(&b, from, to)) half = 0;
    int promoted = (b.promoted & from_bb) != 0;
    int piece = remove_at(&b, from);
    int captured = piece_at(&b, to);
    b.castling &= ~to_bb & ~from_bb;
    if (piece == 6 && !promoted) {
        b.castling &= turn ? ~RANK_1 : ~RANK_8;
    } else if (captured == 6 && !(b.promoted & to_bb)) {
        if (turn && (to >> 3) == 7) b.castling &= ~RANK_8;
        else if (!turn && (to >> 3) == 0) b.castling &= ~RANK_1;
    }
    if (piece == 1) {
        int diff = to - from;
        if (diff == 16 && (from >> 3) == 1) {
            b.ep = from + 8;
        } else if (diff == -16 && (from >> 3) == 6) {
            b.ep = from - 8;
        } else if (to == ep_before && (diff == 7 || diff == 9 || diff == -7 || diff == -9) &&
                   !captured) {
            remove_at(&b, ep_before + (turn ? -8 : 8));
        }
    }
    if (promotion) {
        promoted = 1;
        piece = promotion;
    }
    int castling = piece == 6 && (b.co[turn] & to_bb);
    if (castling) {
        int a_side = (to & 7) < (from & 7), rank = turn ? 0 : 56;
        remove_at(&b, from);
        remove_at(&b, to);
        set_at(&b, rank + (a_side ? 2 : 6), 6, turn, 0);
        set_at(&b, rank + (a_side ? 3 : 5), 4, turn, 0);
    } else if (piece) {
        set_at(&b, to, piece, turn, promoted);
    }
    b.turn = !turn;
    /* the key's last two fields, after */
    ep_moves.n = 0;
    legal_ep(&b, &ep_moves);
    PyObject *ep_after = b.ep >= 0 ? PyLong_FromLong(b.ep) : Py_NewRef(Py_None);
    PyObject *key_ep = ep_moves.n ? PyLong_FromLong(b.ep) : Py_NewRef(Py_None);
    return Py_BuildValue("(KKKKKKKKKOKNllOKN)", (unsigned long long)b.pawns,
                         (unsigned long long)b.knights, (unsigned long long)b.bishops,
                         (unsigned long long)b.rooks, (unsigned long long)b.queens,
                         (unsigned long long)b.kings, (unsigned long long)b.co[1],
                         (unsigned long long)b.co[0], (unsigned long long)b.promoted,
                         b.turn ? Py_True : Py_False, (unsigned long long)b.castling, ep_after,
                         half, full, irreversible ? Py_True : Py_False,
                         (unsigned long long)clean_castling(&b), key_ep);
}

/* status(turn, ..., castling) -> 1 (board.is_check()) | 2 (is_insufficient_material()) */
static PyObject *status(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    Board b;
    if (board_args("status", args, nargs, 12, 0, &b) < 0) return NULL;
    bb_t kings = b.co[b.turn] & b.kings & ~b.promoted;
    int check = kings && attackers(&b, !b.turn, msb(kings), b.occ) != 0;
    return PyLong_FromLong(check | (insufficient(&b, 1) && insufficient(&b, 0)) << 1);
}

/* san(turn, ..., castling, code, codes, check_after, any_legal_after) -> the SAN of the
 * legal move ``code`` on this board (python-chess's Board.san, with the rivals it
 * disambiguates against taken from ``codes``, the board's legal moves) */
static PyObject *san(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    Board b;
    if (board_args("san", args, nargs, 16, 0, &b) < 0) return NULL;
    long code = PyLong_AsLong(args[12]);
    if (code == -1 && PyErr_Occurred()) return NULL;
    PyObject *codes = args[13];
    if (!PyList_Check(codes)) {
        PyErr_SetString(PyExc_TypeError, "codes is a list");
        return NULL;
    }
    int check = PyObject_IsTrue(args[14]), any_legal = PyObject_IsTrue(args[15]);
    if (check < 0 || any_legal < 0) return NULL;
    int from = (int)(code >> 6 & 63), to = (int)(code & 63), promotion = (int)(code >> 12 & 7);
    static const char LETTER[] = " PNBRQK";
    char text[16];
    int n = 0;
    int piece = piece_at(&b, from);
    if (!piece) {
        PyErr_SetString(PyExc_ValueError, "no piece on the move's square");
        return NULL;
    }
    int diff = (from & 7) - (to & 7);
    if (piece == 6 && (diff > 1 || diff < -1 || (b.rooks & b.co[b.turn] & SQ(to)))) {
        n = (int)strlen(strcpy(text, (to & 7) < (from & 7) ? "O-O-O" : "O-O"));
    } else {
        int capture = ((SQ(from) ^ SQ(to)) & b.co[!b.turn]) ||
                      (b.ep == to && (b.pawns & SQ(from)) &&
                       (to - from == 7 || to - from == 9 || from - to == 7 || from - to == 9) &&
                       !(b.occ & SQ(to)));
        if (piece == 1) {
            if (capture) text[n++] = (char)('a' + (from & 7));
        } else {
            text[n++] = LETTER[piece];
            /* the rivals: other pieces of the kind with a legal move to the same square */
            bb_t same = 0, others = 0;
            bb_t *set = piece_set(&b, piece);
            same = *set & b.co[b.turn] & ~SQ(from);
            for (Py_ssize_t i = 0; i < PyList_GET_SIZE(codes); i++) {
                long c = PyLong_AsLong(PyList_GET_ITEM(codes, i));
                if (c == -1 && PyErr_Occurred()) return NULL;
                int o = (int)(c >> 6 & 63);
                if ((c & 63) == to && (same & SQ(o))) others |= SQ(o);
            }
            if (others) {
                int column = (others & (RANK_1 << (from & 56))) != 0;
                int row = (others & (FILE_A << (from & 7))) != 0;
                if (!row) column = 1;
                if (column) text[n++] = (char)('a' + (from & 7));
                if (row) text[n++] = (char)('1' + (from >> 3));
            }
        }
        if (capture) text[n++] = 'x';
        text[n++] = (char)('a' + (to & 7));
        text[n++] = (char)('1' + (to >> 3));
        if (promotion) {
            text[n++] = '=';
            text[n++] = LETTER[promotion];
        }
    }
    if (check) text[n++] = any_legal ? '+' : '#';
    return PyUnicode_FromStringAndSize(text, n);
}

/* the UCI text of every from-to pair, interned (made at the first texts() call) */
static PyObject *UCI[4096];

static PyObject *uci_text(long code) {
    int from = (int)(code >> 6 & 63), to = (int)(code & 63), promotion = (int)(code >> 12 & 7);
    char text[6] = {(char)('a' + (from & 7)), (char)('1' + (from >> 3)), (char)('a' + (to & 7)),
                    (char)('1' + (to >> 3)), " pnbrqk"[promotion], 0};
    PyObject *out = PyUnicode_FromStringAndSize(text, promotion ? 5 : 4);
    if (out != NULL) PyUnicode_InternInPlace(&out);
    return out;
}

/* texts(codes) -> the moves' UCI texts, interned: [uci_texts(codes)] of chess_game.py */
static PyObject *texts(PyObject *self, PyObject *codes) {
    (void)self;
    if (!PyList_Check(codes)) {
        PyErr_SetString(PyExc_TypeError, "texts() takes a list of move codes");
        return NULL;
    }
    Py_ssize_t n = PyList_GET_SIZE(codes);
    PyObject *out = PyList_New(n);
    if (out == NULL) return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        long code = PyLong_AsLong(PyList_GET_ITEM(codes, i));
        if ((code == -1 && PyErr_Occurred()) || code < 0 || code >= (7 << 12)) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "not a move code");
            Py_DECREF(out);
            return NULL;
        }
        PyObject *text;
        if (code < 4096) {
            if (UCI[code] == NULL && (UCI[code] = uci_text(code)) == NULL) {
                Py_DECREF(out);
                return NULL;
            }
            text = UCI[code];
            Py_INCREF(text);
        } else if ((text = uci_text(code)) == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, i, text);
    }
    return out;
}

static PyMethodDef methods[] = {
    {"gen", (PyCFunction)(void (*)(void))gen, METH_FASTCALL,
     "gen(mode, turn, pawns, knights, bishops, rooks, queens, kings, white, black, promoted, "
     "ep, castling, to_mask) -> list of move codes, or None without a king to move"},
    {"play", (PyCFunction)(void (*)(void))play, METH_FASTCALL,
     "play(turn, pawns, knights, bishops, rooks, queens, kings, white, black, promoted, ep, "
     "castling, halfmove_clock, fullmove_number, code) -> the board after the move, and "
     "facts of the move and the position after (see _chess_moves.c)"},
    {"status", (PyCFunction)(void (*)(void))status, METH_FASTCALL,
     "status(turn, ..., castling) -> 1 if in check | 2 if insufficient material"},
    {"san", (PyCFunction)(void (*)(void))san, METH_FASTCALL,
     "san(turn, ..., castling, code, legal codes, check after, any legal after) -> SAN"},
    {"texts", (PyCFunction)texts, METH_O,
     "texts(codes) -> the moves' UCI texts (e2e4, e7e8q), interned"},
    {"fen", (PyCFunction)(void (*)(void))fen, METH_FASTCALL,
     "fen(turn, pawns, knights, bishops, rooks, queens, kings, white, black, promoted, ep, "
     "castling, halfmove_clock, fullmove_number) -> the board's FEN"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_chess_moves",
                                    "Legal chess moves as codes, compiled.", -1, methods};

PyMODINIT_FUNC PyInit__chess_moves(void) {
    init_tables();
    return PyModule_Create(&module);
}
