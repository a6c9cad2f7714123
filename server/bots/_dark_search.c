/* Dark Chess's compiled search over sampled worlds (server/bots/worldsearch.py's core):
 * each world is a full board consistent with the seat's views, searched by Dark Chess's
 * rules (dark_tree.h: pseudo-legal moves, the king taken ends the game), and every root
 * move gets a score in every world, so that the bot can weigh the moves over the worlds.
 *
 * It reuses the chess search's parts: the engine's move generator and board
 * (server/engine/chess_core.h, its pseudo-legal mode), PeSTO's evaluation and the capture
 * measures (search_eval.h), make and Zobrist keys (search_make.h), the clock, table
 * entries and ordering key of its tree (search_common.h) and setup with the reading of the
 * root and the table (search_py.h). The Python side:
 *
 *   setup(mg, eg, phase, value): the evaluation's tables, as _chess_search.setup takes them
 *       (server/bots/compiled.py's setup_tables hands over the same).
 *   search(worlds, root, budget, margin, max_depth, table) -> (scores, depths, nodes):
 *       worlds are boards as twelve fields each (turn, pawns, knights, bishops, rooks,
 *       queens, kings, white, black, promoted, ep or -1, castling), root the seat's moves
 *       (codes, the same in every world: what the seat sees decides them). Iterative
 *       deepening over all the worlds together: depth 1 in every world, then depth 2, ...
 *       until the budget (seconds) or max_depth. scores[w][i] is root move i's score in
 *       world w (centipawns for the side to move, about +-100000 for a king taken) at the
 *       deepest depth finished in that world, depths[w] that depth (0: none finished; -1:
 *       a root move is not a move in that world, so the world is not searched).
 *   moves(world): the side to move's moves as the search makes them (tests hold them to
 *       Dark Chess's rules, server/engine/dark_chess/rules.py).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <math.h>
#include <string.h>
#include <time.h>

#pragma GCC diagnostic ignored "-Wunused-function"
#include "chess_core.h"
static const bb_t *const KING_STEPS = KING; /* search_eval.h names the piece KING (6) */
#include "search_eval.h"
#include "search_make.h"
#include "dark_tree.h"
#include "search_py.h"

#define MAX_WORLDS 512

static int read_world(PyObject *fields, Board *b) {
    if (!PyTuple_Check(fields) || PyTuple_GET_SIZE(fields) != 12) {
        PyErr_SetString(PyExc_TypeError, "a world: a tuple of twelve board fields");
        return 0;
    }
    if (read_board(&PyTuple_GET_ITEM(fields, 0), b) < 0) return 0;
    if (!(b->kings & b->co[0]) || !(b->kings & b->co[1])) {
        PyErr_SetString(PyExc_ValueError, "a world without a king of each colour");
        return 0;
    }
    b->castling = clean_castling(b);
    b->promoted = 0;
    if (b->ep >= 0 && !(PAWN_ATT[!b->turn][b->ep] & b->pawns & b->co[b->turn])) b->ep = -1;
    return 1;
}

static int has_moves(const Board *b, const int *codes, int n) {
    Out o;
    dark_moves(b, 0, &o);
    for (int i = 0; i < n; i++) {
        int found = 0;
        for (int j = 0; j < o.n && !found; j++) found = o.codes[j] == codes[i];
        if (!found) return 0;
    }
    return 1;
}

/* order[] (indices) by scores, best first (an insertion sort: a few dozen moves) */
static void sort_order(int *order, const int *scores, int n) {
    for (int i = 1; i < n; i++) {
        int k = order[i], j = i - 1;
        while (j >= 0 && scores[order[j]] < scores[k]) order[j + 1] = order[j], j--;
        order[j + 1] = k;
    }
}

