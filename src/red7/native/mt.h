/* CPython's random.Random, bit for bit: the Mersenne Twister MT19937 seeded as
 * Random.seed seeds it, and the draws red7 makes from it (random(), shuffle()).
 *
 * Two things still need it. Games recorded before red7 dealt from SplitMix64 (record
 * format version 1, and the web server's games stored then) were shuffled by
 * Random(seed) for round 1 and Random("red7:{seed}:{r - 1}") for round r (red7.core.seeds):
 * the compiled engine reproduces those deals (r7_deal), so such a game goes on through
 * either engine. And the compiled searches draw their own choices from it (mt_t), as the
 * Python bots draw from random.Random. New games deal from fast.h.
 * Random.seed(n) for an int n is init_by_array on the 32-bit words of abs(n), least
 * significant first ([0] for n = 0); a str seed is first turned into an int (version
 * 2: its UTF-8 bytes followed by their SHA-512), which the Python side does (the key
 * words reach C as a list).
 */
#ifndef RED7_MT_H
#define RED7_MT_H

#include <stdint.h>

#define MT_N 624
#define MT_M 397

typedef struct {
    uint32_t state[MT_N];
    int index;
} mt_t;

static inline void mt_init_genrand(mt_t *mt, uint32_t s) {
    uint32_t *m = mt->state;
    m[0] = s;
    for (int i = 1; i < MT_N; i++) m[i] = 1812433253U * (m[i - 1] ^ (m[i - 1] >> 30)) + (uint32_t)i;
    mt->index = MT_N;
}

/* init_by_array of CPython's _randommodule.c */
static inline void mt_seed_key(mt_t *mt, const uint32_t *key, int length) {
    uint32_t *m = mt->state;
    mt_init_genrand(mt, 19650218U);
    int i = 1, j = 0;
    for (int k = MT_N > length ? MT_N : length; k; k--) {
        m[i] = (m[i] ^ ((m[i - 1] ^ (m[i - 1] >> 30)) * 1664525U)) + key[j] + (uint32_t)j;
        i++, j++;
        if (i >= MT_N) m[0] = m[MT_N - 1], i = 1;
        if (j >= length) j = 0;
    }
    for (int k = MT_N - 1; k; k--) {
        m[i] = (m[i] ^ ((m[i - 1] ^ (m[i - 1] >> 30)) * 1566083941U)) - (uint32_t)i;
        i++;
        if (i >= MT_N) m[0] = m[MT_N - 1], i = 1;
    }
    m[0] = 0x80000000U;
}

/* Random(n) for 0 <= n < 2**64 */
static inline void mt_seed_u64(mt_t *mt, uint64_t n) {
    uint32_t key[2] = {(uint32_t)n, (uint32_t)(n >> 32)};
    mt_seed_key(mt, key, key[1] ? 2 : 1);
}

/* The next 32-bit output. The generator's block step (the "twist" of all 624 words at
 * once) is done one word at a time, when that word is needed: word k's new value reads
 * old words k, k + 1 and k + 397 (or new word k - 227), so updating the words in order,
 * lazily, gives the same words, and a game that draws a few dozen numbers does not pay
 * for 624. */
static inline uint32_t mt_next(mt_t *mt) {
    uint32_t *m = mt->state;
    int k = mt->index;
    if (k >= MT_N) k = 0;
    uint32_t y = (m[k] & 0x80000000U) | (m[k + 1 < MT_N ? k + 1 : 0] & 0x7fffffffU);
    m[k] = m[k + MT_M < MT_N ? k + MT_M : k + MT_M - MT_N] ^ (y >> 1) ^ (y & 1 ? 0x9908b0dfU : 0);
    mt->index = k + 1;
    y = m[k];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= y >> 18;
    return y;
}

/* Random.random(): 53 random bits in [0, 1) */
static inline double mt_random(mt_t *mt) {
    uint32_t a = mt_next(mt) >> 5, b = mt_next(mt) >> 6;
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
}

/* Random._randbelow(n) for 1 <= n < 2**32: getrandbits(n.bit_length()) until below n */
static inline uint32_t mt_below(mt_t *mt, uint32_t n) {
    int k = 32 - __builtin_clz(n);
    uint32_t r;
    do r = mt_next(mt) >> (32 - k);
    while (r >= n);
    return r;
}

/* Random.shuffle's loop over a list of bytes, `below(state, n)` drawing below n: the
 * one shuffle of every stream (mt_shuffle here, fast_shuffle in fast.h) */
static inline void shuffle_bytes(uint8_t *x, int length, uint32_t (*below)(void *, uint32_t), void *state) {
    for (int i = length - 1; i > 0; i--) {
        int j = (int)below(state, (uint32_t)i + 1);
        uint8_t t = x[i];
        x[i] = x[j], x[j] = t;
    }
}

static inline uint32_t mt_below_of(void *mt, uint32_t n) { return mt_below(mt, n); }

/* Random.shuffle(x) of a list of bytes */
static inline void mt_shuffle(mt_t *mt, uint8_t *x, int length) { shuffle_bytes(x, length, mt_below_of, mt); }

#endif
