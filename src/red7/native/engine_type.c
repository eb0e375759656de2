/* The compiled engine seen from Python: red7.native._core.Engine and random_games
 * (see engine.h for the engine itself, red7.core.compiled for the Python side). */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

#include "args.h"
#include "engine.h"
#include "exact.h"
#include "fast.h"
#include "greedy.h"
#include "inference.h"
#include "pimc.h"
#include "search.h"

#define MOST_KEY_WORDS 32 /* a round's key: 2 words for an int seed, 20 for a string seed */

typedef struct {
    PyObject_HEAD r7_game g;
    PyObject *round_key; /* round number -> how that round is shuffled (red7.core.seeds.deal_key) */
} EngineObject;

static PyTypeObject EngineType;

/* the words of a key, from a sequence of ints below 2**32 */
static int read_key(PyObject *words, uint32_t *key, int *length) {
    PyObject *seq = PySequence_Fast(words, "a round key is an int or a sequence of 32-bit words");
    if (!seq) return 0;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n < 1 || n > MOST_KEY_WORDS) {
        Py_DECREF(seq);
        PyErr_Format(PyExc_ValueError, "a round key holds 1 to %d words, not %zd", MOST_KEY_WORDS, n);
        return 0;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        unsigned long long w;
        if (!r7_u64(PySequence_Fast_GET_ITEM(seq, i), &w) || w >> 32) {
            Py_DECREF(seq);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a round key's words are from 0 to 2**32 - 1");
            return 0;
        }
        key[i] = (uint32_t)w;
    }
    *length = (int)n;
    Py_DECREF(seq);
    return 1;
}

/* deal the round g waits for with `key` (red7.core.seeds.deal_key): an int is the seed of
 * the round's SplitMix64 stream, a sequence the words of a Mersenne Twister's key */
static int deal_with(r7_game *g, PyObject *key) {
    if (PyLong_Check(key)) {
        unsigned long long seed;
        if (!r7_u64(key, &seed)) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a round's seed is from 0 to 2**64 - 1");
            return 0;
        }
        r7_deal_splitmix64(g, seed);
        return 1;
    }
    uint32_t words[MOST_KEY_WORDS];
    int length;
    if (!read_key(key, words, &length)) return 0;
    r7_deal(g, words, length);
    return 1;
}

/* deal the round the engine waits for, with the key round_key gives for it (a Python
 * callable: it may call the engine back, and then the engine deals nothing) */
static int deal_next(r7_game *g, PyObject *round_key) {
    PyObject *key = PyObject_CallFunction(round_key, "i", g->round + 1);
    if (!key) return 0;
    if (g->step != R7_DEALING) {
        Py_DECREF(key);
        PyErr_SetString(PyExc_RuntimeError, "round_key changed the engine that waited for its key: nothing was dealt");
        return 0;
    }
    int ok = deal_with(g, key);
    Py_DECREF(key);
    return ok;
}

static int read_players(int players) {
    if (players < R7_MIN_PLAYERS || players > R7_MAX_PLAYERS) {
        PyErr_Format(PyExc_ValueError, "a game has %d to %d players, not %d", R7_MIN_PLAYERS, R7_MAX_PLAYERS, players);
        return 0;
    }
    return 1;
}

static PyObject *engine_new(PyTypeObject *type, PyObject *args, PyObject *kwds) {
    static char *names[] = {"players", "advanced", "actions", "round_key", NULL};
    int players, advanced, actions;
    PyObject *round_key;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "ippO:Engine", names, &players, &advanced, &actions, &round_key))
        return r7_refuse_overflow();
    if (!read_players(players)) return NULL;
    if (!PyCallable_Check(round_key)) return PyErr_Format(PyExc_TypeError, "round_key must be callable");
    EngineObject *self = (EngineObject *)type->tp_alloc(type, 0);
    if (!self) return NULL;
    r7_init(&self->g, players, advanced, actions);
    Py_INCREF(round_key);
    self->round_key = round_key;
    if (!deal_next(&self->g, round_key)) {
        Py_DECREF(self);
        return NULL;
    }
    return (PyObject *)self;
}

static void engine_dealloc(EngineObject *self) {
    Py_XDECREF(self->round_key);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* --- the position as a tuple ------------------------------------------------------------
 *
 * Its fields, their order and how each is held are defs.h's R7_POSITION (generated from
 * red7.core.native_defs.POSITION): X(ID, name, KIND, member). Engine.fields() writes each
 * field with OUT_<KIND>, Engine.load reads it back with IN_<KIND>, so both follow the one
 * list. */

static PyObject *masks_tuple(const mask_t *m, int n) {
    PyObject *t = PyTuple_New(n);
    for (int i = 0; t && i < n; i++) PyTuple_SET_ITEM(t, i, PyLong_FromUnsignedLongLong(m[i]));
    return t;
}

static PyObject *cards_tuple(const uint8_t *cards, int n) {
    PyObject *t = PyTuple_New(n);
    for (int i = 0; t && i < n; i++) PyTuple_SET_ITEM(t, i, PyLong_FromLong(cards[i]));
    return t;
}

static PyObject *ints_tuple(const int16_t *v, int n) {
    PyObject *t = PyTuple_New(n);
    for (int i = 0; t && i < n; i++) PyTuple_SET_ITEM(t, i, PyLong_FromLong(v[i]));
    return t;
}

static PyObject *bits_tuple(unsigned bits, int n) {
    PyObject *t = PyTuple_New(n);
    for (int i = 0; t && i < n; i++) PyTuple_SET_ITEM(t, i, PyBool_FromLong(bits >> i & 1));
    return t;
}

/* each kind of field as Python holds it, from member `m` of the game `g` */
#define OUT_SEAT_MASKS(g, m) masks_tuple((g)->m, (g)->players)
#define OUT_CARDS(g, m) cards_tuple((g)->m, (g)->m##_size)
#define OUT_MASK(g, m) PyLong_FromUnsignedLongLong((g)->m)
#define OUT_SEAT_INT16(g, m) ints_tuple((g)->m, (g)->players)
#define OUT_SEAT_BITS(g, m) bits_tuple((g)->m, (g)->players)
#define OUT_INT8(g, m) PyLong_FromLong((g)->m)
#define OUT_INT16(g, m) PyLong_FromLong((g)->m)
#define OUT_INT32(g, m) PyLong_FromLong((g)->m)
#define OUT_CARD_OR_NONE(g, m) ((g)->m >= 0 ? PyLong_FromLong((g)->m) : Py_NewRef(Py_None))

