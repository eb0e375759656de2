/* The exact solver (exact.c): red7.solver.exact.won and _children, for _core.c's Python
 * functions and for the sampled worlds' plan values (pimc.c). */
#ifndef RED7_EXACT_H
#define RED7_EXACT_H

#include "rules.h"

/* Is the turn start won for the player holding `hand` with `palette`, against the other
 * player's `other_hand` and `other_palette`, under `rule` (no action cards, nothing left
 * to draw; at most 10 cards a hand)? -1 when the transposition table cannot be made. */
int r7_won(mask_t hand, mask_t palette, mask_t other_hand, mask_t other_palette, int rule);

/* Empty r7_won's transposition table (red7.native._core.clear_table). */
void r7_clear_table(void);

/* How many positions r7_won's table holds (red7.native._core.table_size). */
long long r7_table_size(void);

typedef struct {
    mask_t hand, palette;
    int rule;
} r7_plan_t; /* where a legal plan leaves its player */

#define R7_MOST_CARDS 10                                  /* in a hand; r7_won refuses more */
#define R7_MOST_TURN_PLANS (R7_MOST_CARDS * (R7_MOST_CARDS + 1)) /* h plays, h canvases, h (h - 1) both */

/* Where the legal plans of a turn leave the player holding `hand` with `palette` against
 * the other palette `other` under `rule` (the plans that end it winning; none: it is out),
 * as red7.solver.exact._children, into `out` (room for R7_MOST_TURN_PLANS). Returns how many
 * (red7.native._core.children). */
int r7_plans(mask_t hand, mask_t palette, mask_t other, int rule, r7_plan_t *out);

#endif
