/* red7.bots.pimc in C: worlds that explain what the other players did, and the exact
 * value of each decision in a world.
 *
 * r7_explained is the sampler of pimc's opponent model (model=1): it deals the cards
 * the viewer has not seen into a round's first position at random, replays the round's
 * decisions, and keeps the worlds in which greedy (greedy.h) would have made every
 * decision the other players made. r7_turn_values is red7.solver.solve(plans=False)'s
 * values where the compiled solver answers (exact.h).
 */
#ifndef RED7_PIMC_H
#define RED7_PIMC_H

#include "engine.h"

/* Worlds for `viewer` explained by greedy's model. `start` is the round's first decision
 * point with the viewer's hand, the palettes, and in each other hand the cards its player
 * is known to have held; `pool` (`pool_size` cards) the cards the viewer has not seen,
 * `need[seat]` of them to be dealt into each other hand, the rest into the deck. Each try
 * deals them from `rng`, replays `history` (the round's decisions), and keeps the world
 * reached when greedy, in each other player's place, would have decided as it did. Stops
 * after `worlds` kept worlds, written to `out`, or `tries` tries (`*tried` gets how many);
 * returns the worlds kept, or -1 when memory ran out. */
int r7_explained(const r7_game *start, int viewer, const uint8_t *pool, int pool_size, const int8_t *need,
                 const int16_t *history, int history_count, int worlds, long tries, mt_t *rng, r7_game *out,
                 long *tried);

/* For the mover of `g` (at the start or after the play of its turn; two players left, no
 * action card, nothing to draw): each legal decision in `ids`, and in `won` whether the
 * mover still wins the round after it with perfect play. Returns how many, or -1 when
 * the solver's table cannot be made. */
int r7_turn_values(r7_game *g, int16_t *ids, uint8_t *won);

#endif