static PyObject *engine_fields(EngineObject *self, PyObject *unused) {
    const r7_game *g = &self->g;
    PyObject *fields = PyTuple_New(R7_FIELD_COUNT), *v;
    if (!fields) return NULL;
#define X(ID, NAME, KIND, MEMBER)                                                                                      \
    if (!(v = OUT_##KIND(g, MEMBER))) goto fail;                                                                       \
    PyTuple_SET_ITEM(fields, R7_FIELD_##ID, v);
    R7_POSITION(X)
#undef X
    return fields;
fail:
    Py_DECREF(fields);
    return NULL;
}

/* A mask of the 49 cards from `v`, else 0 with an error: `what` when it is an int of
 * other cards, negative or too large. */
static int read_mask(PyObject *v, mask_t *out, const char *what) {
    unsigned long long m;
    if (!r7_u64(v, &m) || m & ~ALL_CARDS) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, what);
        return 0;
    }
    *out = m;
    return 1;
}

/* An int from `v` within [low, high] (what its C field holds: what the values mean is
 * r7_check's), else 0 with an error naming `what`. */
static int read_long(PyObject *v, long low, long high, long *out, const char *what) {
    long x = r7_long(v);
    if (x == -1 && PyErr_Occurred()) return 0;
    if (x < low || x > high) {
        PyErr_Format(PyExc_ValueError, "%s: %R is out of range", what, v);
        return 0;
    }
    *out = x;
    return 1;
}

/* One mask of the 49 cards per seat (n) from the sequence `seq`. */
static int read_masks(PyObject *seq, mask_t *out, int n, const char *what) {
    char says[96];
    snprintf(says, sizeof says, "%s: one mask of the 49 cards per seat (%d seats)", what, n);
    PyObject *fast = PySequence_Fast(seq, says);
    if (!fast) return 0;
    int ok = PySequence_Fast_GET_SIZE(fast) == n;
    for (int i = 0; ok && i < n; i++) ok = read_mask(PySequence_Fast_GET_ITEM(fast, i), &out[i], says);
    Py_DECREF(fast);
    if (!ok && !PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, says);
    return ok;
}

/* One int per seat (n), each within [low, high], from the sequence `seq`. */
static int read_longs(PyObject *seq, long low, long high, long *out, int n, const char *what) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast) return 0;
    int ok = PySequence_Fast_GET_SIZE(fast) == n;
    for (int i = 0; ok && i < n; i++) {
        long x = r7_long(PySequence_Fast_GET_ITEM(fast, i));
        ok = !(x == -1 && PyErr_Occurred()) && x >= low && x <= high;
        out[i] = x;
    }
    Py_DECREF(fast);
    if (!ok && !PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, what);
    return ok;
}

/* Card indices (at most 49, each 0..48) from the sequence `seq` into out, their count into *size. */
static int read_cards(PyObject *seq, uint8_t *out, int8_t *size, const char *what) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast) return 0;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    int ok = n <= R7_CARDS;
    for (Py_ssize_t i = 0; ok && i < n; i++) {
        long c = r7_long(PySequence_Fast_GET_ITEM(fast, i));
        ok = !(c == -1 && PyErr_Occurred()) && c >= 0 && c < R7_CARDS;
        out[i] = (uint8_t)c;
    }
    *size = (int8_t)(ok ? n : 0);
    Py_DECREF(fast);
    if (!ok && !PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, what);
    return ok;
}

/* An int per seat (n) into int16 members. */
static int read_seat_int16(PyObject *seq, int16_t *out, int n, const char *what) {
    long v[R7_MAX_PLAYERS];
    if (!read_longs(seq, INT16_MIN, INT16_MAX, v, n, what)) return 0;
    for (int s = 0; s < n; s++) out[s] = (int16_t)v[s];
    return 1;
}

/* A bool per seat (n) into a bit per seat. */
static int read_seat_bits(PyObject *seq, uint8_t *out, int n, const char *what) {
    long v[R7_MAX_PLAYERS];
    if (!read_longs(seq, 0, 1, v, n, what)) return 0;
    *out = 0;
    for (int s = 0; s < n; s++) *out |= (uint8_t)(v[s] << s);
    return 1;
}

/* An int within the range of a C type, into a member of that type: read_int8, read_int16
 * and read_int32. */
#define READ_INT(NAME, TYPE, LOW, HIGH)                                                                                \
    static int NAME(PyObject *x, TYPE *out, const char *what) {                                                        \
        long v;                                                                                                        \
        if (!read_long(x, LOW, HIGH, &v, what)) return 0;                                                              \
        *out = (TYPE)v;                                                                                                \
        return 1;                                                                                                      \
    }
READ_INT(read_int8, int8_t, INT8_MIN, INT8_MAX)
READ_INT(read_int16, int16_t, INT16_MIN, INT16_MAX)
READ_INT(read_int32, int32_t, INT32_MIN, INT32_MAX)
#undef READ_INT

/* A card index or None (-1). */
static int read_card_or_none(PyObject *x, int8_t *out, const char *what) {
    if (x != Py_None) return read_int8(x, out, what);
    *out = -1;
    return 1;
}

/* each kind of field into member `m` of the game `g` from the Python value `x`, else 0
 * with an error that names the field (`name`, a string literal) */
#define IN_SEAT_MASKS(x, g, m, name) read_masks(x, (g)->m, (g)->players, name)
#define IN_CARDS(x, g, m, name) read_cards(x, (g)->m, &(g)->m##_size, name ": at most 49 cards, each from 0 to 48")
#define IN_MASK(x, g, m, name) read_mask(x, &(g)->m, name ": a mask of the 49 cards")
#define IN_SEAT_INT16(x, g, m, name) read_seat_int16(x, (g)->m, (g)->players, name ": a small integer per seat")
#define IN_SEAT_BITS(x, g, m, name) read_seat_bits(x, &(g)->m, (g)->players, name ": True or False per seat")
#define IN_INT8(x, g, m, name) read_int8(x, &(g)->m, name)
#define IN_INT16(x, g, m, name) read_int16(x, &(g)->m, name)
#define IN_INT32(x, g, m, name) read_int32(x, &(g)->m, name)
#define IN_CARD_OR_NONE(x, g, m, name) read_card_or_none(x, &(g)->m, name)

/* The position `fields` (a tuple of R7_FIELD_COUNT) into g, r7_init'ed with its
 * configuration: each field of the type and size its C field holds, else 0 with an error.
 * Whether the position holds together is r7_check's to say. */
