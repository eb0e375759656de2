/* ISMCTS in C (see search.h); each part names its twin in red7/bots/ismcts.py. */
#include "search.h"

#include <math.h>
#include <stdlib.h>
#include <time.h>

typedef struct {
    int32_t first_child, next_sibling;
    int16_t action;
    uint32_t visits, available;
    double total;
} node_t; /* _Node; children are a linked list of siblings, in the order first met */

typedef struct {
    node_t *nodes;
    int32_t count, room;
} tree_t;

static int32_t new_node(tree_t *t, int action) {
    if (t->count == t->room) {
        int32_t room = t->room ? 2 * t->room : 4096;
        node_t *grown = realloc(t->nodes, (size_t)room * sizeof(node_t));
        if (!grown) return -1;
        t->nodes = grown, t->room = room;
    }
    t->nodes[t->count] = (node_t){-1, -1, (int16_t)action, 0, 0, 0.0};
    return t->count++;
}

/* candidates(): the decisions the search considers for the mover */
static int candidates(r7_game *g, int16_t *moves) {
    r7_legal(g);
    int n = 0;
    for (int i = 0; i < g->legal_count; i++)
        if (g->safe[i]) moves[n++] = g->legal[i];
    if (!n) {
        for (int i = 0; i < g->legal_count; i++) moves[n++] = g->legal[i];
        return n;
    }
    if (g->advanced && g->step == R7_START) moves[n++] = R7_CONCEDE;
    return n;
}

/* _values: each player's value where the rollout stopped */
static void values_of(const r7_game *g, double *values) {
    if (g->step == R7_OVER) {
        double share = 1.0 / popcount(g->winners);
        for (int s = 0; s < g->players; s++) values[s] = g->winners >> s & 1 ? share : 0.0;
        return;
    }
    double target = r7_target(g->players), total = 0;
    for (int s = 0; s < g->players; s++) total += values[s] = exp(4.0 * g->scores[s] / target);
    for (int s = 0; s < g->players; s++) values[s] /= total;
}

static inline int playing(const r7_game *g) { return g->step != R7_OVER && g->step != R7_DEALING; }

static double now(void) { /* C11's clock: wall time, which is what a time budget means */
    struct timespec t;
    timespec_get(&t, TIME_UTC);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* _iterate: one iteration in world g; returns the decisions it simulated, -1 without memory */
static long iterate(tree_t *t, r7_game *g, mt_t *rng, double c, const int16_t *extra, int extra_count) {
    int32_t node = 0, path[512];
    int8_t movers[512];
    int depth = 0;
    int16_t moves[R7_MAX_LEGAL + R7_ACTIONS];
    int32_t untried[R7_MAX_LEGAL + R7_ACTIONS];
    while (playing(g) && depth < 512) {
        int n = candidates(g, moves);
        if (node == 0)
            for (int e = 0; e < extra_count; e++) {
                int seen = 0;
                for (int i = 0; i < n && !seen; i++) seen = moves[i] == extra[e];
                if (!seen) moves[n++] = extra[e];
            }
        int mover = g->current, nu = 0;
        int32_t best = -1;
        double best_score = -1.0;
        for (int i = 0; i < n; i++) {
            int32_t child = t->nodes[node].first_child, last = -1;
            while (child >= 0 && t->nodes[child].action != moves[i]) last = child, child = t->nodes[child].next_sibling;
            if (child < 0) {
                if ((child = new_node(t, moves[i])) < 0) return -1;
                if (last < 0) t->nodes[node].first_child = child;
                else t->nodes[last].next_sibling = child;
            }
            node_t *x = &t->nodes[child];
            x->available++;
            if (!x->visits) {
                untried[nu++] = child;
            } else if (!nu) {
                double score = x->total / x->visits + c * sqrt(log((double)x->available) / x->visits);
                if (score > best_score) best_score = score, best = child;
            }
        }
        int32_t next = nu ? untried[(int)(mt_random(rng) * nu)] : best;
        r7_apply(g, t->nodes[next].action);
        path[depth] = next, movers[depth++] = (int8_t)mover;
        if (nu) break;
        node = next;
    }
    long steps = depth;
    while (playing(g)) {
        r7_apply(g, r7_random_decision(g, mt_random(rng)));
        steps++;
    }
    double values[R7_MAX_PLAYERS];
    values_of(g, values);
    for (int i = 0; i < depth; i++) {
        node_t *x = &t->nodes[path[i]];
        x->visits++;
        x->total += values[movers[i]];
    }
    return steps;
}

int r7_ismcts(const r7_game *template, int viewer, uint64_t seed, long iterations, long steps, double seconds,
              double c, const int16_t *extra, int extra_count, const r7_game *pool, int pool_size,
              r7_root_child *out, long *done) {
    tree_t t = {NULL, 0, 0};
    mt_t rng;
    mt_seed_u64(&rng, seed);
    double deadline = seconds > 0 ? now() + seconds : INFINITY;
    long made = 0, spent = 0;
    int result = -1;
    if (new_node(&t, -1) < 0) return -1;
    for (;;) {
        r7_game world = pool_size ? pool[made % pool_size] : *template;
        world.legal_ready = 0;
        if (made && !pool_size) r7_redeal(&world, viewer, &rng);
        long used = iterate(&t, &world, &rng, c, extra, extra_count);
        if (used < 0) goto out;
        spent += used, made++;
        if (iterations && made >= iterations) break;
        if (steps && spent >= steps) break;
        if (seconds > 0 && now() >= deadline) break;
    }
    result = 0;
    for (int32_t child = t.nodes[0].first_child; child >= 0; child = t.nodes[child].next_sibling)
        out[result++] = (r7_root_child){t.nodes[child].action, t.nodes[child].visits, t.nodes[child].total};
    *done = made;
out:
    free(t.nodes);
    return result;
}
