/* ISMCTS in C: red7.bots.ismcts.ISMCTSBot's search over compiled worlds.
 *
 * The same algorithm as the Python bot, step for step (see its module docstring): each
 * iteration deals a world from the template (r7_redeal; the first iteration plays the
 * template itself), descends one tree of public decisions by UCB1 with availability
 * counts over the same candidates (the safe decisions, or all when none is safe, plus
 * concede at a turn's start in the advanced game, plus the caller's extra decisions at the
 * root), expands the first untried one, plays random players to the end of the round,
 * and backs up every player's value (max-n): the winners' share when the game ends, else
 * softmax(4 * score / target) of the scores after the round. Only the random stream
 * differs: one Mersenne Twister for the whole search.
 */
#ifndef RED7_SEARCH_H
#define RED7_SEARCH_H

#include "engine.h"

typedef struct {
    int16_t action;
    uint32_t visits;
    double total; /* summed value of the player who made the decision */
} r7_root_child;

/* Search from `template` for `viewer` (the mover) until a budget is spent: `iterations`,
 * `steps` (decisions simulated in the tree and the rollouts) or `seconds` (each 0 for
 * none; at least one given). Writes the root's children, in the order they were first
 * met, into `out` (room for R7_MAX_LEGAL + `extra_count`) and returns how many, or -1
 * when memory ran out; `*done` gets the iterations made. With a `pool` of `pool_size`
 * worlds (the opponent model's, inference.h), iteration i plays world i mod pool_size
 * instead. */
int r7_ismcts(const r7_game *template, int viewer, uint64_t seed, long iterations, long steps, double seconds,
              double c, const int16_t *extra, int extra_count, const r7_game *pool, int pool_size,
              r7_root_child *out, long *done);

#endif
