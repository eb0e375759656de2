/* red7.bots.pimc in C: the exact value of each decision in a world,
 * red7.solver.solve(plans=False)'s values where the compiled solver answers (exact.h).
 * (The worlds of pimc's opponent model are inference.h's.)
 */
#ifndef RED7_PIMC_H
#define RED7_PIMC_H

#include "engine.h"

/* For the mover of `g` (at the start or after the play of its turn; two players left, no
 * action card, nothing to draw): each legal decision in `ids`, and in `won` whether the
 * mover still wins the round after it with perfect play. Returns how many, or -1 when
 * the solver's table cannot be made. */
int r7_turn_values(r7_game *g, int16_t *ids, uint8_t *won);

#define R7_PLAN_STEPS 4   /* decisions of a turn at most, where the solver answers (2 in fact) */
#define R7_MOST_PLANS 2048

/* The same for every plan of the mover to the end of its turn: each plan's decisions in
 * `plans` (R7_PLAN_STEPS ids a plan, -1 after its last) and in `won` whether it keeps
 * the round won. Returns how many, or -1 (no table, or more than R7_MOST_PLANS plans). */
int r7_plan_values(r7_game *g, int16_t *plans, uint8_t *won);

#endif