static PyObject *search(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *world_list, *root_list, *table;
    double budget;
    int margin, max_depth;
    if (!PyArg_ParseTuple(args, "OOdiiO", &world_list, &root_list, &budget, &margin, &max_depth,
                          &table))
        return NULL;
    if (!ready) {
        PyErr_SetString(PyExc_RuntimeError, "setup() first");
        return NULL;
    }
    if (!(budget >= 0 && budget <= 3600) || margin < 0 || margin > DINF || max_depth < 1 ||
        max_depth > 32) {
        PyErr_SetString(PyExc_ValueError,
                        "budget: 0 to 3600 s; margin: 0 or more; max_depth: 1 to 32");
        return NULL;
    }
    if (!PyList_Check(world_list) || PyList_GET_SIZE(world_list) < 1 ||
        PyList_GET_SIZE(world_list) > MAX_WORLDS) {
        PyErr_Format(PyExc_ValueError, "worlds: a list of 1 to %d boards", MAX_WORLDS);
        return NULL;
    }
    int nw = (int)PyList_GET_SIZE(world_list), codes[256], n = read_root(root_list, codes);
    if (n < 0) return NULL;
    Dark *s = PyMem_Calloc(1, sizeof(Dark));
    if (s == NULL) return PyErr_NoMemory();
    Py_buffer view;
    if (open_table(table, &view, s) < 0) {
        PyMem_Free(s);
        return NULL;
    }
    Board *boards = PyMem_Calloc((size_t)nw, sizeof(Board));
    int *scores = PyMem_Calloc((size_t)nw * 256 * 3, sizeof(int)); /* scores, order, scratch */
    int *depths = PyMem_Calloc((size_t)nw, sizeof(int));
    PyObject *result = NULL;
    if (!boards || !scores || !depths) {
        PyErr_NoMemory();
        goto done;
    }
    for (int w = 0; w < nw; w++) {
        if (!read_world(PyList_GET_ITEM(world_list, w), &boards[w])) goto done;
        depths[w] = has_moves(&boards[w], codes, n) ? 0 : -1;
        for (int i = 0; i < n; i++) scores[(nw + w) * 256 + i] = i;
    }
    s->mate = WIN;
    s->enforce = 1;
    s->deadline = now() + budget;
    Py_BEGIN_ALLOW_THREADS
    for (int depth = 1; depth <= max_depth && !s->stop; depth++) {
        for (int w = 0; w < nw && !s->stop; w++) {
            if (depths[w] < 0) continue;
            int *order = &scores[(nw + w) * 256], *scratch = &scores[(2 * nw + w) * 256];
            if (!dark_root(s, &boards[w], codes, order, n, depth, margin, scratch)) break;
            memcpy(&scores[w * 256], scratch, (size_t)n * sizeof(int));
            depths[w] = depth;
            sort_order(order, scratch, n);
        }
    }
    Py_END_ALLOW_THREADS
    PyObject *score_lists = PyList_New(nw), *depth_list = PyList_New(nw);
    if (!score_lists || !depth_list) {
        Py_XDECREF(score_lists);
        Py_XDECREF(depth_list);
        goto done;
    }
    for (int w = 0; w < nw; w++) {
        PyObject *row = PyList_New(n);
        if (!row) {
            Py_DECREF(score_lists);
            Py_DECREF(depth_list);
            goto done;
        }
        for (int i = 0; i < n; i++) PyList_SET_ITEM(row, i, PyLong_FromLong(scores[w * 256 + i]));
        PyList_SET_ITEM(score_lists, w, row);
        PyList_SET_ITEM(depth_list, w, PyLong_FromLong(depths[w]));
    }
    result = Py_BuildValue("(NNL)", score_lists, depth_list, s->nodes);
done:
    PyMem_Free(boards);
    PyMem_Free(scores);
    PyMem_Free(depths);
    PyMem_Free(s);
    PyBuffer_Release(&view);
    return result;
}

static PyObject *moves(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *world;
    if (!PyArg_ParseTuple(args, "O", &world)) return NULL;
    Board b;
    if (!read_world(world, &b)) return NULL;
    Out o;
    dark_moves(&b, 0, &o);
    PyObject *out = PyList_New(o.n);
    if (!out) return NULL;
    for (int i = 0; i < o.n; i++) PyList_SET_ITEM(out, i, PyLong_FromLong(o.codes[i]));
    return out;
}

static PyMethodDef methods[] = {
    {"setup", setup, METH_VARARGS, "setup(mg, eg, phase, value): the evaluation's tables"},
    {"moves", moves, METH_VARARGS, "moves(world) -> the side to move's move codes"},
    {"search", search, METH_VARARGS,
     "search(worlds, root, budget, margin, max_depth, table) -> (scores, depths, nodes)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_dark_search",
                                    "Dark Chess's search over sampled worlds, compiled.", -1,
                                    methods};

PyMODINIT_FUNC PyInit__dark_search(void) {
    init_tables();
    init_keys();
    return PyModule_Create(&module);
}
