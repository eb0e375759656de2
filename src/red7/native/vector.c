/* Many games at once for learning (red7.envs.vector): red7.native._core.VectorGames, and
 * the observation vector of red7.envs.encoding in C (r7_encode).
 *
 * Each of N games seats one learner; the other seats are random players (red7.bots.
 * random_bot's policy) or greedy players (greedy.h, red7.bots.greedy's search) played here. step(actions) applies each game's learner decision,
 * plays the other seats until the learner decides again, and writes, into arrays the
 * caller owns (numpy arrays, through the buffer protocol): the learner's observation
 * vector [N, 873] and its action mask [N, 249], the reward [N], terminated [N] and
 * illegal [N], the deciding seat [N] and, when a game ends, every seat's return [N, 4].
 * In self-play (seat SELF_PLAY) every seat is the learner: each step is the decision of
 * whichever seat is to move, and the episode is the whole game. A game that ends is
 * dealt again in the same call (the observation is the next episode's first). Deals, seats and the random players draw from one SplitMix64
 * stream per game (fast.h), seeded from the vector's seed and the game's index; a greedy
 * player's worlds from a Mersenne Twister seeded from that stream at each of its decisions.
 *
 * What a learner may decide is the games' own: write_view writes each game's allowed
 * decisions (its legal ones, or with `safe` the safe ones or concede alone) both into the
 * caller's mask array and into a bit set of its own, and step judges every decision by
 * that bit set, never by the array, which the caller may have written into. A decision
 * outside it (or outside 0..248) is not applied: it ends the episode as a loss, as in
 * SingleAgentRed7 (reward -1, the other seats sharing +1, illegal set), and the game is
 * dealt again. step and reset refuse to run before reset() or while another thread steps
 * the same games (step releases the GIL).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "engine.h"
#include "fast.h"
#include "greedy.h"

#define GREEDY_WORLDS 8 /* as the medium level */

#define OBS_SIZE 873
#define SELF_PLAY -2 /* the seat argument for self-play; -1 draws the learner's seat each episode */
#define MASK_ROWS 17 /* hand, palettes, known hand cards, score piles (4 each), canvas, deck top, pending, out */

/* red7.envs.encoding.encode of observe(seat), from the position (see that module's layout) */
void r7_encode(const r7_game *g, int seat, int8_t *out) {
    int n = g->players;
    mask_t rows[MASK_ROWS] = {0}, canvas = 0, top = 0;
    for (int i = 0; i < g->canvas_size; i++) canvas |= (mask_t)1 << g->canvas[i];
    for (int i = 0; i < g->deck_known; i++) top |= (mask_t)1 << g->deck[g->deck_size - 1 - i];
    rows[0] = g->hands[seat];
    for (int r = 0; r < n; r++) {
        int s = (seat + r) % n;
        rows[1 + r] = g->palettes[s], rows[5 + r] = g->known[s], rows[9 + r] = g->piles[s];
    }
    rows[13] = canvas, rows[14] = top;
    rows[15] = g->step == R7_SEVEN && g->pending >= 0 ? (mask_t)1 << g->pending : 0;
    rows[16] = g->out_known | g->out_own[seat];
    memset(out, 0, R7_CARDS * MASK_ROWS);
    for (int r = 0; r < MASK_ROWS; r++) /* a few cards per row: visit the set bits only */
        for (mask_t m = rows[r]; m; m &= m - 1) out[R7_CARDS * r + __builtin_ctzll(m)] = 1;
    int8_t *small = out + R7_CARDS * MASK_ROWS;
    memset(small, 0, OBS_SIZE - R7_CARDS * MASK_ROWS);
    small[g->rule] = 1;
    if (g->step <= R7_OVER) small[7 + g->step] = 1;
    if (g->step < R7_OVER) small[14 + (g->current - seat + n) % n] = 1;
    for (int r = 0; r < n; r++) {
        int s = (seat + r) % n;
        small[18 + r] = (int8_t)(g->alive >> s & 1);
        small[22 + r] = 1;
        small[26 + r] = (int8_t)popcount(g->hands[s]);
        small[30 + r] = (int8_t)g->scores[s];
    }
    small[34] = g->deck_size;
    small[35] = (int8_t)popcount(g->out);
    small[36] = (int8_t)g->round;
    small[37] = (int8_t)(g->advanced ? r7_target(n) : 0);
    small[38] = g->advanced, small[39] = g->actions;
}

