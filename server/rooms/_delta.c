/* The delta's comparison, compiled: diff_keys(old, new, keys, path, sets, dels, memo) does
 * what server/rooms/delta.py's _diff_keys does, step for step (the Python function is the
 * reference; tests/rooms/test_delta.py holds the two to the same output on random trees).
 *
 * A change is found by identity, else by type and ==; a dict (or a list of the same length,
 * at least MIN_LIST long) that changed is compared inside, anything else is set whole. With
 * a memo dict, a top-level part whose old and new values were compared already (the same
 * objects, shared by several recipients' renderings) is not compared again.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

static Py_ssize_t MIN_LIST = 8;

/* [*path, step] */
static PyObject *extend(PyObject *path, PyObject *step) {
    Py_ssize_t n = PyList_GET_SIZE(path);
    PyObject *out = PyList_New(n + 1);
    if (out == NULL) return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *x = PyList_GET_ITEM(path, i);
        Py_INCREF(x);
        PyList_SET_ITEM(out, i, x);
    }
    Py_INCREF(step);
    PyList_SET_ITEM(out, n, step);
    return out;
}

/* sets.append([path, value]) (steals path) */
static int add_set(PyObject *sets, PyObject *path, PyObject *value) {
    if (path == NULL) return -1;
    PyObject *pair = PyList_New(2);
    if (pair == NULL) {
        Py_DECREF(path);
        return -1;
    }
    PyList_SET_ITEM(pair, 0, path);
    Py_INCREF(value);
    PyList_SET_ITEM(pair, 1, value);
    int r = PyList_Append(sets, pair);
    Py_DECREF(pair);
    return r;
}

/* list.append(x) (steals x) */
static int append_new(PyObject *list, PyObject *x) {
    if (x == NULL) return -1;
    int r = PyList_Append(list, x);
    Py_DECREF(x);
    return r;
}

/* a is b, or the same type and equal: 1, 0, or -1 on error */
static int same(PyObject *a, PyObject *b) {
    if (a == b) return 1;
    if (Py_TYPE(a) != Py_TYPE(b)) return 0;
    return PyObject_RichCompareBool(a, b, Py_EQ);
}

static int nested(PyObject *a, PyObject *b) {
    if (Py_TYPE(a) != Py_TYPE(b)) return 0;
    if (PyDict_CheckExact(a)) return 1;
    return PyList_CheckExact(a) && PyList_GET_SIZE(a) == PyList_GET_SIZE(b) &&
           PyList_GET_SIZE(a) >= MIN_LIST;
}

static int diff(PyObject *old, PyObject *new, PyObject *path, PyObject *sets, PyObject *dels);

/* list.extend(items) for a list of items */
static int extend_from(PyObject *list, PyObject *items) {
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(items); i++)
        if (PyList_Append(list, PyList_GET_ITEM(items, i)) < 0) return -1;
    return 0;
}

/* a top-level part through the memo: memo[(key, id(before), id(value))] = (sets, dels) */
static int memo_diff(PyObject *memo, PyObject *key, PyObject *before, PyObject *value,
                     PyObject *sets, PyObject *dels) {
    PyObject *mark = Py_BuildValue("(ONN)", key, PyLong_FromVoidPtr(before),
                                   PyLong_FromVoidPtr(value));
    if (mark == NULL) return -1;
    PyObject *known = PyDict_GetItemWithError(memo, mark); /* borrowed */
    if (known != NULL) {
        Py_INCREF(known);
    } else {
        if (PyErr_Occurred()) {
            Py_DECREF(mark);
            return -1;
        }
        PyObject *ksets = PyList_New(0), *kdels = PyList_New(0), *sub = PyList_New(1);
        int bad = ksets == NULL || kdels == NULL || sub == NULL;
        if (!bad) {
            Py_INCREF(key);
            PyList_SET_ITEM(sub, 0, key);
            bad = diff(before, value, sub, ksets, kdels) < 0;
        }
        if (!bad) {
            known = PyTuple_Pack(2, ksets, kdels);
            bad = known == NULL || PyDict_SetItem(memo, mark, known) < 0;
        }
        Py_XDECREF(ksets);
        Py_XDECREF(kdels);
        Py_XDECREF(sub);
        if (bad) {
            Py_XDECREF(known);
            Py_DECREF(mark);
            return -1;
        }
    }
    Py_DECREF(mark);
    int r = extend_from(sets, PyTuple_GET_ITEM(known, 0)) < 0 ||
                    extend_from(dels, PyTuple_GET_ITEM(known, 1)) < 0
                ? -1
                : 0;
    Py_DECREF(known);
    return r;
}

