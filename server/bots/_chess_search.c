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
 * One translation unit, in parts by subject (so the compiler still inlines across them):
 * search_eval.h (the evaluation and capture measures), search_make.h (make, Zobrist keys,
 * move lists), search_tree.h (the search) with search_common.h (the clock, table entries
 * and ordering key it shares with Dark Chess's tree, dark_tree.h), search_py.h (setup and
 * the arguments both compiled searches read) and this file, the rest of the Python side:
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
 *   perft(start, moves, depth): leaf count through search_make.h's make (tests hold it to
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
#include "search_eval.h"
#include "search_make.h"
#include "search_tree.h"
#include "search_py.h"

/* -- the Python side ------------------------------------------------------------------ */

static int is_legal(const Board *b, long code) {
    Out o;
    gen_moves(b, 0, &o);
    for (int i = 0; i < o.n; i++)
        if (o.codes[i] == code) return 1;
    return 0;
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
    Search *s = PyMem_Calloc(1, sizeof(Search));
    if (s == NULL) return PyErr_NoMemory();
    Py_buffer view;
    if (open_table(table, &view, &s->t) < 0) {
        PyMem_Free(s);
        return NULL;
    }
    int root_moves[256], n = 0;
    PyObject *result = NULL;
    if (replay(s, start, moves) < 0) goto done;
    if ((n = read_root(root_list, root_moves)) < 0) goto done;
    for (int i = 0; i < n; i++)
        if (!is_legal(&s->boards[0], root_moves[i])) {
            PyErr_Format(PyExc_ValueError, "root[%d] (%d) is not a legal move here", i, root_moves[i]);
            goto done;
        }
    s->t.mate = MATE;
    s->t.max_nodes = max_nodes;
    double started = now();
    s->t.deadline = started + budget;
    int best = root_moves[0], best_score = -INF, done_depth = 0;
    Py_BEGIN_ALLOW_THREADS
    for (int depth = 1; depth <= max_depth; depth++) {
        if (depth > 1 && now() - started > next_depth * budget) break;
        s->t.enforce = depth > 1;
        Root r;
        root(s, root_moves, n, depth, &r);
        if (s->t.stop) {
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
    result = Py_BuildValue("(iiiL)", best, best_score, done_depth, s->t.nodes);
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
    init_reductions();
    return PyModule_Create(&module);
}