#define ALLOWED_WORDS ((R7_ACTIONS + 63) / 64)

typedef struct {
    PyObject_HEAD int count, players, advanced, actions, seat, safe, greedy;
    r7_game *games;
    int8_t *learners;
    uint64_t *streams;
    uint64_t (*allowed)[ALLOWED_WORDS]; /* per game, a bit per decision its learner may take */
    int dealt;                          /* reset() has dealt every game */
    int stepping;                       /* step() runs, the GIL released */
    Py_buffer obs, mask, reward, terminated, illegal, seats, returns;
    int views;
} VectorObject;

static void vector_dealloc(VectorObject *self) {
    Py_buffer *views[] = {&self->obs,     &self->mask,  &self->reward, &self->terminated,
                          &self->illegal, &self->seats, &self->returns};
    for (int i = 0; i < self->views; i++) PyBuffer_Release(views[i]);
    free(self->games), free(self->learners), free(self->streams), free(self->allowed);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* 0 with a RuntimeError while another thread steps these games */
static int idle(const VectorObject *self) {
    if (!self->stepping) return 1;
    PyErr_SetString(PyExc_RuntimeError, "these games are being stepped in another thread");
    return 0;
}

static int view(PyObject *array, Py_buffer *out, Py_ssize_t length, Py_ssize_t item, const char *what) {
    if (PyObject_GetBuffer(array, out, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0) return 0;
    if (out->len != length * item || out->itemsize != item) {
        PyErr_Format(PyExc_ValueError, "%s: a writable C-contiguous array of %zd items of %zd bytes", what, length, item);
        PyBuffer_Release(out);
        return 0;
    }
    return 1;
}

/* The learner's observation and mask of game i into the arrays, and the decisions it may
 * take into the game's own bit set */
static void write_view(VectorObject *self, int i) {
    r7_game *g = &self->games[i];
    ((int8_t *)self->seats.buf)[i] = self->learners[i];
    r7_encode(g, self->learners[i], (int8_t *)self->obs.buf + (Py_ssize_t)i * OBS_SIZE);
    int8_t *mask = (int8_t *)self->mask.buf + (Py_ssize_t)i * R7_ACTIONS;
    uint64_t *allowed = self->allowed[i];
    memset(mask, 0, R7_ACTIONS);
    memset(allowed, 0, sizeof self->allowed[i]);
    if (g->step >= R7_OVER || g->current != self->learners[i]) return;
    int16_t ids[R7_MAX_LEGAL];
    int n = self->safe ? r7_safe_or_concede(g, ids) : (r7_legal(g), g->legal_count);
    for (int k = 0; k < n; k++) {
        int id = self->safe ? ids[k] : g->legal[k];
        mask[id] = 1;
        allowed[id >> 6] |= (uint64_t)1 << (id & 63);
    }
}

/* Is the learner of game i done: the game over, or, in the basic game, the learner out
 * (in self-play the game goes on with the others)? */
static inline int finished(const VectorObject *self, const r7_game *g, int learner) {
    return g->step == R7_OVER || (self->seat != SELF_PLAY && !g->advanced && !(g->alive >> learner & 1));
}

/* Play the other seats (and deal new rounds) until the learner decides or is finished */
static void advance(VectorObject *self, int i) {
    r7_game *g = &self->games[i];
    uint64_t *stream = &self->streams[i];
    uint8_t deck[R7_CARDS];
    while (!finished(self, g, self->learners[i])) {
        if (g->step == R7_DEALING) {
            int size = r7_round_cards(g, deck);
            fast_shuffle(stream, deck, size);
            r7_deal_shuffled(g, deck, size);
        } else if (self->seat == SELF_PLAY) {
            self->learners[i] = g->current; /* whoever is to move decides */
            return;
        } else if (g->current == self->learners[i]) {
            return;
        } else if (self->greedy) {
            mt_t rng;
            mt_seed_u64(&rng, fast_next(stream));
            int choice = r7_greedy(g, GREEDY_WORLDS, &rng, 0);
            r7_apply(g, choice >= 0 ? choice : r7_random_decision(g, fast_random(stream))); /* no memory: random */
        } else {
            r7_apply(g, r7_random_decision(g, fast_random(stream)));
        }
    }
}

/* A new episode in game i: deal, draw the learner's seat, play up to its first decision
 * (a deal the other seats finish first is dealt again) */
static void new_episode(VectorObject *self, int i) {
    r7_game *g = &self->games[i];
    uint64_t *stream = &self->streams[i];
    uint8_t deck[R7_CARDS];
    do {
        r7_init(g, self->players, self->advanced, self->actions);
        int seat = self->seat >= 0 ? self->seat : self->seat == -1 ? (int)fast_below(stream, self->players) : 0;
        self->learners[i] = (int8_t)seat;
        int size = r7_round_cards(g, deck);
        fast_shuffle(stream, deck, size);
        r7_deal_shuffled(g, deck, size);
        advance(self, i);
    } while (finished(self, g, self->learners[i]));
}

/* A seat's return when its episode ends (red7.envs.returns.zero_sum_returns) */
static float reward_of(const r7_game *g, int seat) {
    int n = g->players;
    if (g->step != R7_OVER || !(g->winners >> seat & 1)) return -1.0f / (float)(n - 1);
    int k = popcount(g->winners);
    return (float)(n - k) / (float)(k * (n - 1));
}

static PyObject *vector_new(PyTypeObject *type, PyObject *args, PyObject *kwds) {
    static char *names[] = {"count", "players", "advanced", "actions", "seat", "safe", "seed", "obs", "mask",
                            "reward", "terminated", "illegal", "seats", "returns", "greedy", NULL};
    int count, players, advanced, actions, seat, safe, greedy = 0;
    unsigned long long seed;
    PyObject *arrays[7];
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "iippipKOOOOOOO|p:VectorGames", names, &count, &players, &advanced,
                                     &actions, &seat, &safe, &seed, &arrays[0], &arrays[1], &arrays[2], &arrays[3],
                                     &arrays[4], &arrays[5], &arrays[6], &greedy))
        return r7_refuse_overflow();
    if (count < 1 || players < R7_MIN_PLAYERS || players > R7_MAX_PLAYERS || seat < SELF_PLAY || seat >= players)
        return PyErr_Format(PyExc_ValueError, "1 or more games of 2 to 4 players, and a seat of the table, -1 or -2");
    VectorObject *self = (VectorObject *)type->tp_alloc(type, 0);
    if (!self) return NULL;
    self->count = count, self->players = players, self->advanced = advanced, self->actions = actions;
    self->seat = seat, self->safe = safe, self->greedy = greedy;
    Py_buffer *views[] = {&self->obs,     &self->mask,  &self->reward, &self->terminated,
                          &self->illegal, &self->seats, &self->returns};
    Py_ssize_t lengths[] = {(Py_ssize_t)count * OBS_SIZE, (Py_ssize_t)count * R7_ACTIONS, count, count, count, count,
                            (Py_ssize_t)count * R7_MAX_PLAYERS};
    Py_ssize_t items[] = {1, 1, 4, 1, 1, 1, 4};
    const char *what[] = {"obs", "mask", "reward", "terminated", "illegal", "seats", "returns"};
    for (int i = 0; i < 7; i++, self->views++)
        if (!view(arrays[i], views[i], lengths[i], items[i], what[i])) {
            Py_DECREF(self);
            return NULL;
        }
    self->games = calloc((size_t)count, sizeof(r7_game));
    self->learners = calloc((size_t)count, 1);
    self->streams = calloc((size_t)count, sizeof(uint64_t));
    self->allowed = calloc((size_t)count, sizeof *self->allowed);
    if (!self->games || !self->learners || !self->streams || !self->allowed) {
        Py_DECREF(self);
        return PyErr_NoMemory();
    }
    for (int i = 0; i < count; i++) {
        uint64_t mix = seed ^ (0x9E3779B97F4A7C15ULL * (uint64_t)(i + 1));
        self->streams[i] = fast_next(&mix);
    }
    return (PyObject *)self;
}