/* one key of diff_keys_ */
static int diff_key(PyObject *old, PyObject *new, PyObject *key, PyObject *path,
                    PyObject *sets, PyObject *dels, PyObject *memo) {
    PyObject *value = PyDict_GetItemWithError(new, key); /* borrowed */
    if (value == NULL) {
        if (PyErr_Occurred()) return -1;
        int had = PyDict_Contains(old, key);
        if (had <= 0) return had;
        return append_new(dels, extend(path, key));
    }
    PyObject *before = PyDict_GetItemWithError(old, key); /* borrowed */
    if (before == NULL) return PyErr_Occurred() ? -1 : add_set(sets, extend(path, key), value);
    Py_INCREF(value);
    Py_INCREF(before);
    int status = same(before, value);
    if (status > 0) {
        status = 0;
    } else if (status == 0) {
        if (!nested(before, value)) {
            status = add_set(sets, extend(path, key), value);
        } else if (memo == Py_None) {
            PyObject *sub = extend(path, key);
            status = sub == NULL ? -1 : diff(before, value, sub, sets, dels);
            Py_XDECREF(sub);
        } else {
            status = memo_diff(memo, key, before, value, sets, dels);
        }
    }
    Py_DECREF(value);
    Py_DECREF(before);
    return status;
}

static int diff_keys_(PyObject *old, PyObject *new, PyObject *keys, PyObject *path,
                      PyObject *sets, PyObject *dels, PyObject *memo) {
    PyObject *it = PyObject_GetIter(keys);
    if (it == NULL) return -1;
    PyObject *key;
    int status = 0;
    while (status == 0 && (key = PyIter_Next(it)) != NULL) {
        status = diff_key(old, new, key, path, sets, dels, memo);
        Py_DECREF(key);
    }
    Py_DECREF(it);
    if (status == 0 && PyErr_Occurred()) status = -1;
    return status;
}

static int diff(PyObject *old, PyObject *new, PyObject *path, PyObject *sets, PyObject *dels) {
    if (PyDict_CheckExact(old) && PyDict_CheckExact(new)) {
        if (diff_keys_(old, new, new, path, sets, dels, Py_None) < 0) return -1;
        PyObject *key, *value;
        Py_ssize_t pos = 0;
        while (PyDict_Next(old, &pos, &key, &value)) {
            int has = PyDict_Contains(new, key);
            if (has < 0) return -1;
            if (!has && append_new(dels, extend(path, key)) < 0) return -1;
        }
        return 0;
    }
    if (nested(old, new)) {
        Py_ssize_t n = PyList_GET_SIZE(old);
        for (Py_ssize_t i = 0; i < n; i++) {
            PyObject *a = PyList_GET_ITEM(old, i), *b = PyList_GET_ITEM(new, i);
            Py_INCREF(a);
            Py_INCREF(b);
            int eq = same(a, b), status = 0;
            if (eq < 0) {
                status = -1;
            } else if (!eq) {
                PyObject *index = PyLong_FromSsize_t(i);
                PyObject *sub = index == NULL ? NULL : extend(path, index);
                Py_XDECREF(index);
                if (sub == NULL) status = -1;
                else if (nested(a, b)) status = diff(a, b, sub, sets, dels);
                else {
                    status = add_set(sets, sub, b);
                    sub = NULL; /* stolen */
                }
                Py_XDECREF(sub);
            }
            Py_DECREF(a);
            Py_DECREF(b);
            if (status < 0) return -1;
            if (PyList_GET_SIZE(old) != n || PyList_GET_SIZE(new) != n) {
                PyErr_SetString(PyExc_RuntimeError, "a list changed while it was compared");
                return -1;
            }
        }
        return 0;
    }
    Py_INCREF(path);
    return add_set(sets, path, new);
}

static PyObject *py_diff_keys(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs != 7) {
        PyErr_SetString(PyExc_TypeError,
                        "diff_keys(old, new, keys, path, sets, dels, memo) takes 7 arguments");
        return NULL;
    }
    PyObject *old = args[0], *new = args[1], *path = args[3], *sets = args[4], *dels = args[5];
    PyObject *memo = args[6];
    if (!PyDict_Check(old) || !PyDict_Check(new) || !PyList_CheckExact(path) ||
        !PyList_CheckExact(sets) || !PyList_CheckExact(dels) ||
        (memo != Py_None && !PyDict_CheckExact(memo))) {
        PyErr_SetString(PyExc_TypeError, "diff_keys: dicts, a key iterable, three lists, memo");
        return NULL;
    }
    if (diff_keys_(old, new, args[2], path, sets, dels, memo) < 0) return NULL;
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"diff_keys", (PyCFunction)(void (*)(void))py_diff_keys, METH_FASTCALL,
     "diff_keys(old, new, keys, path, sets, dels, memo): delta._diff_keys, compiled"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_delta",
                                    "The delta's comparison, compiled.", -1, methods,
                                    NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__delta(void) { return PyModule_Create(&module); }