static int read_position(PyObject *fields, r7_game *g) {
#define X(ID, NAME, KIND, MEMBER)                                                                                      \
    if (!IN_##KIND(PyTuple_GET_ITEM(fields, R7_FIELD_##ID), g, MEMBER, NAME)) return 0;
    R7_POSITION(X)
#undef X
    return 1;
}

/* Engine.load(players, advanced, actions, round_key, fields): an engine at the position
 * `fields` (the order of Engine.fields()) where a player decides, its turn solver fresh
 * and no round results yet. The position is read field by field, then checked whole by
 * r7_check (engine.h): a ValueError says what does not hold together. */
static PyObject *engine_load(PyObject *cls, PyObject *args) {
    int players, advanced, actions;
    PyObject *round_key, *fields;
    if (!PyArg_ParseTuple(args, "ippOO!:load", &players, &advanced, &actions, &round_key, &PyTuple_Type, &fields))
        return r7_refuse_overflow();
    if (!read_players(players)) return NULL;
    if (!PyCallable_Check(round_key)) return PyErr_Format(PyExc_TypeError, "round_key must be callable");
    if (PyTuple_GET_SIZE(fields) != R7_FIELD_COUNT)
        return PyErr_Format(PyExc_ValueError, "a position has %d fields (red7.core.compiled.FIELDS), not %zd",
                            R7_FIELD_COUNT, PyTuple_GET_SIZE(fields));
    r7_game g;
    char why[R7_WHY_ROOM];
    r7_init(&g, players, advanced, actions);
    if (!read_position(fields, &g)) return NULL;
    if (r7_check(&g, why)) return PyErr_Format(PyExc_ValueError, "%s", why);
    EngineObject *self = (EngineObject *)EngineType.tp_alloc(&EngineType, 0);
    if (!self) return NULL;
    self->g = g;
    Py_INCREF(round_key);
    self->round_key = round_key;
    return (PyObject *)self;
}

/* --- decisions -------------------------------------------------------------------------- */

static PyObject *engine_legal(EngineObject *self, PyObject *unused) {
    r7_legal(&self->g);
    PyObject *list = PyList_New(self->g.legal_count);
    for (int i = 0; list && i < self->g.legal_count; i++) PyList_SET_ITEM(list, i, PyLong_FromLong(self->g.legal[i]));
    return list;
}

static PyObject *engine_safe(EngineObject *self, PyObject *unused) {
    r7_legal(&self->g);
    PyObject *list = PyList_New(0);
    for (int i = 0; list && i < self->g.legal_count; i++) {
        if (!self->g.safe[i]) continue;
        PyObject *id = PyLong_FromLong(self->g.legal[i]);
        if (!id || PyList_Append(list, id) < 0) Py_CLEAR(list);
        Py_XDECREF(id);
    }
    return list;
}

static PyObject *engine_options(EngineObject *self, PyObject *unused) {
    r7_legal(&self->g);
    PyObject *list = PyList_New(self->g.legal_count);
    for (int i = 0; list && i < self->g.legal_count; i++)
        PyList_SET_ITEM(list, i, Py_BuildValue("(iN)", self->g.legal[i], PyBool_FromLong(self->g.safe[i])));
    return list;
}


static PyObject *engine_apply(EngineObject *self, PyObject *arg) {
    long id = r7_long(arg);
    if (id == -1 && PyErr_Occurred()) return NULL;
    if (id < 0 || id >= R7_ACTIONS || !r7_is_legal(&self->g, (int)id)) {
        if (self->g.step >= R7_OVER) return PyErr_Format(PyExc_ValueError, "decision %R: the game is over", arg);
        return PyErr_Format(PyExc_ValueError, "decision %R is not legal now (see legal())", arg);
    }
    r7_apply(&self->g, (int)id);
    if (self->g.step == R7_DEALING && !deal_next(&self->g, self->round_key)) return NULL;
    Py_RETURN_NONE;
}

/* playout(seed, round_only=False): random players to the end of the game (or of the
 * round); returns the decisions played */
static PyObject *engine_playout(EngineObject *self, PyObject *args, PyObject *kwds) {
    static char *names[] = {"seed", "round_only", NULL};
    unsigned long long seed;
    int round_only = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "K|p:playout", names, &seed, &round_only))
        return r7_refuse_overflow();
    mt_t rng;
    mt_seed_u64(&rng, seed);
    r7_game *g = &self->g;
    int32_t before = g->decisions;
    while (g->step != R7_OVER) {
        if (g->step == R7_DEALING) {
            if (round_only) break;
            if (!deal_next(g, self->round_key)) return NULL;
            continue;
        }
        r7_apply(g, r7_random_decision(g, mt_random(&rng)));
    }
    return PyLong_FromLong(g->decisions - before);
}

static PyObject *engine_clone(EngineObject *self, PyObject *unused) {
    EngineObject *copy = (EngineObject *)EngineType.tp_alloc(&EngineType, 0);
    if (!copy) return NULL;
    copy->g = self->g;
    Py_INCREF(self->round_key);
    copy->round_key = self->round_key;
    return (PyObject *)copy;
}

static int deciding(const r7_game *g) {
    if (g->step >= R7_OVER) {
        PyErr_SetString(PyExc_ValueError, "nobody decides in this position");
        return 0;
    }
    return 1;
}

static int read_ints(PyObject *arg, int low, int high, int16_t *out, int room, const char *what);

/* greedy(seed, worlds=8, sampled=False, among=None, gamble=False): greedy's decision for
 * the mover (greedy.h), its worlds sampled by a Mersenne Twister of `seed` (the first is
 * this game if `sampled`), among the legal decisions `among` if given */
static PyObject *engine_greedy(EngineObject *self, PyObject *args, PyObject *kwds) {
    static char *names[] = {"seed", "worlds", "sampled", "among", "gamble", NULL};
    unsigned long long seed;
    int worlds = 8, sampled = 0, gamble = 0;
    PyObject *among = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "K|ipOp:greedy", names, &seed, &worlds, &sampled, &among, &gamble))
        return r7_refuse_overflow();
    if (worlds < 1 || worlds > R7_GREEDY_MAX_WORLDS)
        return PyErr_Format(PyExc_ValueError, "greedy searches 1 to %d worlds, not %d", R7_GREEDY_MAX_WORLDS, worlds);
    if (!deciding(&self->g)) return NULL;
    mt_t rng;
    mt_seed_u64(&rng, seed);
    int choice;
    if (among == Py_None) {
        choice = r7_greedy(&self->g, worlds, &rng, sampled);
    } else {
        int16_t choices[R7_MAX_LEGAL];
        int n = read_ints(among, 0, R7_ACTIONS - 1, choices, R7_MAX_LEGAL, "among holds decision ids");
        if (n < 0) return NULL;
        for (int i = 0; i < n; i++)
            if (!r7_is_legal(&self->g, choices[i]) || (i && choices[i] <= choices[i - 1]))
                return PyErr_Format(PyExc_ValueError, "among lists legal decisions in increasing order");
        if (!n) return PyErr_Format(PyExc_ValueError, "among lists at least one decision");
        choice = r7_greedy_among(&self->g, worlds, &rng, sampled, choices, n, gamble);
    }
    return choice < 0 ? PyErr_NoMemory() : PyLong_FromLong(choice);
}

/* Does the compiled solver answer the mover's turn in `g` (two players left, no action
 * card, nothing to draw, hands of at most R7_MOST_CARDS cards: its arrays' room)? Else 0
 * with an error set. */
static int solver_answers(const r7_game *g) {
    if (!deciding(g)) return 0;
    if (popcount(g->alive) != 2 || g->actions || (g->advanced && g->deck_size) || (g->step != R7_START && g->step != R7_AFTER)) {
        PyErr_SetString(PyExc_ValueError, "the compiled solver answers turns of two players without chance");
        return 0;
    }
    for (int seat = 0; seat < g->players; seat++)
        if (g->alive >> seat & 1 && popcount(g->hands[seat]) > R7_MOST_CARDS) {
            PyErr_Format(PyExc_ValueError, "the compiled solver answers hands of at most %d cards, not %d", R7_MOST_CARDS,
                         popcount(g->hands[seat]));
            return 0;
        }
    return 1;
}

/* a plan of pimc.h (R7_PLAN_STEPS ids, -1 after its last) as a tuple of its decisions */
static PyObject *plan_tuple(const int16_t *plan) {
    int steps = 0;
    while (steps < R7_PLAN_STEPS && plan[steps] >= 0) steps++;
    PyObject *tuple = PyTuple_New(steps);
    for (int k = 0; tuple && k < steps; k++) PyTuple_SET_ITEM(tuple, k, PyLong_FromLong(plan[k]));
    return tuple;
}

