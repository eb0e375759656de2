/* The random stream of red7, SplitMix64 (Steele, Lea & Flood, 2014): it passes BigCrush,
 * seeds in one step and draws in a few instructions. Defined in red7.core.stream (its
 * docstring is the definition, with test vectors); this is the same generator in C, and
 * tests/core/test_stream.py checks that both give the same draws, bounded draws and shuffles.
 * Every game is dealt from it (round r of the game of seed s from the stream of
 * fast_split(s, r), red7.core.seeds), the random players of red7 sim draw from the
 * stream of fast_split(s, 0), and the vector environment's games from streams of their own. */
#ifndef RED7_FAST_H
#define RED7_FAST_H

#include <stdint.h>

#include "mt.h" /* shuffle_bytes */

static inline uint64_t fast_next(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* mix(seed + k * GAMMA): the k-th draw of the stream of `seed` (k >= 1) in one step,
 * the seed of a game's substream k (red7.core.stream.split) */
static inline uint64_t fast_split(uint64_t seed, uint64_t k) {
    uint64_t state = seed + (k - 1) * 0x9E3779B97F4A7C15ULL;
    return fast_next(&state);
}

/* in [0, 1), 53 bits */
static inline double fast_random(uint64_t *state) { return (double)(fast_next(state) >> 11) * (1.0 / 9007199254740992.0); }

/* uniform below n (Lemire's multiply-shift; the bias is below 2**-58 for n <= 49) */
static inline uint32_t fast_below(uint64_t *state, uint32_t n) {
    return (uint32_t)(((unsigned __int128)fast_next(state) * n) >> 64);
}

static inline uint32_t fast_below_of(void *state, uint32_t n) { return fast_below(state, n); }

/* a Fisher-Yates shuffle, in Random.shuffle's order */
static inline void fast_shuffle(uint64_t *state, uint8_t *x, int length) {
    shuffle_bytes(x, length, fast_below_of, state);
}

#endif
