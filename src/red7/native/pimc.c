/* red7.bots.pimc in C (see pimc.h). */
#include "pimc.h"

#include "exact.h"
#include <stddef.h>
#include <stdlib.h>

/* solve()'s walk: the value for `me` of a point of its own turn (0 or 1), -1 without memory */
static int walk(const r7_game *g, int me, int rounds, int16_t *ids, uint8_t *won, int *count) {
    r7_game node = *g;
    r7_legal(&node);
    int best = 0;
    for (int i = 0; i < node.legal_count; i++) {
        r7_game child = node;
        r7_apply(&child, node.legal[i]);
        int value;
        if (child.rounds_played > rounds) {
            value = child.results[rounds].winner == me;
        } else if (child.current != me) {
            int other = child.current; /* the other of the two players left */
            value = r7_won(child.hands[other], child.palettes[other], child.hands[me], child.palettes[me], child.rule);
            if (value < 0) return -1;
            value = !value;
        } else {
            value = walk(&child, me, rounds, NULL, NULL, NULL);
            if (value < 0) return -1;
        }
        if (ids) {
            ids[*count] = node.legal[i];
            won[(*count)++] = (uint8_t)value;
        } else if (value) {
            return 1;
        }
        best |= value;
    }
    return best;
}

/* Where a plan of the mover `me` ended its turn: the round over (won or lost), or the
 * other player's turn start, seen as the masks of the exact solver. */
typedef struct {
    int8_t over, won, rule;
    mask_t hand, palette, other_hand, other_palette; /* me's, then the other player's */
} end_t;

static end_t end_of(const r7_game *child, int me, int rounds) {
    if (child->rounds_played > rounds) return (end_t){1, child->results[rounds].winner == me, 0, 0, 0, 0, 0};
    int other = child->current;
    return (end_t){0, 0, child->rule, child->hands[me], child->palettes[me], child->hands[other], child->palettes[other]};
}

/* the value for `me` of a plan's end when the other player holds `other_hand`, -1 without memory */
static int end_value(const end_t *e, mask_t other_hand) {
    if (e->over) return e->won;
    int value = r7_won(other_hand, e->other_palette, e->hand, e->palette, e->rule);
    return value < 0 ? -1 : !value;
}

typedef struct {
    int me, rounds, count;
    int16_t path[R7_PLAN_STEPS];
    int16_t *plans;
    end_t *ends;
} plans_t;

/* every plan of the mover to the end of its turn, with where it ends; -1 if more than R7_MOST_PLANS */
static int plans_from(const r7_game *g, plans_t *p, int depth) {
    r7_game node = *g;
    r7_legal(&node);
    for (int i = 0; i < node.legal_count; i++) {
        r7_game child = node;
        r7_apply(&child, node.legal[i]);
        p->path[depth] = node.legal[i];
        if (child.rounds_played > p->rounds || child.current != p->me || depth + 1 == R7_PLAN_STEPS) {
            if (p->count == R7_MOST_PLANS) return -1;
            for (int k = 0; k < R7_PLAN_STEPS; k++) p->plans[p->count * R7_PLAN_STEPS + k] = k <= depth ? p->path[k] : -1;
            p->ends[p->count++] = end_of(&child, p->me, p->rounds);
        } else if (plans_from(&child, p, depth + 1) < 0) {
            return -1;
        }
    }
    return 0;
}

/* the plans of the mover of `g` and their ends (room for R7_MOST_PLANS); how many, or -1 */
static int plans_of_turn(const r7_game *g, int16_t *plans, end_t *ends) {
    plans_t p = {g->current, g->rounds_played, 0, {0}, plans, ends};
    return plans_from(g, &p, 0) < 0 ? -1 : p.count;
}

int r7_plan_values(r7_game *g, int16_t *plans, uint8_t *won) {
    end_t *ends = malloc(R7_MOST_PLANS * sizeof(end_t));
    int n = ends ? plans_of_turn(g, plans, ends) : -1;
    for (int i = 0; i < n; i++) {
        int value = end_value(&ends[i], ends[i].other_hand);
        if (value < 0) n = -1;
        else won[i] = (uint8_t)value;
    }
    free(ends);
    return n;
}

int r7_turn_values(r7_game *g, int16_t *ids, uint8_t *won) {
    int count = 0;
    return walk(g, g->current, g->rounds_played, ids, won, &count) < 0 ? -1 : count;
}

/* --- αμ (pimc.h) --------------------------------------------------------------------- */

typedef uint64_t worlds_t; /* a set of worlds, bit w for world w */

#define FRONT_MOST 64 /* vectors a front may hold; more gives the search up */