/* turn_values(): [(decision, still won after it)] for the mover (pimc.h) */
static PyObject *engine_turn_values(EngineObject *self, PyObject *unused) {
    r7_game *g = &self->g;
    if (!solver_answers(g)) return NULL;
    int16_t ids[R7_MAX_LEGAL];
    uint8_t won[R7_MAX_LEGAL];
    int n = r7_turn_values(g, ids, won);
    if (n < 0) return PyErr_NoMemory();
    PyObject *list = PyList_New(n);
    for (int i = 0; list && i < n; i++) {
        PyObject *pair = Py_BuildValue("(iO)", ids[i], won[i] ? Py_True : Py_False);
        if (!pair) Py_CLEAR(list);
        else PyList_SET_ITEM(list, i, pair);
    }
    return list;
}

/* plan_values(): [(plan, keeps the round won)] for the mover, every plan to the end of
 * its turn (pimc.h) */
static PyObject *engine_plan_values(EngineObject *self, PyObject *unused) {
    r7_game *g = &self->g;
    if (!solver_answers(g)) return NULL;
    int16_t *plans = PyMem_Malloc(R7_MOST_PLANS * R7_PLAN_STEPS * sizeof(int16_t));
    uint8_t *won = PyMem_Malloc(R7_MOST_PLANS);
    int n = plans && won ? r7_plan_values(g, plans, won) : -1;
    PyObject *list = n < 0 ? PyErr_NoMemory() : PyList_New(n);
    for (int i = 0; list && i < n; i++) {
        PyObject *plan = plan_tuple(plans + i * R7_PLAN_STEPS);
        PyObject *pair = plan ? Py_BuildValue("(NO)", plan, won[i] ? Py_True : Py_False) : NULL;
        if (!pair) Py_CLEAR(list);
        else PyList_SET_ITEM(list, i, pair);
    }
    PyMem_Free(plans), PyMem_Free(won);
    return list;
}

/* a sequence of small ints into out[room]; the count, or -1 with an error set */
static int read_ints(PyObject *arg, int low, int high, int16_t *out, int room, const char *what) {
    PyObject *seq = PySequence_Fast(arg, what);
    if (!seq) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    int ok = n <= room;
    for (Py_ssize_t i = 0; ok && i < n; i++) {
        long v = r7_long(PySequence_Fast_GET_ITEM(seq, i));
        ok = v >= low && v <= high;
        out[i] = (int16_t)v;
    }
    Py_DECREF(seq);
    if (!ok) {
        if (!PyErr_Occurred()) PyErr_Format(PyExc_ValueError, "%s: at most %d numbers from %d to %d", what, room, low, high);
        return -1;
    }
    return (int)n;
}

#define MOST_HISTORY 4096

/* a sequence of pairs or triples of small ints, each into its own array; the count, or
 * -1 with an error set */
static int read_tuples(PyObject *arg, int width, const int low[3], const long high[3], long *out[3], int room,
                       const char *what) {
    PyObject *seq = PySequence_Fast(arg, what);
    if (!seq) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    int ok = n <= room;
    for (Py_ssize_t i = 0; ok && i < n; i++) {
        PyObject *item = PySequence_Fast(PySequence_Fast_GET_ITEM(seq, i), what);
        ok = item && PySequence_Fast_GET_SIZE(item) == width;
        for (int k = 0; ok && k < width; k++) {
            long v = r7_long(PySequence_Fast_GET_ITEM(item, k));
            ok = v >= low[k] && v <= high[k];
            out[k][i] = v;
        }
        Py_XDECREF(item);
    }
    Py_DECREF(seq);
    if (!ok) {
        if (!PyErr_Occurred()) PyErr_Format(PyExc_ValueError, "%s: at most %d tuples of %d numbers in range", what, room, width);
        return -1;
    }
    return (int)n;
}

/* replayed(viewer, dealt, draws, required, pool, history, most, worlds, tries, seed[, judgements]):
 * ([(world, mismatches)], tries made, broken deals) (inference.h; `judgements`, the most
 * decisions greedy judges before no deal starts, 0 for no bound), this engine being the
 * round's first position with its hands and deck empty. The cards of `required` and
 * `pool` go into those hands and that deck: each of them once, none placed already (each
 * deal is checked again by r7_check, engine.h, and a deal that fails it is broken). */
