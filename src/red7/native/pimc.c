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

int r7_turn_values(r7_game *g, int16_t *ids, uint8_t *won) {
    int count = 0;
    return walk(g, g->current, g->rounds_played, ids, won, &count) < 0 ? -1 : count;
}
