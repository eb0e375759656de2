/* A fast seeded stream for simulations that need not match Python's random.Random:
 * SplitMix64 (Steele, Lea & Flood, 2014), which passes BigCrush, seeds in one step and
 * draws in a few instructions. The compiled random games use it with fast=True. */
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