static PyObject *engine_replayed(EngineObject *self, PyObject *args) {
    int viewer, most, worlds;
    long tries, judgements = 0;
    unsigned long long seed;
    PyObject *dealt_arg, *draws_arg, *required_arg, *pool_arg, *history_arg;
    if (!PyArg_ParseTuple(args, "iOOOOOiilK|l:replayed", &viewer, &dealt_arg, &draws_arg, &required_arg, &pool_arg,
                          &history_arg, &most, &worlds, &tries, &seed, &judgements))
        return r7_refuse_overflow();
    int n = self->g.players;
    if (viewer < 0 || viewer >= n) return PyErr_Format(PyExc_ValueError, "no seat %d", viewer);
    if (worlds < 1 || worlds > 4096 || tries < 1 || most < 0 || judgements < 0)
        return PyErr_Format(PyExc_ValueError,
                            "give 1 to 4096 worlds, some tries, a mismatch bound of 0 or more and a judgement bound of 0 or more");
    int16_t dealt16[R7_MAX_PLAYERS], pool16[R7_CARDS], *history = PyMem_Malloc(MOST_HISTORY * sizeof(int16_t));
    long at[R7_CARDS], seat[R7_CARDS], rseat[R7_CARDS], rcard[R7_CARDS], rdeadline[R7_CARDS], unused[R7_CARDS];
    r7_game *out = PyMem_Malloc((size_t)worlds * sizeof(r7_game));
    int *mismatches = PyMem_Malloc((size_t)worlds * sizeof(int));
    if (!history || !out || !mismatches) {
        PyMem_Free(history), PyMem_Free(out), PyMem_Free(mismatches);
        return PyErr_NoMemory();
    }
    const int low[3] = {0, 0, 0};
    const long draw_high[3] = {MOST_HISTORY, n - 1, 0}, required_high[3] = {n - 1, R7_CARDS - 1, R7_NO_DEADLINE};
    long *draw_out[3] = {at, seat, unused}, *required_out[3] = {rseat, rcard, rdeadline};
    int seats = read_ints(dealt_arg, 0, R7_CARDS, dealt16, R7_MAX_PLAYERS, "dealt holds a hand size per seat");
    int draws = seats < 0 ? -1 : read_tuples(draws_arg, 2, low, draw_high, draw_out, R7_CARDS, "draws holds (index, seat)");
    int required = draws < 0 ? -1 : read_tuples(required_arg, 3, low, required_high, required_out, R7_CARDS,
                                                "required holds (seat, card, deadline)");
    int pool_size = required < 0 ? -1 : read_ints(pool_arg, 0, R7_CARDS - 1, pool16, R7_CARDS, "pool holds cards");
    int count = pool_size < 0 ? -1 : read_ints(history_arg, 0, R7_ACTIONS - 1, history, MOST_HISTORY, "history holds decision ids");
    if (count >= 0 && seats != n) {
        PyErr_Format(PyExc_ValueError, "dealt gives a hand size to each of the %d seats", n);
        count = -1;
    }
    r7_game start = self->g; /* the replay's own copy, taken after the sequences ran whatever Python they hold */
    mask_t placed = start.out, dealing = 0, filled = (mask_t)start.deck_size;
    for (int s = 0; s < n; s++) placed |= start.palettes[s] | start.piles[s], filled |= start.hands[s] | start.known[s];
    for (int i = 0; i < start.canvas_size; i++) placed |= (mask_t)1 << start.canvas[i];
    int twice = 0;
    for (int r = 0; count >= 0 && r < required; r++) twice |= !!(((placed | dealing) >> rcard[r]) & 1), dealing |= (mask_t)1 << rcard[r];
    for (int i = 0; count >= 0 && i < pool_size; i++) twice |= !!(((placed | dealing) >> pool16[i]) & 1), dealing |= (mask_t)1 << pool16[i];
    if (count >= 0 && filled) {
        PyErr_SetString(PyExc_ValueError, "replayed deals into a round's first position: this engine's hands and deck must be empty");
        count = -1;
    } else if (count >= 0 && twice) {
        PyErr_SetString(PyExc_ValueError, "required and pool hold each card once, and none that this engine places already");
        count = -1;
    }
    PyObject *result = NULL;
    if (count >= 0) {
        int8_t dealt[R7_MAX_PLAYERS], draw_seat[R7_CARDS];
        int32_t draw_at[R7_CARDS];
        uint8_t pool[R7_CARDS];
        r7_required needed[R7_CARDS];
        for (int s = 0; s < n; s++) dealt[s] = (int8_t)dealt16[s];
        for (int d = 0; d < draws; d++) draw_at[d] = (int32_t)at[d], draw_seat[d] = (int8_t)seat[d];
        for (int r = 0; r < required; r++) needed[r] = (r7_required){(int8_t)rseat[r], (uint8_t)rcard[r], (int32_t)rdeadline[r]};
        for (int i = 0; i < pool_size; i++) pool[i] = (uint8_t)pool16[i];
        r7_past past = {&start, viewer, dealt, draw_at, draw_seat, draws, needed, required, pool, pool_size, history, count};
        mt_t rng;
        mt_seed_u64(&rng, seed);
        long tried = 0, broken = 0, judged = 0;
        int kept;
        Py_BEGIN_ALLOW_THREADS kept =
            r7_replayed(&past, most, worlds, tries, judgements, &rng, out, mismatches, &tried, &broken, &judged);
        Py_END_ALLOW_THREADS PyObject *list = PyList_New(kept);
        for (int i = 0; list && i < kept; i++) {
            EngineObject *world = (EngineObject *)engine_clone(self, NULL);
            PyObject *pair = world ? Py_BuildValue("(Ni)", (PyObject *)world, mismatches[i]) : NULL;
            if (!pair) {
                Py_CLEAR(list);
                break;
            }
            world->g = out[i];
            PyList_SET_ITEM(list, i, pair);
        }
        result = list ? Py_BuildValue("(Nll)", list, tried, broken) : NULL;
    }
    PyMem_Free(history), PyMem_Free(out), PyMem_Free(mismatches);
    return result;
}

/* redeal(viewer, seed): a copy dealt again by r7_redeal (engine.h) from a Mersenne Twister
 * of `seed`: a world of red7.core.worlds, sampled from another */
static PyObject *engine_redeal(EngineObject *self, PyObject *args) {
    int viewer;
    unsigned long long seed;
    if (!PyArg_ParseTuple(args, "iK:redeal", &viewer, &seed)) return r7_refuse_overflow();
    if (viewer < 0 || viewer >= self->g.players) return PyErr_Format(PyExc_ValueError, "no seat %d", viewer);
    EngineObject *copy = (EngineObject *)engine_clone(self, NULL);
    if (!copy) return NULL;
    mt_t rng;
    mt_seed_u64(&rng, seed);
    r7_redeal(&copy->g, viewer, &rng);
    return (PyObject *)copy;
}

/* ismcts(viewer, seed, iterations, steps, seconds, c, extra, pool=None): the search of
 * search.h from this position (or from the worlds of `pool`); returns
 * (iterations made, [(decision, visits, total value)] of the root). The search plays the
 * `extra` decisions at the root of every world: each must be legal in this position and
 * in every world of the pool. */
static PyObject *engine_ismcts(EngineObject *self, PyObject *args) {
    int viewer;
    unsigned long long seed;
    long iterations, steps;
    double seconds, c;
    PyObject *extra_seq, *pool_seq = NULL;
    if (!PyArg_ParseTuple(args, "iKllddO|O:ismcts", &viewer, &seed, &iterations, &steps, &seconds, &c, &extra_seq,
                          &pool_seq))
        return r7_refuse_overflow();
    if (iterations < 0 || steps < 0 || !(seconds >= 0) || !(c > 0) || (!iterations && !steps && !seconds))
        return PyErr_Format(PyExc_ValueError, "give a positive budget and a positive c");
    int16_t extra[R7_ACTIONS];
    int n = read_ints(extra_seq, 0, R7_ACTIONS - 1, extra, R7_ACTIONS, "extra holds decision ids");
    if (n < 0) return NULL;
    r7_game *pool = NULL;
    int pool_size = 0;
    if (pool_seq && pool_seq != Py_None) {
        PyObject *worlds = PySequence_Fast(pool_seq, "pool is a sequence of engines");
        if (!worlds) return NULL;
        pool_size = (int)PySequence_Fast_GET_SIZE(worlds);
        pool = PyMem_Malloc((size_t)(pool_size ? pool_size : 1) * sizeof(r7_game));
        for (int i = 0; pool && i < pool_size; i++) {
            PyObject *item = PySequence_Fast_GET_ITEM(worlds, i);
            if (!Py_IS_TYPE(item, &EngineType)) {
                Py_DECREF(worlds);
                PyMem_Free(pool);
                return PyErr_Format(PyExc_ValueError, "the pool holds engines at this decision point");
            }
            pool[i] = ((EngineObject *)item)->g;
        }
        Py_DECREF(worlds);
        if (!pool) return PyErr_NoMemory();
    }
    /* the search's own copy, checked after the sequences above ran whatever Python they hold */
    r7_game template = self->g;
    const char *wrong = NULL;
    if (viewer != template.current || template.step >= R7_OVER) wrong = "the search is for the seat to decide";
    for (int i = 0; !wrong && i < pool_size; i++)
        if (pool[i].current != viewer || pool[i].step != template.step || pool[i].players != template.players)
            wrong = "the pool holds engines at this decision point";
    for (int e = 0; !wrong && e < n; e++) {
        int legal = r7_is_legal(&template, extra[e]);
        for (int i = 0; legal && i < pool_size; i++) legal = r7_is_legal(&pool[i], extra[e]);
        if (!legal) wrong = "extra holds decisions legal at this decision point (and in every world of the pool)";
    }
    if (wrong) {
        PyMem_Free(pool);
        return PyErr_Format(PyExc_ValueError, "%s", wrong);
    }
    r7_root_child children[R7_MAX_LEGAL + R7_ACTIONS];
    long done = 0;
    int count;
    Py_BEGIN_ALLOW_THREADS count = r7_ismcts(&template, viewer, seed, iterations, steps, seconds, c, extra, n,
                                             pool, pool_size, children, &done);
    Py_END_ALLOW_THREADS PyMem_Free(pool);
    if (count < 0) return PyErr_NoMemory();
    PyObject *list = PyList_New(count);
    for (int i = 0; list && i < count; i++)
        PyList_SET_ITEM(list, i, Py_BuildValue("(iId)", children[i].action, children[i].visits, children[i].total));
    return list ? Py_BuildValue("(lN)", done, list) : NULL;
}

