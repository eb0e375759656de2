/* red7.bots.inference in C (see inference.h). */
#include "inference.h"

#include <string.h>

#include "greedy.h"

#define MODEL_WORLDS 8 /* greedy's worlds when it judges a decision: the medium level's */
#define MOST_SLOTS 64  /* places a hand's cards came from in a round: 7 dealt, and the draws */

typedef struct {
    int32_t at; /* the decision that drew into it; -1 for the deal */
    int16_t card;
} slot_t;

/* One deal of `p` into g (see inference.h); 0 when no deal fits (the caller's mistake). */
static int deal(const r7_past *p, mt_t *rng, r7_game *g) {
    int n = p->start->players, count[R7_MAX_PLAYERS] = {0}, draw_slot[R7_CARDS];
    slot_t slots[R7_MAX_PLAYERS][MOST_SLOTS];
    for (int s = 0; s < n; s++)
        while (count[s] < p->dealt[s]) slots[s][count[s]++] = (slot_t){-1, -1};
    for (int d = 0; d < p->draws; d++) {
        int s = p->draw_seat[d];
        if (count[s] == MOST_SLOTS) return 0;
        draw_slot[d] = count[s];
        slots[s][count[s]++] = (slot_t){p->draw_at[d], -1};
    }
    for (int r = 0; r < p->required_count; r++) { /* in increasing deadline: uniform over the fits */
        const r7_required *q = &p->required[r];
        int open[MOST_SLOTS], k = 0;
        for (int i = 0; i < count[q->seat]; i++)
            if (slots[q->seat][i].card < 0 && slots[q->seat][i].at < q->deadline) open[k++] = i;
        if (!k) return 0;
        slots[q->seat][open[mt_below(rng, (uint32_t)k)]].card = q->card;
    }
    uint8_t pool[R7_CARDS];
    memcpy(pool, p->pool, (size_t)p->pool_size);
    mt_shuffle(rng, pool, p->pool_size);
    int used = 0;
    for (int s = 0; s < n; s++)
        for (int i = 0; i < count[s]; i++)
            if (slots[s][i].card < 0) {
                if (s == p->viewer || used == p->pool_size) return 0; /* the viewer's cards are all known */
                slots[s][i].card = pool[used++];
            }
    *g = *p->start;
    for (int s = 0; s < n; s++)
        for (int i = 0; i < count[s]; i++)
            if (slots[s][i].at < 0) g->hands[s] |= (mask_t)1 << slots[s][i].card;
    int rest = p->pool_size - used; /* the deck: the rest of the pool under the cards drawn, the first on top */
    if (rest + p->draws > R7_CARDS) return 0;
    memcpy(g->deck, pool + used, (size_t)rest);
    for (int d = 0; d < p->draws; d++) g->deck[rest + p->draws - 1 - d] = (uint8_t)slots[p->draw_seat[d]][draw_slot[d]].card;
    g->deck_size = (int8_t)(rest + p->draws);
    g->deck_known = 0;
    g->legal_ready = 0;
    char why[R7_WHY_ROOM];
    return r7_check(g, why) == NULL; /* the one check of a position the engine did not deal itself */
}

/* Replay the round in g: 1 when greedy explains the other seats' decisions but for at most
 * `most` (counted in *mismatches), 0 when it does not, -1 at an illegal decision */
static int replay(const r7_past *p, r7_game *g, int most, mt_t *rng, int *mismatches, long *judged) {
    int m = 0;
    for (int i = 0; i < p->history_count; i++) {
        int id = p->history[i];
        if (g->step >= R7_OVER || !r7_is_legal(g, id)) return -1;
        if (g->current != p->viewer && (++*judged, r7_greedy(g, MODEL_WORLDS, rng, 0) != id) && ++m > most) return 0;
        r7_apply(g, id);
    }
    *mismatches = m;
    return 1;
}

int r7_replayed(const r7_past *past, int most, int worlds, long tries, long judgements, mt_t *rng, r7_game *out,
                int *mismatches, long *tried, long *broken, long *judged) {
    int kept = 0;
    long made = 0, bad = 0;
    *judged = 0;
    while (kept < worlds && made < tries && (judgements <= 0 || *judged < judgements)) {
        made++;
        if (!deal(past, rng, &out[kept])) {
            bad++;
            continue;
        }
        int verdict = replay(past, &out[kept], most, rng, &mismatches[kept], judged);
        if (verdict > 0) kept++;
        else if (verdict < 0) bad++;
    }
    *tried = made, *broken = bad;
    return kept;
}
