/* The Python side both compiled searches share (included by _chess_search.c and
 * _dark_search.c, after Python.h, search_eval.h and search_common.h): setup, the evaluation's
 * tables handed over from Python (server/bots/compiled.py's setup_tables), and the reading of
 * the root's moves and of the transposition table's buffer.
 */
#ifndef KIBITZ_SEARCH_PY_H
#define KIBITZ_SEARCH_PY_H

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

/* setup(mg, eg, phase, value): mg/eg[color*7 + piece][square] as two lists of 2*7*64 ints,
 * phase and value by piece type (7 ints each) */
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

/* the root's moves (a list of 1 to 256 codes) into codes: how many, or -1 (an error set) */
static int read_root(PyObject *list, int *codes) {
    if (!PyList_Check(list) || PyList_GET_SIZE(list) < 1 || PyList_GET_SIZE(list) > 256) {
        PyErr_SetString(PyExc_ValueError, "root: a list of 1 to 256 move codes");
        return -1;
    }
    int n = (int)PyList_GET_SIZE(list);
    return read_ints(list, codes, n, "root") < 0 ? -1 : n;
}

/* the table (a writable buffer of a power of two of 16-byte entries, at least 1024) into
 * t->tt and t->mask, held in view: 0, or -1 (an error set, nothing held) */
static int open_table(PyObject *table, Py_buffer *view, Tree *t) {
    if (PyObject_GetBuffer(table, view, PyBUF_WRITABLE) < 0) return -1;
    size_t entries = (size_t)view->len / sizeof(Entry);
    if (entries < 1024 || (entries & (entries - 1)) || (size_t)view->len % sizeof(Entry)) {
        PyBuffer_Release(view);
        PyErr_SetString(PyExc_ValueError, "table: a power of two of 16-byte entries (>= 1024)");
        return -1;
    }
    t->tt = (Entry *)view->buf;
    t->mask = entries - 1;
    return 0;
}

#endif