static PyObject *engine_encode(EngineObject *self, PyObject *arg) {
    long seat = r7_long(arg);
    if (seat == -1 && PyErr_Occurred()) return NULL;
    if (seat < 0 || seat >= self->g.players) return PyErr_Format(PyExc_ValueError, "no seat %R", arg);
    PyObject *bytes = PyBytes_FromStringAndSize(NULL, 873);
    if (bytes) r7_encode(&self->g, (int)seat, (int8_t *)PyBytes_AS_STRING(bytes));
    return bytes;
}

static PyObject *engine_current(EngineObject *self, void *unused) {
    if (self->g.step >= R7_OVER) Py_RETURN_NONE;
    return PyLong_FromLong(self->g.current);
}

static PyObject *engine_step(EngineObject *self, void *unused) { return PyLong_FromLong(self->g.step); }
static PyObject *engine_round(EngineObject *self, void *unused) { return PyLong_FromLong(self->g.round); }
static PyObject *engine_is_over(EngineObject *self, void *unused) { return PyBool_FromLong(self->g.step == R7_OVER); }

static PyObject *engine_scores(EngineObject *self, void *unused) {
    PyObject *t = PyTuple_New(self->g.players);
    for (int i = 0; t && i < self->g.players; i++) PyTuple_SET_ITEM(t, i, PyLong_FromLong(self->g.scores[i]));
    return t;
}
static PyObject *engine_decisions(EngineObject *self, void *unused) { return PyLong_FromLong(self->g.decisions); }

static PyObject *engine_winners(EngineObject *self, void *unused) {
    if (self->g.step != R7_OVER) Py_RETURN_NONE;
    PyObject *t = PyTuple_New(popcount(self->g.winners));
    for (int seat = 0, i = 0; t && seat < self->g.players; seat++)
        if (self->g.winners >> seat & 1) PyTuple_SET_ITEM(t, i++, PyLong_FromLong(seat));
    return t;
}

static PyObject *engine_round_results(EngineObject *self, void *unused) {
    PyObject *t = PyTuple_New(self->g.rounds_played);
    for (int i = 0; t && i < self->g.rounds_played; i++) {
        const r7_round_t *r = &self->g.results[i];
        PyTuple_SET_ITEM(t, i, Py_BuildValue("(iiKi)", r->winner, r->rule, (unsigned long long)r->scored, r->points));
    }
    return t;
}

static PyMethodDef engine_methods[] = {
    {"load", (PyCFunction)engine_load, METH_VARARGS | METH_STATIC,
     "load(players, advanced, actions, round_key, fields, /)\n--\n\nan engine at the position `fields` (checked: a ValueError says what does "
     "not hold together)"},
    {"fields", (PyCFunction)engine_fields, METH_NOARGS, "fields($self, /)\n--\n\nthe position, field by field"},
    {"legal", (PyCFunction)engine_legal, METH_NOARGS, "legal($self, /)\n--\n\nthe legal decision ids, in increasing order"},
    {"options", (PyCFunction)engine_options, METH_NOARGS,
     "options($self, /)\n--\n\n[(id, safe)] of every legal decision (R4.7)"},
    {"legal_ids", (PyCFunction)engine_legal, METH_NOARGS, "legal_ids($self, /)\n--\n\nlegal(), named as Game's"},
    {"safe_ids", (PyCFunction)engine_safe, METH_NOARGS,
     "safe_ids($self, /)\n--\n\nthe safe decision ids (R4.7), as Game.safe_ids"},
    {"apply_id", (PyCFunction)engine_apply, METH_O, "apply_id($self, action_id, /)\n--\n\napply(), named as Game's"},
    {"apply", (PyCFunction)engine_apply, METH_O,
     "apply($self, action_id, /)\n--\n\ncarry out a legal decision (ValueError if illegal)"},
    {"playout", (PyCFunction)(void (*)(void))engine_playout, METH_VARARGS | METH_KEYWORDS,
     "playout($self, /, seed, round_only=False)\n--\n\nrandom players (red7.bots.random_bot) drawing from Random(seed) to the end "
     "of the game, or of the round (a match then waits for its next deal); returns the decisions played"},
    {"clone", (PyCFunction)engine_clone, METH_NOARGS, "clone($self, /)\n--\n\nan independent copy"},
    {"ismcts", (PyCFunction)engine_ismcts, METH_VARARGS,
     "ismcts($self, viewer, seed, iterations, steps, seconds, c, extra, pool=None, /)\n--\n\n(iterations made, "
     "[(decision, visits, total)]); pool: the worlds to play, in turn (the opponent model's)"},
    {"encode", (PyCFunction)engine_encode, METH_O,
     "encode($self, seat, /)\n--\n\nred7.envs.encoding.encode's vector of what seat sees, as bytes"},
    {"greedy", (PyCFunction)(void (*)(void))engine_greedy, METH_VARARGS | METH_KEYWORDS,
     "greedy($self, /, seed, worlds=8, sampled=False, among=None, gamble=False)\n--\n\nthe decision of red7.bots.greedy for the mover, "
     "its worlds sampled by a Mersenne Twister of seed (the first is this game itself if sampled), among these legal "
     "decisions if given (gamble: none of them is safe)"},
    {"turn_values", (PyCFunction)engine_turn_values, METH_NOARGS,
     "turn_values($self, /)\n--\n\n[(decision, the mover still wins the round after it)], two players left without chance"},
    {"plan_values", (PyCFunction)engine_plan_values, METH_NOARGS,
     "plan_values($self, /)\n--\n\n[(plan, it keeps the round won)] for every plan of the mover to the end of its turn, two players "
     "left without chance"},
    {"replayed", (PyCFunction)engine_replayed, METH_VARARGS,
     "replayed($self, viewer, dealt, draws, required, pool, history, most, worlds, tries, seed, judgements=0, /)\n--\n\n([(world, mismatches)], "
     "tries made, broken deals): the round dealt again and replayed from this first position (inference.h)"},
    {"redeal", (PyCFunction)engine_redeal, METH_VARARGS,
     "redeal($self, viewer, seed, /)\n--\n\na copy with the cards viewer cannot see dealt again at random (a sampled world)"},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef engine_getset[] = {
    {"current", (getter)engine_current, NULL, "the seat to decide, None when the game is over", NULL},
    {"current_player", (getter)engine_current, NULL, "current, named as Game's", NULL},
    {"round", (getter)engine_round, NULL, "the round being played, from 1", NULL},
    {"is_over", (getter)engine_is_over, NULL, "is the game over?", NULL},
    {"step", (getter)engine_step, NULL, "the step (red7.core.model.Step; 7: a round ended, the next not dealt)", NULL},
    {"scores", (getter)engine_scores, NULL, "each seat's score", NULL},
    {"decisions", (getter)engine_decisions, NULL, "decisions applied by this engine", NULL},
    {"winners", (getter)engine_winners, NULL, "the winning seats once the game is over, else None", NULL},
    {"round_results", (getter)engine_round_results, NULL, "(winner, rule, scored mask, points) of each round", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject EngineType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "red7.native._core.Engine",
    .tp_basicsize = sizeof(EngineObject),
    .tp_dealloc = (destructor)engine_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Engine(players, advanced, actions, round_key)\n--\n\na match of Red7 in compiled code (red7.core.compiled)",
    .tp_methods = engine_methods,
    .tp_getset = engine_getset,
    .tp_new = engine_new,
};

/* --- random games ------------------------------------------------------------------------ */

/* random_games(players, advanced, actions, seed, games): the games of
 * red7.analysis.sim.play_random_game for the seeds seed .. seed + games - 1, in C alone:
 * round r of the game of seed s dealt from the SplitMix64 stream of fast_split(s, r) (as
 * red7.core.seeds.round_rng deals it), its random players drawing from the stream of
 * fast_split(s, 0) (red7.analysis.sim.players_rng); returns (wins per seat, decisions,
 * turns, rounds) summed over the games. */
static PyObject *py_random_games(PyObject *module, PyObject *args, PyObject *kwds) {
    static char *names[] = {"players", "advanced", "actions", "seed", "games", NULL};
    int players, advanced, actions;
    unsigned long long first;
    long long games;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "ippKL:random_games", names, &players, &advanced, &actions, &first,
                                     &games))
        return r7_refuse_overflow();
    if (!read_players(players)) return NULL;
    if (games < 1 || first + (unsigned long long)games < first)
        return PyErr_Format(PyExc_ValueError, "games must be positive and the seeds below 2**64");
    long long wins[R7_MAX_PLAYERS] = {0}, decisions = 0, turns = 0, rounds = 0;
    r7_game g;
    for (long long i = 0; i < games; i++) {
        uint64_t seed = first + (unsigned long long)i, choices = fast_split(seed, 0);
        r7_init(&g, players, advanced, actions);
        while (g.step != R7_OVER) {
            if (g.step == R7_DEALING) r7_deal_splitmix64(&g, fast_split(seed, (uint64_t)g.round + 1));
            else r7_apply(&g, r7_random_decision(&g, fast_random(&choices)));
        }
        for (int seat = 0; seat < players; seat++) wins[seat] += g.winners >> seat & 1;
        decisions += g.decisions, turns += g.turns, rounds += g.round;
    }
    PyObject *w = PyList_New(players);
    for (int seat = 0; w && seat < players; seat++) PyList_SET_ITEM(w, seat, PyLong_FromLongLong(wins[seat]));
    return Py_BuildValue("(NLLL)", w, decisions, turns, rounds);
}

