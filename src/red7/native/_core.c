/* red7.native._core: the compiled hot paths of red7 (see red7/native/__init__.py).
 *
 * The pure-Python modules stay the reference: every function here has a Python twin
 * that tests/test_native.py compares it with.
 *
 * - key(rule, palette): a palette's key under a rule, as red7.core.rules.KEY (R3).
 * - children(hand, palette, other, rule): the legal turn plans of the exact solver's
 *   game, as red7.solver.exact._children (R4.2-R4.6).
 * - won(hand, palette, other_hand, other_palette, rule): the exact value of a turn
 *   start, as red7.solver.exact.won, with a transposition table of its own.
 * - Engine and random_games: the engine (engine.h, engine.c) seen from Python
 *   (engine_type.c), as red7.core.game.Game and red7.analysis.sim.
 *
 * rules.h holds the rules' keys, which every part uses; mt.h CPython's Mersenne Twister,
 * fast.h the fast streams. Cards are bits 0..48 of a mask, card index = (value - 1) * 7 +
 * (6 - colour), so a higher index is a higher card (red7.core.cards). Written in C11 against the
 * CPython API only, so the package's own build needs nothing but a C compiler. The
 * GIL is held throughout: the table is shared, and a call is short.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "exact.h"
#include "rules.h"

/* --- the plans of a turn ---------------------------------------------------------- */

typedef r7_plan_t plan_t;

#define MOST_CARDS R7_MOST_CARDS /* in a hand (7 in a game: the deal); won() refuses more */
#define MOST_PLANS R7_MOST_TURN_PLANS

/* Where the legal plans leave the player holding `hand` with `palette` against the
 * other palette `other` under `rule`: the plans spending one card (a play, then the
 * canvases), then those spending two, in red7.solver.exact._children's order. */
static int plans_of(mask_t hand, mask_t palette, mask_t other, int rule, plan_t *out) {
    int theirs[7] = {0};
    int colours = colours_present(hand) | 1 << rule;
    for (int r = 0; r < 7; r++)
        if (colours >> r & 1) theirs[r] = rule_key(r, other);
    plan_t doubles[MOST_PLANS];
    int n = 0, d = 0;
    for (int p = -1; p < 49; p++) {
        mask_t m, h;
        int two = p >= 0;
        if (two) {
            mask_t bit = (mask_t)1 << p;
            if (!(hand & bit)) continue;
            m = palette | bit, h = hand & ~bit;
            if (rule_key(rule, m) > theirs[rule]) out[n++] = (plan_t){h, m, rule};
        } else {
            m = palette, h = hand;
        }
        int left = colours_present(h);
        for (int colour = 0; colour < 7; colour++) {
            if (!(left >> colour & 1) || rule_key(colour, m) <= theirs[colour]) continue;
            for (mask_t cards = h & COLOUR_MASK[colour]; cards; cards &= cards - 1) {
                plan_t plan = {h & ~(cards & -cards), m, colour};
                if (two) doubles[d++] = plan;
                else out[n++] = plan;
            }
        }
    }
    memcpy(out + n, doubles, (size_t)d * sizeof(plan_t));
    return n + d;
}

/* --- the transposition table ------------------------------------------------------ */

typedef struct {
    mask_t tag; /* hand | rule << 49 | 1 << 63 (a used entry), 0 when empty */
    mask_t palette, other_hand, other_palette;
    uint8_t won;
} entry_t;

#define TABLE_BITS 20 /* 1 M entries, 40 MB: allocated at the first solve */
static entry_t *table = NULL;
static Py_ssize_t table_used = 0;

static inline size_t slot_of(mask_t tag, mask_t palette, mask_t other_hand, mask_t other_palette) {
    mask_t h = tag * 0x9E3779B97F4A7C15ULL ^ palette * 0xC2B2AE3D27D4EB4FULL ^ other_hand * 0x165667B19E3779F9ULL ^
               other_palette * 0x27D4EB2F165667C5ULL;
    h ^= h >> 29;
    return (size_t)(h & ((1u << TABLE_BITS) - 1));
}

static inline mask_t tag_of(mask_t hand, int rule) { return hand | (mask_t)rule << 49 | (mask_t)1 << 63; }

/* 1 won, 0 lost, -1 not in the table */
static inline int probe(mask_t hand, mask_t palette, mask_t other_hand, mask_t other_palette, int rule) {
    mask_t tag = tag_of(hand, rule);
    entry_t *e = &table[slot_of(tag, palette, other_hand, other_palette)];
    if (e->tag == tag && e->palette == palette && e->other_hand == other_hand && e->other_palette == other_palette)
        return e->won;
    return -1;
}