/* A Pareto front: the sets of worlds that the mover's strategies can win, none a subset
 * of another (Cazenave & Ventos, 2019). */
typedef struct {
    int size;
    worlds_t won[FRONT_MOST];
} front_t;

typedef struct {
    mask_t hands[R7_ALPHA_MU_WORLDS]; /* the other player's hand in each world at the root */
    unsigned long long last_node;     /* r7_solver_nodes() at which the search gives up */
    int failed;                       /* out of nodes, of room or of memory */
} alpha_mu_t;

/* add `won` to `f` unless a vector of it covers `won`, dropping those `won` covers */
static void front_add(alpha_mu_t *s, front_t *f, worlds_t won) {
    for (int i = 0; i < f->size; i++)
        if (!(won & ~f->won[i])) return;
    int kept = 0;
    for (int i = 0; i < f->size; i++)
        if (f->won[i] & ~won) f->won[kept++] = f->won[i];
    f->size = kept;
    if (kept == FRONT_MOST) s->failed = 1;
    else f->won[f->size++] = won;
}

static void other_turn(alpha_mu_t *s, int depth, mask_t hand, mask_t palette, mask_t other_palette, int rule,
                       mask_t played, worlds_t worlds, front_t *out);

/* The front of the worlds `worlds` where the bot holding `hand` with `palette` has ended
 * its turn under `rule` (the other player's `other_palette`, its root hands less `played`
 * to move), `depth` turns of its own left to choose with what it knows. */
static void after_plan(alpha_mu_t *s, int depth, mask_t hand, mask_t palette, mask_t other_palette, int rule,
                       mask_t played, worlds_t worlds, front_t *out) {
    if (depth > 1) {
        other_turn(s, depth - 1, hand, palette, other_palette, rule, played, worlds, out);
        return;
    }
    worlds_t won = 0; /* the leaf: each world solved as if the bot could see it (PIMC) */
    for (worlds_t left = worlds; left && !s->failed; left &= left - 1) {
        int w = __builtin_ctzll(left);
        int value = r7_won(s->hands[w] & ~played, other_palette, hand, palette, rule);
        if (value < 0 || r7_solver_nodes() > s->last_node) s->failed = 1;
        else if (!value) won |= (worlds_t)1 << w;
    }
    out->size = 0;
    front_add(s, out, won);
}

/* The bot's turn start in `worlds`: the union of its plans' fronts (one plan for all of
 * them: it cannot tell them apart). */
static void own_turn(alpha_mu_t *s, int depth, mask_t hand, mask_t palette, mask_t other_palette, int rule,
                     mask_t played, worlds_t worlds, front_t *out) {
    r7_plan_t plans[R7_MOST_TURN_PLANS];
    int n = r7_plans(hand, palette, other_palette, rule, plans);
    out->size = 0;
    if (!n) front_add(s, out, 0); /* out of the round in every world */
    for (int i = 0; i < n && !s->failed; i++) {
        front_t child;
        after_plan(s, depth, plans[i].hand, plans[i].palette, other_palette, plans[i].rule, played, worlds, &child);
        for (int k = 0; k < child.size; k++) front_add(s, out, child.won[k]);
        if (out->size == 1 && out->won[0] == worlds) break; /* every world won: nothing does better */
    }
}

typedef struct {
    mask_t played, palette; /* the cards the reply spends and the palette it leaves */
    int rule, world;
} reply_t;

/* the same reply, as the bot sees it: the same cards to the same places */
static int same_reply(const reply_t *x, const reply_t *y) {
    return x->played == y->played && x->palette == y->palette && x->rule == y->rule;
}

static int reply_order(const void *a, const void *b) {
    const reply_t *x = a, *y = b;
    if (x->played != y->played) return x->played < y->played ? -1 : 1;
    if (x->palette != y->palette) return x->palette < y->palette ? -1 : 1;
    if (x->rule != y->rule) return x->rule < y->rule ? -1 : 1;
    return x->world - y->world;
}

/* The other player's turn start in `worlds`: it sees its world and picks, world by world,
 * the reply worst for the bot; the bot then knows which reply was played, and so only
 * that the world is among those where the reply was legal. A world where the other
 * player has no reply is won. */
