/* greedy in C (see greedy.h); each part names its twin in red7/bots/greedy.py. */
#include "greedy.h"

#include <math.h>
#include <stdlib.h>

/* the evaluation's weights: GAME_WON ... W_POINTS */
#define GAME_WON 100000.0
#define GAME_LOST (-100000.0)
#define ROUND_WON 10000.0
#define ROUND_LOST (-10000.0)
#define W_HAND 30.0
#define W_MARGIN 3.0
#define W_FLEX 4.0
#define W_NEXT 4.0
#define W_POINTS 5.0

/* evaluate: how good `g` is for `me` once its turn is over; `rounds` rounds had ended
 * when the turn began (the same arithmetic, so the same doubles, as the Python twin) */
static double evaluate(const r7_game *g, int me, int rounds) {
    if (g->step == R7_OVER) return g->winners >> me & 1 ? GAME_WON : GAME_LOST;
    if (g->rounds_played > rounds) {
        const r7_round_t *ended = &g->results[rounds];
        return ended->winner == me ? ROUND_WON + W_POINTS * ended->points : ROUND_LOST - W_POINTS * ended->points;
    }
    if (!(g->alive >> me & 1)) return g->advanced ? ROUND_LOST : GAME_LOST;
    int flex = 0, next_flex = 0, mine = 0, other = 0;
    for (int r = 0; r < 7; r++) {
        int best = 0, best_seat = 0;
        for (int seat = 0; seat < g->players; seat++) {
            if (!(g->alive >> seat & 1)) continue;
            int k = rule_key(r, g->palettes[seat]);
            if (k > best) best = k, best_seat = seat;
            if (r == g->rule) {
                if (seat == me) mine = k >> 6;
                else if (k >> 6 > other) other = k >> 6;
            }
        }
        if (best) {
            if (best_seat == me) flex++;
            else if (best_seat == g->current) next_flex++;
        }
    }
    return W_HAND * popcount(g->hands[me]) + W_MARGIN * (mine - other) + W_FLEX * flex - W_NEXT * next_flex;
}

typedef struct {
    int me, rounds;
    int32_t turns;
} turn_t; /* TurnSearch (greedy.py): the turn being searched in one world */

static double best_of(const turn_t *t, r7_game *g, int *chance);

/* value_after: the best value reachable after `id` from `g`; *chance: may an unknown
 * card be drawn on the way (draws_unknown)? */
static double value_after(const turn_t *t, const r7_game *g, int id, int *chance) {
    r7_game next = *g;
    int unknown_top = g->deck_known == 0, size = g->deck_size;
    r7_apply(&next, id);
    int later;
    double value = best_of(t, &next, &later);
    *chance = (unknown_top && next.deck_size < size) || later; /* one draw at most per decision */
    return value;
}

/* _best: the turn over (or the round, or the game), the position's value; else the best
 * over the safe decisions, or over all when none is safe */
static double best_of(const turn_t *t, r7_game *g, int *chance) {
    *chance = 0;
    if (g->step >= R7_OVER || g->turns != t->turns) return evaluate(g, t->me, t->rounds);
    r7_legal(g);
    int16_t ids[R7_MAX_LEGAL];
    int n = 0;
    for (int i = 0; i < g->legal_count; i++)
        if (g->safe[i]) ids[n++] = g->legal[i];
    if (!n)
        for (int i = 0; i < g->legal_count; i++) ids[n++] = g->legal[i];
    double best = -INFINITY;
    for (int i = 0; i < n; i++) {
        int c;
        double value = value_after(t, g, ids[i], &c);
        *chance |= c;
        if (value > best) best = value;
    }
    return best;
}

typedef struct {
    r7_game *const *given; /* the worlds, when the caller gives them */
    int count;
    const r7_game *from; /* else sampled from this game for its mover */
    mt_t *rng;
    int sampled; /* is `from` itself the first world? */
    r7_game *own;
    int made;
} worlds_t;

/* the i-th world (sampled when first needed); NULL when memory ran out */
static r7_game *world_at(worlds_t *w, int i) {
    if (w->given) return w->given[i];
    if (!w->own && !(w->own = malloc((size_t)w->count * sizeof(r7_game)))) return NULL;
    for (; w->made <= i; w->made++) {
        w->own[w->made] = *w->from;
        if (w->made || !w->sampled) r7_redeal(&w->own[w->made], w->from->current, w->rng);
    }
    return &w->own[i];
}

static double value_in(r7_game *world, int id) {
    turn_t t = {world->current, world->rounds_played, world->turns};
    int chance;
    return value_after(&t, world, id, &chance);
}

/* GreedyBot.choose's choices: the safe decisions, or all when none is safe (a gamble: a 3
 * may still draw a rescue); returns how many, *gamble whether it is one */
static int choices_of(r7_game *position, int16_t *choices, int *gamble) {
    r7_legal(position);
    int n = 0;
    for (int i = 0; i < position->legal_count; i++)
        if (position->safe[i]) choices[n++] = position->legal[i];
    *gamble = !n;
    if (!n)
        for (int i = 0; i < position->legal_count; i++) choices[n++] = position->legal[i];
    return n;
}

/* GreedyBot.choose among `choices` (increasing ids); -1 when memory ran out */
static int decide(worlds_t *w, const int16_t *choices, int n, int gamble) {
    if (n == 1) return choices[0];
    r7_game *first = world_at(w, 0);
    if (!first) return -1;
    turn_t t = {first->current, first->rounds_played, first->turns};
    double totals[R7_MAX_LEGAL], best = -INFINITY;
    for (int i = 0; i < n; i++) {
        int chance;
        double value = value_after(&t, first, choices[i], &chance);
        if (chance) { /* the line draws an unknown card: every world's value, averaged */
            double rest = 0.0;
            for (int k = 1; k < w->count; k++) {
                r7_game *world = world_at(w, k);
                if (!world) return -1;
                rest += value_in(world, choices[i]);
            }
            value = (value + rest) / w->count;
        }
        totals[i] = value;
        if (value > best) best = value;
    }
    if (gamble) /* a gamble only if it beats conceding */
        for (int i = 0; i < n; i++)
            if (choices[i] == R7_CONCEDE && totals[i] == best) return R7_CONCEDE;
    for (int i = 0;; i++) /* choices are in increasing id order */
        if (totals[i] == best) return choices[i];
}

int r7_greedy_in(r7_game *const *worlds, int count) {
    worlds_t w = {.given = worlds, .count = count};
    int16_t choices[R7_MAX_LEGAL];
    int gamble, n = choices_of(worlds[0], choices, &gamble);
    return decide(&w, choices, n, gamble);
}

int r7_greedy_among(const r7_game *g, int worlds, mt_t *rng, int sampled, const int16_t *choices, int n, int gamble) {
    worlds_t w = {.count = worlds, .from = g, .rng = rng, .sampled = sampled};
    int choice = decide(&w, choices, n, gamble);
    free(w.own);
    return choice;
}

int r7_greedy(const r7_game *g, int worlds, mt_t *rng, int sampled) {
    r7_game position = *g;
    int16_t choices[R7_MAX_LEGAL];
    int gamble, n = choices_of(&position, choices, &gamble);
    return r7_greedy_among(g, worlds, rng, sampled, choices, n, gamble);
}
