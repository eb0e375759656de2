/* red7.bots.pimc in C (see pimc.h). */
#include "pimc.h"

#include "exact.h"
#include <stddef.h>

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

/* the value for `me` where a turn ended in `child`, -1 without memory */
static int ended(const r7_game *child, int me, int rounds) {
    if (child->rounds_played > rounds) return child->results[rounds].winner == me;
    int other = child->current, value = r7_won(child->hands[other], child->palettes[other], child->hands[me],
                                               child->palettes[me], child->rule);
    return value < 0 ? -1 : !value;
}

typedef struct {
    int me, rounds, count;
    int16_t path[R7_PLAN_STEPS];
    int16_t *plans;
    uint8_t *won;
} plans_t;

static int plans_from(const r7_game *g, plans_t *p, int depth) {
    r7_game node = *g;
    r7_legal(&node);
    for (int i = 0; i < node.legal_count; i++) {
        r7_game child = node;
        r7_apply(&child, node.legal[i]);
        p->path[depth] = node.legal[i];
        if (child.rounds_played > p->rounds || child.current != p->me || depth + 1 == R7_PLAN_STEPS) {
            int value = ended(&child, p->me, p->rounds);
            if (value < 0 || p->count == R7_MOST_PLANS) return -1;
            for (int k = 0; k < R7_PLAN_STEPS; k++) p->plans[p->count * R7_PLAN_STEPS + k] = k <= depth ? p->path[k] : -1;
            p->won[p->count++] = (uint8_t)value;
        } else if (plans_from(&child, p, depth + 1) < 0) {
            return -1;
        }
    }
    return 0;
}

int r7_plan_values(r7_game *g, int16_t *plans, uint8_t *won) {
    plans_t p = {g->current, g->rounds_played, 0, {0}, plans, won};
    return plans_from(g, &p, 0) < 0 ? -1 : p.count;
}

int r7_turn_values(r7_game *g, int16_t *ids, uint8_t *won) {
    int count = 0;
    return walk(g, g->current, g->rounds_played, ids, won, &count) < 0 ? -1 : count;
}
