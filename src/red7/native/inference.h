/* red7.bots.inference in C: worlds dealt into the round's first position, replayed, and
 * judged by how well greedy (greedy.h) explains what the other players did.
 *
 * The caller (red7.bots.inference.round_past) describes the round as the viewer knows
 * it: the first position without its hands and deck (`start`), the cards each seat must
 * have held (every card it played from its hand, by the decision that played it; the
 * viewer's hand besides), where a hand could hold them (the deal's cards, and each
 * unseen draw from the decision that drew it on), and the cards nobody has seen
 * (`pool`). A try places each required card in one of its seat's places that existed
 * before the decision that played it, uniformly at random in the order of those
 * decisions (the places open to a later card include those open to an earlier one, so
 * this is uniform over the deals consistent with the decisions), deals the pool into the
 * places left and the rest of the deck, replays the round, and counts the decisions of
 * the other seats that greedy, in their place, would have made otherwise.
 */
#ifndef RED7_INFERENCE_H
#define RED7_INFERENCE_H

#include "engine.h"

#define R7_NO_DEADLINE 0x7fffffff /* a required card not played: the viewer's hand */

typedef struct {
    int8_t seat;
    uint8_t card;
    int32_t deadline; /* the index (in the round) of the decision that played it */
} r7_required;

typedef struct {
    const r7_game *start;     /* the round's first position, hands and deck empty */
    int viewer;
    const int8_t *dealt;      /* per seat, the hand's size at the deal */
    const int32_t *draw_at;   /* the unseen draws, in order: the index of the decision */
    const int8_t *draw_seat;  /* ...and the seat that drew */
    int draws;
    const r7_required *required; /* in increasing deadline */
    int required_count;
    const uint8_t *pool;      /* the cards nobody has seen */
    int pool_size;
    const int16_t *history;   /* the round's decisions */
    int history_count;
} r7_past;

/* Tries deals of `past` (at most `tries`, `*tried` gets how many) until `worlds` replayed
 * worlds whose other seats' decisions greedy explains but for at most `most` of them are
 * written to `out`, with those counts in `mismatches`; returns how many, or -1 when
 * memory ran out. `*broken` counts deals whose replay met an illegal decision (a caller's
 * mistake: it must stay 0). `*judged` counts greedy's judgements of a decision (the work:
 * a deal of a long round with many players costs many); with `judgements` > 0 no deal
 * starts once that many were made, a deterministic budget of work (0: none). */
int r7_replayed(const r7_past *past, int most, int worlds, long tries, long judgements, mt_t *rng, r7_game *out,
                int *mismatches, long *tried, long *broken, long *judged);

#endif
