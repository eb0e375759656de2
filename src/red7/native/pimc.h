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

#define R7_ALPHA_MU_WORLDS 64

/* αμ (Cazenave & Ventos, "The αμ search algorithm for the game of Bridge", 2019) for the
 * mover of worlds[0], in the n <= R7_ALPHA_MU_WORLDS worlds given (the same position but
 * for the other player's hand; two players left, nothing to draw, no action card): the
 * mover chooses each of its next `depth` turns knowing only which worlds are still
 * possible (those in which the other player's replies were legal), the other player sees
 * its world, and after those turns every world is solved exactly. Depth 1 is PIMC: the
 * turns after this one chosen as if the world were known.
 * Writes the mover's plans to the end of this turn as r7_plan_values does and, in
 * `scores`, how many worlds each keeps won: exact for the plans searched, and for the
 * others (whose depth-1 value is below the best found, so none is better) their depth-1
 * value. When the search at `depth` needs more than `nodes` positions of the solver, or
 * a front grows too large, it gives up: every score is then the depth-1 value and
 * `*searched` is 0 (else 1). Returns how many plans; -1 without memory or with more
 * plans than R7_MOST_PLANS. */
int r7_alpha_mu(r7_game *const *worlds, int n, int depth, long nodes, int16_t *plans, uint8_t *scores, int *searched);

#endif