static PyObject *vector_reset(VectorObject *self, PyObject *unused) {
    if (!idle(self)) return NULL;
    self->dealt = 1;
    for (int i = 0; i < self->count; i++) {
        new_episode(self, i);
        write_view(self, i);
        ((float *)self->reward.buf)[i] = 0;
        ((uint8_t *)self->terminated.buf)[i] = ((uint8_t *)self->illegal.buf)[i] = 0;
        memset((float *)self->returns.buf + (Py_ssize_t)i * R7_MAX_PLAYERS, 0, R7_MAX_PLAYERS * sizeof(float));
    }
    Py_RETURN_NONE;
}

static PyObject *vector_step(VectorObject *self, PyObject *arg) {
    Py_buffer actions;
    if (!idle(self)) return NULL;
    if (!self->dealt) return PyErr_Format(PyExc_RuntimeError, "call reset() before step()");
    if (PyObject_GetBuffer(arg, &actions, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) return NULL;
    int int64 = actions.itemsize == 8 && (!strcmp(actions.format, "q") || !strcmp(actions.format, "l"));
    if (actions.len != (Py_ssize_t)self->count * 8 || !int64 || !idle(self)) {
        PyBuffer_Release(&actions);
        if (PyErr_Occurred()) return NULL;
        return PyErr_Format(PyExc_ValueError, "actions: an int64 array of %d decision ids", self->count);
    }
    self->stepping = 1;
    const int64_t *chosen = actions.buf;
    float *reward = self->reward.buf;
    uint8_t *terminated = self->terminated.buf, *illegal = self->illegal.buf;
    Py_BEGIN_ALLOW_THREADS for (int i = 0; i < self->count; i++) {
        r7_game *g = &self->games[i];
        int64_t a = chosen[i];
        int learner = self->learners[i];
        float *returns = (float *)self->returns.buf + (Py_ssize_t)i * R7_MAX_PLAYERS;
        reward[i] = 0, terminated[i] = illegal[i] = 0;
        memset(returns, 0, R7_MAX_PLAYERS * sizeof(float));
        if (a < 0 || a >= R7_ACTIONS || !(self->allowed[i][a >> 6] >> (a & 63) & 1)) {
            /* not a decision this game allows (its own bit set, not the caller's mask array):
             * as SingleAgentRed7, an illegal action loses, and the others share the loss out */
            reward[i] = -1, terminated[i] = illegal[i] = 1;
            for (int s = 0; s < g->players; s++) returns[s] = s == learner ? -1.0f : 1.0f / (float)(g->players - 1);
        } else {
            r7_apply(g, (int)a);
            advance(self, i);
            if (finished(self, g, learner)) {
                reward[i] = reward_of(g, learner), terminated[i] = 1;
                if (g->step == R7_OVER)
                    for (int s = 0; s < g->players; s++) returns[s] = reward_of(g, s);
                else returns[learner] = reward[i]; /* out of a basic game: only its own loss is known */
            }
        }
        if (terminated[i]) new_episode(self, i);
        write_view(self, i);
    }
    Py_END_ALLOW_THREADS self->stepping = 0;
    PyBuffer_Release(&actions);
    Py_RETURN_NONE;
}

static PyObject *vector_learners(VectorObject *self, PyObject *unused) {
    if (!idle(self)) return NULL;
    PyObject *t = PyTuple_New(self->count);
    for (int i = 0; t && i < self->count; i++) PyTuple_SET_ITEM(t, i, PyLong_FromLong(self->learners[i]));
    return t;
}

static PyMethodDef vector_methods[] = {
    {"reset", (PyCFunction)vector_reset, METH_NOARGS, "reset($self, /)\n--\n\ndeal every game again and write the first views"},
    {"step", (PyCFunction)vector_step, METH_O,
     "step($self, actions, /)\n--\n\none learner decision per game (int64 array); one it does not allow loses"},
    {"learners", (PyCFunction)vector_learners, METH_NOARGS, "learners($self, /)\n--\n\neach game's learner seat"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject VectorType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "red7.native._core.VectorGames",
    .tp_basicsize = sizeof(VectorObject),
    .tp_dealloc = (destructor)vector_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "VectorGames(count, players, advanced, actions, seat, safe, seed, obs, mask, reward, terminated, "
              "illegal, seats, returns, greedy=False)\n--\n\ngames stepped together (red7.envs.vector)",
    .tp_methods = vector_methods,
    .tp_new = vector_new,
};

int red7_add_vector(PyObject *module) {
    if (PyType_Ready(&VectorType) < 0) return -1;
    Py_INCREF(&VectorType);
    return PyModule_AddObject(module, "VectorGames", (PyObject *)&VectorType);
}