/* stream_sample(seed, count, bound, length): what the SplitMix64 stream of `seed` (fast.h)
 * gives, each from a fresh stream: `count` draws, `count` draws below `bound`, `count`
 * floats in [0, 1), and range(length) shuffled; what tests/core/test_stream.py compares with
 * red7.core.stream */
static PyObject *py_stream_sample(PyObject *module, PyObject *args) {
    unsigned long long seed;
    PyObject *seed_arg;
    int count, length;
    long bound;
    if (!PyArg_ParseTuple(args, "Oili:stream_sample", &seed_arg, &count, &bound, &length)) return r7_refuse_overflow();
    if (!r7_u64(seed_arg, &seed))
        return PyErr_Occurred() ? NULL : PyErr_Format(PyExc_ValueError, "a stream's seed is from 0 to 2**64 - 1");
    if (count < 0 || count > 100000 || bound < 1 || bound > 0xFFFFFFFFL || length < 0 || length > 256)
        return PyErr_Format(PyExc_ValueError, "count 0..100000, bound 1..2**32 - 1, length 0..256");
    PyObject *draws = PyList_New(count), *below = PyList_New(count), *floats = PyList_New(count), *shuffled = PyList_New(length);
    uint64_t a = seed, b = seed, c = seed, d = seed;
    for (int i = 0; draws && below && floats && i < count; i++) {
        PyList_SET_ITEM(draws, i, PyLong_FromUnsignedLongLong(fast_next(&a)));
        PyList_SET_ITEM(below, i, PyLong_FromUnsignedLong(fast_below(&b, (uint32_t)bound)));
        PyList_SET_ITEM(floats, i, PyFloat_FromDouble(fast_random(&c)));
    }
    uint8_t x[256];
    for (int i = 0; i < length; i++) x[i] = (uint8_t)i;
    fast_shuffle(&d, x, length);
    for (int i = 0; shuffled && i < length; i++) PyList_SET_ITEM(shuffled, i, PyLong_FromLong(x[i]));
    if (!draws || !below || !floats || !shuffled) {
        Py_XDECREF(draws), Py_XDECREF(below), Py_XDECREF(floats), Py_XDECREF(shuffled);
        return NULL;
    }
    return Py_BuildValue("(NNNN)", draws, below, floats, shuffled);
}

/* design_game(players, advanced, actions, round_key, seat_seeds): one game of random
 * players (red7.bots.random_bot), each seat drawing from Random(seat_seeds[seat]), dealt
 * as Game(seed=seed) deals (round_key(round) gives each round's key, as for Engine), and the figures
 * red7.analysis.stats.DesignFigures takes of it: (winners, rounds, turns, decisions per
 * seat, {legal: turn starts}, {safe: turn starts}, turn starts per rule in force, each
 * round's first player, winner and final rule, {1, 3, 5, 7: played to a palette}). */
