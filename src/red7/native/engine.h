/* The compiled engine: a match of Red7 as red7.core.game.Game plays it (R2, R4-R8).
 *
 * A twin of the Python engine, for speed: the same position (red7.core.state.State
 * without the history and the event log), the same legal decisions with the same
 * safety marks (red7.core.turn.TurnSolver), the same effects of every decision. Chance
 * is never explicit here: a draw takes the top of the deck, and a round is dealt as
 * red7.core.seeds.round_rng deals it, so a seeded game deals the cards the Python
 * engine deals: from the SplitMix64 stream of the round's seed (r7_deal_splitmix64,
 * fast.h), or, for a game recorded before that generator, from a Mersenne Twister
 * seeded with the round's key (r7_deal, mt.h). When a round of a match ends, the
 * engine stops at R7_DEALING until the caller deals the next one.
 *
 * Pure C, no Python: tests/native/test_native.py compares it with the reference after every
 * decision of random games of every configuration.
 */
#ifndef RED7_ENGINE_H
#define RED7_ENGINE_H

#include <stdint.h>

#include "defs.h"
#include "mt.h"
#include "rules.h"

/* The steps (R7_START...), the decision ids (R7_PLAY...), the limits (R7_MAX_PLAYERS...),
 * the targets (r7_target) and the position's fields (R7_POSITION) are the Python engine's,
 * generated into defs.h by red7.core.native_defs. */
#define R7_MAX_LEGAL 128 /* the legal decisions of one decision point, at most */

typedef struct {
    int8_t winner, rule, points;
    mask_t scored;
} r7_round_t;

typedef struct {
    /* the configuration */
    int8_t players, advanced, actions;
    /* the position, as red7.core.state.State (what crosses the boundary: R7_POSITION) */
    mask_t hands[R7_MAX_PLAYERS], palettes[R7_MAX_PLAYERS], known[R7_MAX_PLAYERS];
    uint8_t deck[R7_CARDS]; /* top last */
    int8_t deck_size, deck_known;
    uint8_t canvas[R7_CARDS]; /* above the Red start card, top last */
    int8_t canvas_size, rule;
    mask_t out, out_known, out_own[R7_MAX_PLAYERS];
    mask_t piles[R7_MAX_PLAYERS];
    int16_t scores[R7_MAX_PLAYERS];
    uint8_t alive; /* bit per seat */
    int8_t current, step, pending; /* pending: the 7 being resolved, -1 for none */
    int16_t round;
    int32_t turns, decisions;
    uint8_t winners; /* bit per seat, once the game is over */
    int16_t rounds_played;
    r7_round_t results[R7_MAX_ROUNDS]; /* red7.core.model.RoundResult of each round */
    /* the legal decisions of the current decision point (valid while legal_ready) */
    int8_t legal_ready;
    int16_t legal_count;
    int16_t legal[R7_MAX_LEGAL];
    uint8_t safe[R7_MAX_LEGAL];
} r7_game;

/* A match before its first deal (round 0, step R7_DEALING). */
void r7_init(r7_game *g, int players, int advanced, int actions);
/* Deal the next round from the cards not in a score pile, shuffled by the SplitMix64
 * stream of `seed` (the round's seed, red7.core.seeds.deal_key), and begin its first turn. */
void r7_deal_splitmix64(r7_game *g, uint64_t seed);
/* The same, shuffled by the Mersenne Twister of `key` (the round's key of a game dealt
 * by CPython's random.Random, record format version 1; see mt.h). */
void r7_deal(r7_game *g, const uint32_t *key, int key_length);
/* The same in two halves, for another shuffle: the round's cards, lowest first (returns
 * how many), then the deal of those cards once shuffled (the deck's top last). */
int r7_round_cards(const r7_game *g, uint8_t *deck);
void r7_deal_shuffled(r7_game *g, const uint8_t *deck, int size);
/* The legal decisions and their safety marks (R4.7), in increasing id order; computed
 * once per decision point. Nothing is legal when the game is over or waits for a deal. */
void r7_legal(r7_game *g);
/* Is `id` legal now? */
int r7_is_legal(r7_game *g, int id);
/* Carry out a legal decision (an illegal one corrupts the game: check it first). */
void r7_apply(r7_game *g, int id);
/* Game.safe_or_concede_ids: the safe decisions, or concede alone when none is safe;
 * writes them into `out` (room for R7_MAX_LEGAL) and returns how many. */
int r7_safe_or_concede(r7_game *g, int16_t *out);
/* The random player of red7.bots.random_bot: uniform among the safe decisions, or
 * concede when none is safe, chosen by `u`, a draw of random() in [0, 1). */
int r7_random_decision(r7_game *g, double u);
/* Is `g` a position where a player decides that the rules could have reached? The one
 * check of every position the engine is given rather than deals itself (Engine.load, the
 * deals of r7_replayed): the rules of red7.core.game.Game.from_position (every card in one
 * place at most, the known hand cards in their hands, the known top of the deck within
 * it, two players or more in the round, the one to move among them) and the invariants
 * the rules keep (the rule is the canvas top's colour, a score is its pile's value, the
 * cards of a seat out of the round are face down, a pending 7 only at step seven, the
 * steps of the action rules and of the advanced draw only in games that have them, R8.6's
 * bound on the rounds). Every decision of such a position leaves one such, so the engine
 * needs no check per decision: its arrays hold all 49 cards at most, and a turn always
 * finds the next player. Returns NULL when it is one, else `why` (room for
 * R7_WHY_ROOM characters) holding a sentence that says what is wrong. */
#define R7_WHY_ROOM 160
const char *r7_check(const r7_game *g, char *why);
/* After the position was written field by field: eliminate `seat` (R6.1), as
 * Game.from_position does for the seats it is given out of the round. */
void r7_eliminate(r7_game *g, int seat);
/* A world of red7.core.worlds, sampled from another: every card `viewer` cannot see (the
 * other hands but their cards seen drawn, the unknown part of the deck, the face-down
 * cards out of the round that `viewer` does not know) is dealt again at random into the
 * same places, each keeping its size. The other seats' own knowledge of the face-down
 * cards is dropped, as a sampled world has none. */
void r7_redeal(r7_game *g, int viewer, mt_t *rng);
/* red7.envs.encoding.encode of what `seat` sees (R9), into out[873] (vector.c) */
void r7_encode(const r7_game *g, int seat, int8_t *out);
/* Begin `seat`'s turn (an empty hand eliminates at once, R4.1). */
void r7_begin_turn(r7_game *g, int seat);

#endif