static inline void store(mask_t hand, mask_t palette, mask_t other_hand, mask_t other_palette, int rule, int won) {
    mask_t tag = tag_of(hand, rule);
    entry_t *e = &table[slot_of(tag, palette, other_hand, other_palette)];
    if (!e->tag) table_used++;
    /* a newer position replaces an older one: entries are exact, so any one may go */
    *e = (entry_t){tag, palette, other_hand, other_palette, (uint8_t)won};
}

/* --- the search --------------------------------------------------------------------- */

typedef struct {
    plan_t plan;
    plan_t *replies;
    int count;
} ranked_t;

/* the replies of every level of the search: each level spends a card of the two hands */
#define ARENA_PLANS (2 * MOST_CARDS * MOST_PLANS * MOST_PLANS)
static plan_t arena[ARENA_PLANS];
static int arena_top = 0;

/* Is the turn start won for the player with a non-empty `hand`? `children`: its plans
 * when the caller has them already (else NULL), as red7.solver.exact._won. */
static int won_at(mask_t hand, mask_t palette, mask_t other_hand, mask_t other_palette, int rule, const plan_t *children,
                  int count) {
    int value = probe(hand, palette, other_hand, other_palette, rule);
    if (value >= 0) return value;
    plan_t own[MOST_PLANS];
    if (!children) {
        count = plans_of(hand, palette, other_palette, rule, own);
        children = own;
    }
    value = 0;
    if (count && !other_hand) {
        value = 1; /* the other player will start a turn with no card (R4.1) */
    } else if (count) {
        /* A child known lost for the other player wins at once; otherwise the children
         * with the fewest replies go first (see red7.solver.exact._won). */
        ranked_t ranked[MOST_PLANS];
        int saved = arena_top;
        for (int i = 0; i < count && !value; i++) {
            const plan_t *c = &children[i];
            if (probe(other_hand, other_palette, c->hand, c->palette, c->rule) == 0) {
                value = 1;
                break;
            }
            plan_t *replies = arena + arena_top;
            int n = plans_of(other_hand, other_palette, c->palette, c->rule, replies);
            arena_top += n;
            ranked[i] = (ranked_t){*c, replies, n};
        }
        if (!value) {
            for (int i = 1; i < count; i++) { /* insertion sort, stable as Python's */
                ranked_t r = ranked[i];
                int j = i - 1;
                while (j >= 0 && ranked[j].count > r.count) ranked[j + 1] = ranked[j], j--;
                ranked[j + 1] = r;
            }
            for (int i = 0; i < count; i++) {
                const ranked_t *r = &ranked[i];
                if (!r->count || !won_at(other_hand, other_palette, r->plan.hand, r->plan.palette, r->plan.rule,
                                         r->replies, r->count)) {
                    value = 1;
                    break;
                }
            }
        }
        arena_top = saved;
    }
    store(hand, palette, other_hand, other_palette, rule, value);
    return value;
}

static int make_table(void) {
    if (!table) table = calloc((size_t)1 << TABLE_BITS, sizeof(entry_t));
    return table != NULL;
}

int r7_won(mask_t hand, mask_t palette, mask_t other_hand, mask_t other_palette, int rule) {
    if (!hand) return 0; /* R4.1 */
    if (!make_table()) return -1;
    arena_top = 0;
    return won_at(hand, palette, other_hand, other_palette, rule, NULL, 0);
}

/* --- Python ------------------------------------------------------------------------ */

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
    if (popcount(hand) > MOST_CARDS) return PyErr_Format(PyExc_ValueError, "a hand holds more than %d cards", MOST_CARDS);
    plan_t plans[MOST_PLANS];
    int n = plans_of(hand, palette, other, rule, plans);
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
    if (popcount(hand) > MOST_CARDS || popcount(other_hand) > MOST_CARDS)
        return PyErr_Format(PyExc_ValueError, "a hand holds more than %d cards", MOST_CARDS);
    int won = r7_won(hand, palette, other_hand, other_palette, rule);
    return won < 0 ? PyErr_NoMemory() : PyBool_FromLong(won);
}

static PyObject *py_clear_table(PyObject *self, PyObject *unused) {
    if (table) memset(table, 0, ((size_t)1 << TABLE_BITS) * sizeof(entry_t));
    table_used = 0;
    Py_RETURN_NONE;
}

static PyObject *py_table_size(PyObject *self, PyObject *unused) { return PyLong_FromSsize_t(table_used); }

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

PyMODINIT_FUNC PyInit__core(void) {
    red7_init_tables();
    PyObject *m = PyModule_Create(&module);
    if (m && (red7_add_engine(m) < 0 || red7_add_vector(m) < 0)) Py_CLEAR(m);
    return m;
}