static PyObject *py_design_game(PyObject *module, PyObject *args) {
    int players, advanced, actions;
    PyObject *round_key, *seat_seeds;
    if (!PyArg_ParseTuple(args, "ippOO:design_game", &players, &advanced, &actions, &round_key, &seat_seeds))
        return r7_refuse_overflow();
    if (!read_players(players)) return NULL;
    mt_t rngs[R7_MAX_PLAYERS];
    PyObject *seeds = PySequence_Fast(seat_seeds, "seat_seeds: a seed per seat");
    if (!seeds) return NULL;
    int ok = PySequence_Fast_GET_SIZE(seeds) == players;
    for (int s = 0; ok && s < players; s++) {
        unsigned long long v;
        ok = r7_u64(PySequence_Fast_GET_ITEM(seeds, s), &v);
        if (ok) mt_seed_u64(&rngs[s], v);
    }
    Py_DECREF(seeds);
    if (!ok) return PyErr_Occurred() ? NULL : PyErr_Format(PyExc_ValueError, "give a seed from 0 to 2**64 - 1 per seat");
    long legal[R7_MAX_LEGAL + 1] = {0}, safe[R7_MAX_LEGAL + 1] = {0}, rules[7] = {0}, plays[8] = {0};
    long decisions[R7_MAX_PLAYERS] = {0};
    int firsts[R7_MAX_ROUNDS + 1], rounds = 0;
    r7_game g;
    r7_init(&g, players, advanced, actions);
    while (g.step != R7_OVER) {
        if (g.step == R7_DEALING) {
            PyObject *key = PyObject_CallFunction(round_key, "i", g.round + 1);
            int dealt = key && deal_with(&g, key);
            Py_XDECREF(key);
            if (!dealt) return NULL;
            if (rounds <= R7_MAX_ROUNDS) firsts[rounds++] = g.current;
            continue;
        }
        r7_legal(&g);
        if (g.step == R7_START) {
            int count = 0;
            for (int i = 0; i < g.legal_count; i++) count += g.safe[i];
            legal[g.legal_count]++, safe[count]++, rules[g.rule]++;
        }
        int me = g.current, id = r7_random_decision(&g, mt_random(&rngs[me]));
        decisions[me]++;
        if (actions && id < R7_CANVAS) plays[value_of(id)]++;
        r7_apply(&g, id);
    }
    PyObject *winners = PyList_New(0), *seats = PyList_New(players), *histograms[2] = {PyDict_New(), PyDict_New()};
    PyObject *in_force = PyList_New(7), *first = PyList_New(rounds), *won = PyList_New(g.rounds_played);
    PyObject *finals = PyList_New(g.rounds_played), *played = PyDict_New();
    PyObject *out = NULL;
    if (!winners || !seats || !histograms[0] || !histograms[1] || !in_force || !first || !won || !finals || !played)
        goto done;
    for (int s = 0; s < players; s++) {
        PyList_SET_ITEM(seats, s, PyLong_FromLong(decisions[s]));
        if (g.winners >> s & 1) {
            PyObject *w = PyLong_FromLong(s);
            if (!w || PyList_Append(winners, w) < 0) goto done;
            Py_DECREF(w);
        }
    }
    for (int h = 0; h < 2; h++)
        for (int n = 0; n <= R7_MAX_LEGAL; n++) {
            long count = h ? safe[n] : legal[n];
            if (!count) continue;
            PyObject *k = PyLong_FromLong(n), *v = PyLong_FromLong(count);
            int bad = !k || !v || PyDict_SetItem(histograms[h], k, v) < 0;
            Py_XDECREF(k), Py_XDECREF(v);
            if (bad) goto done;
        }
    for (int r = 0; r < 7; r++) PyList_SET_ITEM(in_force, r, PyLong_FromLong(rules[r]));
    for (int r = 0; r < rounds; r++) PyList_SET_ITEM(first, r, PyLong_FromLong(firsts[r]));
    for (int r = 0; r < g.rounds_played; r++) {
        PyList_SET_ITEM(won, r, PyLong_FromLong(g.results[r].winner));
        PyList_SET_ITEM(finals, r, PyLong_FromLong(g.results[r].rule));
    }
    for (int v = 1; v <= 7; v += 2) {
        PyObject *k = PyLong_FromLong(v), *n = PyLong_FromLong(plays[v]);
        int bad = !k || !n || PyDict_SetItem(played, k, n) < 0;
        Py_XDECREF(k), Py_XDECREF(n);
        if (bad) goto done;
    }
    out = Py_BuildValue("(OiiOOOOOOOO)", winners, g.round, g.turns, seats, histograms[0], histograms[1], in_force, first,
                        won, finals, played);
done:
    Py_XDECREF(winners), Py_XDECREF(seats), Py_XDECREF(histograms[0]), Py_XDECREF(histograms[1]);
    Py_XDECREF(in_force), Py_XDECREF(first), Py_XDECREF(won), Py_XDECREF(finals), Py_XDECREF(played);
    return out;
}

typedef int (*alike_t)(const r7_game *world, const r7_game *first);

/* The engines of the sequence `arg` into worlds[most]: how many, or -1 with an error
 * set when it holds none, more than `most`, something else than an engine, or a world
 * that is not `alike` worlds[0] (`what`: the position they must share) */
static Py_ssize_t read_worlds(PyObject *arg, r7_game **worlds, int most, alike_t alike, const char *what) {
    PyObject *seq = PySequence_Fast(arg, "worlds is a sequence of engines");
    if (!seq) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    int ok = n >= 1 && n <= most;
    for (Py_ssize_t i = 0; ok && i < n; i++) {
        PyObject *item = PySequence_Fast_GET_ITEM(seq, i);
        ok = Py_IS_TYPE(item, &EngineType);
        if (ok) worlds[i] = &((EngineObject *)item)->g;
        ok = ok && alike(worlds[i], worlds[0]);
    }
    Py_DECREF(seq); /* the engines stay alive: the caller holds `arg` */
    if (!ok) PyErr_Format(PyExc_ValueError, "give 1 to %d engines at %s", most, what);
    return ok ? n : -1;
}

/* Do `g` and `first` show their mover the same decision point: the same configuration,
 * mover, step, pending 7, rule, players in the round, palettes, deck size and the mover's
 * own hand? Then the worlds differ only in what the mover cannot see, and a decision
 * legal in one is legal in the other (which the searches over them rely on). */
static int same_decision_point(const r7_game *g, const r7_game *first) {
    return g->players == first->players && g->advanced == first->advanced && g->actions == first->actions &&
           g->current == first->current && g->step == first->step && g->pending == first->pending &&
           g->rule == first->rule && g->alive == first->alive && g->deck_size == first->deck_size &&
           g->hands[g->current] == first->hands[first->current] && !memcmp(g->palettes, first->palettes, sizeof g->palettes);
}

/* greedy_in(worlds): greedy's decision for the mover of worlds[0], searching these worlds */
static PyObject *py_greedy_in(PyObject *module, PyObject *arg) {
    r7_game *worlds[R7_GREEDY_MAX_WORLDS];
    Py_ssize_t n = read_worlds(arg, worlds, R7_GREEDY_MAX_WORLDS, same_decision_point,
                               "the same decision point as their mover sees it");
    if (n < 0 || !deciding(worlds[0])) return NULL;
    return PyLong_FromLong(r7_greedy_in(worlds, (int)n));
}

static PyMethodDef functions[] = {
    {"random_games", (PyCFunction)(void (*)(void))py_random_games, METH_VARARGS | METH_KEYWORDS,
     "random_games($module, /, players, advanced, actions, seed, games)\n--\n\n"
     "(wins, decisions, turns, rounds) of random games"},
    {"stream_sample", (PyCFunction)py_stream_sample, METH_VARARGS,
     "stream_sample($module, seed, count, bound, length, /)\n--\n\n(draws, draws below bound, floats, range(length) "
     "shuffled) of the SplitMix64 stream of seed (fast.h)"},
    {"design_game", (PyCFunction)py_design_game, METH_VARARGS,
     "design_game($module, players, advanced, actions, round_key, seat_seeds, /)\n--\n\none game of random players and the "
     "figures red7.analysis.stats takes of it"},
    {"greedy_in", (PyCFunction)py_greedy_in, METH_O,
     "greedy_in($module, worlds, /)\n--\n\nthe decision of red7.bots.greedy for the mover of worlds[0], searching these engines"},
    {NULL, NULL, 0, NULL},
};

int red7_add_engine(PyObject *module) {
    if (PyType_Ready(&EngineType) < 0) return -1;
    Py_INCREF(&EngineType);
    if (PyModule_AddObject(module, "Engine", (PyObject *)&EngineType) < 0) return -1;
    return PyModule_AddFunctions(module, functions);
}