static void other_turn(alpha_mu_t *s, int depth, mask_t hand, mask_t palette, mask_t other_palette, int rule,
                       mask_t played, worlds_t worlds, front_t *out) {
    reply_t *replies = malloc((size_t)popcount(worlds) * R7_MOST_TURN_PLANS * sizeof(reply_t));
    out->size = 0;
    if (!replies) {
        s->failed = 1;
        return;
    }
    int n = 0;
    for (worlds_t left = worlds; left; left &= left - 1) {
        int w = __builtin_ctzll(left);
        mask_t other_hand = s->hands[w] & ~played;
        r7_plan_t plans[R7_MOST_TURN_PLANS];
        int k = r7_plans(other_hand, other_palette, palette, rule, plans);
        for (int i = 0; i < k; i++)
            replies[n++] = (reply_t){(other_hand & ~plans[i].hand) | played, plans[i].palette, plans[i].rule, w};
    }
    qsort(replies, (size_t)n, sizeof(reply_t), reply_order);
    front_add(s, out, worlds);
    for (int i = 0, j; i < n && !s->failed; i = j) {
        worlds_t where = 0;
        for (j = i; j < n && same_reply(&replies[j], &replies[i]); j++)
            where |= (worlds_t)1 << replies[j].world;
        front_t child, product = {0};
        own_turn(s, depth, hand, palette, replies[i].palette, replies[i].rule, replies[i].played, where, &child);
        for (int a = 0; a < out->size; a++)
            for (int b = 0; b < child.size; b++) front_add(s, &product, out->won[a] & (child.won[b] | (worlds & ~where)));
        *out = product;
        if (out->size == 1 && !out->won[0]) break; /* every world lost already */
    }
    free(replies);
}

int r7_alpha_mu(r7_game *const *worlds, int n, int depth, long nodes, int16_t *plans, uint8_t *scores, int *searched) {
    end_t *ends = malloc(R7_MOST_PLANS * sizeof(end_t));
    int count = ends && n <= R7_ALPHA_MU_WORLDS ? plans_of_turn(worlds[0], plans, ends) : -1;
    alpha_mu_t *s = count >= 0 ? malloc(sizeof(alpha_mu_t)) : NULL;
    worlds_t *bound = s ? malloc((size_t)(count ? count : 1) * sizeof(worlds_t)) : NULL;
    int *order = bound ? malloc((size_t)(count ? count : 1) * sizeof(int)) : NULL;
    if (!order) count = -1;
    else *s = (alpha_mu_t){.last_node = ~0ULL};
    int other = worlds[0]->current == 0 ? 1 : 0;
    while (count >= 0 && !(worlds[0]->alive >> other & 1)) other++;
    for (int w = 0; count >= 0 && w < n; w++) s->hands[w] = worlds[w]->hands[other];
    worlds_t all = n == 64 ? ~(worlds_t)0 : ((worlds_t)1 << n) - 1;
    /* First each plan as PIMC values it (the turns after this one chosen as if the world
     * were known: depth 1), an upper bound on its value at any depth; then the plans at
     * `depth`, best bound first, until no bound is above the best value found. */
    for (int i = 0; count >= 0 && i < count; i++) {
        const end_t *e = &ends[i];
        front_t f;
        if (e->over) {
            bound[i] = e->won ? all : 0;
        } else {
            after_plan(s, 1, e->hand, e->palette, e->other_palette, e->rule, 0, all, &f);
            if (s->failed) count = -1;
            else bound[i] = f.won[0];
        }
        order[i] = i;
    }
    for (int i = 0; count >= 0 && i < count; i++) scores[i] = (uint8_t)popcount(bound[i]);
    for (int i = 1; count >= 0 && i < count; i++) { /* insertion sort by bound, stable */
        int k = order[i], j = i - 1;
        while (j >= 0 && scores[order[j]] < scores[k]) order[j + 1] = order[j], j--;
        order[j + 1] = k;
    }
    *searched = depth == 1;
    if (count >= 0 && depth > 1) {
        s->last_node = r7_solver_nodes() + (unsigned long long)nodes;
        int best = -1;
        for (int i = 0; i < count && !s->failed; i++) {
            const end_t *e = &ends[order[i]];
            if (scores[order[i]] < best) break; /* the rest keep their bounds, all below best */
            if (!e->over) {
                front_t f;
                after_plan(s, depth, e->hand, e->palette, e->other_palette, e->rule, 0, all, &f);
                int value = 0;
                for (int k = 0; k < f.size; k++) value = value > popcount(f.won[k]) ? value : popcount(f.won[k]);
                scores[order[i]] = (uint8_t)value;
            }
            best = best > scores[order[i]] ? best : scores[order[i]];
        }
        *searched = !s->failed;
        if (s->failed) /* given up: back to the bounds, every plan valued alike */
            for (int i = 0; i < count; i++) scores[i] = (uint8_t)popcount(bound[i]);
    }
    free(ends), free(s), free(bound), free(order);
    return count;
}
