/* The exact solver of _core.c seen from the other C files: red7.solver.exact.won. */
#ifndef RED7_EXACT_H
#define RED7_EXACT_H

#include "rules.h"

/* Is the turn start won for the player holding `hand` with `palette`, against the other
 * player's `other_hand` and `other_palette`, under `rule` (no action cards, nothing left
 * to draw; at most 10 cards a hand)? -1 when the transposition table cannot be made. */
int r7_won(mask_t hand, mask_t palette, mask_t other_hand, mask_t other_palette, int rule);

typedef struct {
    mask_t hand, palette;
    int rule;
} r7_plan_t; /* where a legal plan leaves its player */

#define R7_MOST_CARDS 10                                  /* in a hand; r7_won refuses more */
#define R7_MOST_TURN_PLANS (R7_MOST_CARDS * (R7_MOST_CARDS + 1)) /* h plays, h canvases, h (h - 1) both */

#endif
