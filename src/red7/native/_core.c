/* red7.native._core: the compiled hot paths of red7 (see red7/native/__init__.py).
 *
 * The pure-Python modules stay the reference: every function here has a Python twin
 * that tests/native/test_native.py compares it with.
 *
 * This file is the module's initialiser and its module-level functions; each part's
 * work is in a file of its own:
 *
 * - key(rule, palette): a palette's key under a rule, as red7.core.rules.KEY (R3; rules.h).
 * - children(hand, palette, other, rule): the legal turn plans of the exact solver's
 *   game, as red7.solver.exact._children (R4.2-R4.6; exact.c).
 * - won(hand, palette, other_hand, other_palette, rule): the exact value of a turn
 *   start, as red7.solver.exact.won, with a transposition table of its own (exact.c).
 * - Engine and random_games: the engine (engine.h, engine.c) seen from Python
 *   (engine_type.c), as red7.core.game.Game and red7.analysis.sim; the vectorised
 *   environment (vector.c).
 *
 * rules.h holds the rules' keys, which every part uses; defs.h the constants and the
 * position's fields, generated from the Python engine (red7.core.native_defs); mt.h
 * CPython's Mersenne Twister, fast.h the fast streams. Cards are bits 0..48 of a mask,
 * card index = (value - 1) * 7 + (6 - colour), so a higher index is a higher card
 * (red7.core.cards). Written in C11 against the CPython API only, so the package's own
 * build needs nothing but a C compiler. The GIL is held throughout: the solver's table
 * is shared, and a call is short.
 *
 * The C files call one another in layers, none back up (tests/native/test_native_sources.py
 * checks that no circle forms): this file on top; under it the Python types
 * (engine_type.c, vector.c), the searches (pimc.c, search.c, inference.c, greedy.c), the
 * engine and the exact solver (engine.c, exact.c), and the rules' tables (rules.c).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "args.h"
#include "exact.h"
#include "rules.h"

/* --- the module's functions --------------------------------------------------------- */

static int read_mask(PyObject *arg, mask_t *out, const char *name) {
    unsigned long long v;
    if (!r7_u64(arg, &v) || v & ~ALL_CARDS) {
        if (PyErr_Occurred()) return 0;
        PyErr_Format(PyExc_ValueError, "%s is not a mask of the 49 cards", name);
        return 0;
    }
    *out = v;
    return 1;
}

static int read_rule(PyObject *arg, int *out) {
    long v = r7_long(arg);
    if (v == -1 && PyErr_Occurred()) return 0;
    if (v < 0 || v > 6) {
        PyErr_Format(PyExc_ValueError, "rule index %R is outside 0..6", arg);
        return 0;
    }
    *out = (int)v;
    return 1;
}

static PyObject *py_key(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    int rule;
    mask_t m;
    if (nargs != 2) return PyErr_Format(PyExc_TypeError, "key(rule, palette) takes 2 arguments");
    if (!read_rule(args[0], &rule) || !read_mask(args[1], &m, "palette")) return NULL;
    return PyLong_FromLong(rule_key(rule, m));
}

static PyObject *py_children(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    mask_t hand, palette, other;
    int rule;
    if (nargs != 4) return PyErr_Format(PyExc_TypeError, "children(hand, palette, other, rule) takes 4 arguments");
    if (!read_mask(args[0], &hand, "hand") || !read_mask(args[1], &palette, "palette") ||
        !read_mask(args[2], &other, "other") || !read_rule(args[3], &rule))
        return NULL;
    if (popcount(hand) > R7_MOST_CARDS)
        return PyErr_Format(PyExc_ValueError, "a hand holds more than %d cards", R7_MOST_CARDS);
    r7_plan_t plans[R7_MOST_TURN_PLANS];
    int n = r7_plans(hand, palette, other, rule, plans);
    PyObject *list = PyList_New(n);
    if (!list) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *t = Py_BuildValue("(KKi)", (unsigned long long)plans[i].hand, (unsigned long long)plans[i].palette,
                                    plans[i].rule);
        if (!t) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, t);
    }
    return list;
}

static PyObject *py_won(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    mask_t hand, palette, other_hand, other_palette;
    int rule;
    if (nargs != 5)
        return PyErr_Format(PyExc_TypeError, "won(hand, palette, other_hand, other_palette, rule) takes 5 arguments");
    if (!read_mask(args[0], &hand, "hand") || !read_mask(args[1], &palette, "palette") ||
        !read_mask(args[2], &other_hand, "other_hand") || !read_mask(args[3], &other_palette, "other_palette") ||
        !read_rule(args[4], &rule))
        return NULL;
    if ((hand & palette) | ((hand | palette) & (other_hand | other_palette)) | (other_hand & other_palette))
        return PyErr_Format(PyExc_ValueError, "a card is in two places");
    if (popcount(hand) > R7_MOST_CARDS || popcount(other_hand) > R7_MOST_CARDS)
        return PyErr_Format(PyExc_ValueError, "a hand holds more than %d cards", R7_MOST_CARDS);
    int won = r7_won(hand, palette, other_hand, other_palette, rule);
    return won < 0 ? PyErr_NoMemory() : PyBool_FromLong(won);
}

static PyObject *py_clear_table(PyObject *self, PyObject *unused) {
    r7_clear_table();
    Py_RETURN_NONE;
}

static PyObject *py_table_size(PyObject *self, PyObject *unused) { return PyLong_FromLongLong(r7_table_size()); }

static PyMethodDef methods[] = {
    {"key", (PyCFunction)(void (*)(void))py_key, METH_FASTCALL,
     "key($module, rule, palette, /)\n--\n\nthe palette's key (R3)"},
    {"children", (PyCFunction)(void (*)(void))py_children, METH_FASTCALL,
     "children($module, hand, palette, other, rule, /)\n--\n\n[(hand, palette, rule)] where each legal plan leaves the player"},
    {"won", (PyCFunction)(void (*)(void))py_won, METH_FASTCALL,
     "won($module, hand, palette, other_hand, other_palette, rule, /)\n--\n\nis the turn start won for its player?"},
    {"clear_table", py_clear_table, METH_NOARGS, "clear_table($module, /)\n--\n\nempty the transposition table"},
    {"table_size", py_table_size, METH_NOARGS,
     "table_size($module, /)\n--\n\npositions in the transposition table"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_core", "red7's compiled hot paths (red7.native)", -1,
                                    methods};

int red7_add_engine(PyObject *module); /* engine_type.c */
int red7_add_vector(PyObject *module); /* vector.c */

/* The digest of the C sources this module was compiled from (setup.py defines it, from
 * src/red7/native/sources.py): red7.native refuses the module beside other sources. */
#ifndef R7_SOURCES
#error "R7_SOURCES is not defined: build the module with setup.py (pip install -e .)"
#endif

PyMODINIT_FUNC PyInit__core(void) {
    red7_init_tables();
    PyObject *m = PyModule_Create(&module);
    if (m && (red7_add_engine(m) < 0 || red7_add_vector(m) < 0 ||
              PyModule_AddStringConstant(m, "SOURCES", R7_SOURCES) < 0))
        Py_CLEAR(m);
    return m;
}
