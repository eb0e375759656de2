/* red7.bots.pimc in C (see pimc.h). */
#include "pimc.h"

#include "exact.h"
#include "greedy.h"

#include <stddef.h>

/* greedy's worlds when it judges a decision of the other players (no more are sampled
 * unless a line draws an unknown card: the same as the bot's default) */
#define MODEL_WORLDS 8

/* replay `history` from `g`; 1 when every decision of a seat but `viewer` is greedy's */
static int explains(r7_game *g, int viewer, const int16_t *history, int count, mt_t *rng) {
    for (int i = 0; i < count; i++) {
        int id = history[i];
        if (g->step >= R7_OVER || !r7_is_legal(g, id)) return 0;
        if (g->current != viewer && r7_greedy(g, MODEL_WORLDS, rng, 0) != id) return 0;
        r7_apply(g, id);
    }
    return 1;
}

int r7_explained(const r7_game *start, int viewer, const uint8_t *pool, int pool_size, const int8_t *need,
                 const int16_t *history, int history_count, int worlds, long tries, mt_t *rng, r7_game *out,
                 long *tried) {
    uint8_t cards[49];
    int kept = 0;
    long made = 0;
    while (kept < worlds && made < tries) {
        made++;
        for (int i = 0; i < pool_size; i++) cards[i] = pool[i];
        mt_shuffle(rng, cards, pool_size);
        r7_game *g = &out[kept];
        *g = *start;
        int k = 0;
        for (int seat = 0; seat < g->players; seat++)
            for (int n = seat == viewer ? 0 : need[seat]; n > 0; n--) g->hands[seat] |= (mask_t)1 << cards[k++];
        g->deck_size = (int8_t)(pool_size - k);
        for (int i = 0; k < pool_size; i++) g->deck[i] = cards[k++];
        g->legal_ready = 0;
        if (explains(g, viewer, history, history_count, rng)) kept++;
    }
    *tried = made;
    return kept;
}

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
