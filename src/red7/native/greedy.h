/* greedy in C: red7.bots.greedy.GreedyBot (level medium) over compiled worlds.
 *
 * The same algorithm, step for step (see the bot's docstring): every sequence of the
 * mover's own decisions to the end of its turn is tried in a world sampled from what
 * the mover sees, each finished turn scored by the same evaluation; a line that draws
 * an unknown card is scored in every world and averaged; the first decision with the
 * best value wins, and a gamble (nothing safe) must beat conceding strictly. Given the
 * same worlds it returns the Python bot's decision (tests/native/test_native_greedy.py); the
 * worlds it samples itself come from r7_redeal, so only the random stream differs.
 */
#ifndef RED7_GREEDY_H
#define RED7_GREEDY_H

#include "engine.h"

#define R7_GREEDY_MAX_WORLDS 64

/* The decision of greedy for the mover of `worlds[0]`, searching `count` worlds (each a
 * complete game at the same decision point, as the mover could see it): the first for
 * every line, the others only for the lines that draw an unknown card. */
int r7_greedy_in(r7_game *const *worlds, int count);

/* The same with `worlds` worlds sampled from `g` for its mover (r7_redeal, from `rng`),
 * the first always (unless `sampled`: `g` is a sampled world already, the first), the
 * others only when a line first needs them; -1 when memory ran out. */
int r7_greedy(const r7_game *g, int worlds, mt_t *rng, int sampled);

/* The same among the legal decisions `choices` only (`n` of them, in increasing id
 * order), as the bot chooses among the options it is given; `gamble`: none of them is
 * safe, so conceding (if among them) wins ties. */
int r7_greedy_among(const r7_game *g, int worlds, mt_t *rng, int sampled, const int16_t *choices, int n, int gamble);

#endif
