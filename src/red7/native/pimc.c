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
