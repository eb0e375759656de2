/* The rules' keys (R3), shared by every part of red7.native._core.
 *
 * Cards are bits 0..48 of a mask, card index = (value - 1) * 7 + (6 - colour), so a
 * higher index is a higher card (red7.core.cards). A palette's key under a rule is
 * size of the qualifying set << 6 | (its highest card + 1), 0 when it is empty, as in
 * red7.core.rules: the remaining player with the largest key is winning (R3.1).
 */
#ifndef RED7_RULES_H
#define RED7_RULES_H

#include <stdint.h>

#include "defs.h"

typedef uint64_t mask_t;

#define ALL_CARDS ((((mask_t)1) << R7_CARDS) - 1)

extern mask_t COLOUR_MASK[7]; /* the seven cards of each colour */
extern mask_t EVEN_MASK;      /* values 2, 4, 6 */
extern mask_t BELOW4_MASK;    /* values 1, 2, 3 */
extern uint8_t RUN_LENGTH[128], RUN_TOP[128]; /* longest run of a 7-bit value set */

static inline int bitlen(mask_t m) { return m ? 64 - __builtin_clzll(m) : 0; }
static inline int popcount(mask_t m) { return __builtin_popcountll(m); }

void red7_init_tables(void); /* fills the tables above; called once by the module */

static inline int colour_of(int card) { return 6 - card % 7; }
static inline int value_of(int card) { return card / 7 + 1; }
static inline mask_t top_card(mask_t m) { return m ? (mask_t)1 << (bitlen(m) - 1) : 0; }

static inline int colours_present(mask_t m) {
    int bits = 0;
    for (int c = 0; c < 7; c++)
        if (m & COLOUR_MASK[c]) bits |= 1 << c;
    return bits;
}

static inline int values_present(mask_t m) {
    int bits = 0;
    for (int v = 0; v < 7; v++)
        if (m >> (7 * v) & 127) bits |= 1 << v;
    return bits;
}

/* key = size of the qualifying set << 6 | (its highest card + 1); 0 if it is empty */
static inline int rule_key(int rule, mask_t m) {
    int best = 0, k;
    mask_t g;
    switch (rule) {
    case 0: /* red: the highest card */
        return m ? 64 | bitlen(m) : 0;
    case 1: /* orange: the most cards of one number */
        for (int v = 0; v < 7; v++) {
            g = m >> (7 * v) & 127;
            if (g && (k = popcount(g) << 6 | (7 * v + bitlen(g))) > best) best = k;
        }
        return best;
    case 2: /* yellow: the most cards of one colour */
        for (int c = 0; c < 7; c++) {
            g = m & COLOUR_MASK[c];
            if (g && (k = popcount(g) << 6 | bitlen(g)) > best) best = k;
        }
        return best;
    case 3: /* green: the most even cards */
        g = m & EVEN_MASK;
        return popcount(g) << 6 | bitlen(g);
    case 4: /* blue: the most different colours */
        return popcount((mask_t)colours_present(m)) << 6 | bitlen(m);
    case 5: { /* indigo: the longest run of consecutive numbers */
        if (!m) return 0;
        int present = values_present(m), top = RUN_TOP[present];
        return RUN_LENGTH[present] << 6 | (7 * top + bitlen(m >> (7 * top) & 127));
    }
    default: /* violet: the most cards below 4 */
        g = m & BELOW4_MASK;
        return popcount(g) << 6 | bitlen(g);
    }
}

/* The qualifying set of palette `m` under `rule` (R3 table; also its scoring set, R8.2),
 * as red7.core.rules.qualifying_mask. */
static inline mask_t qualifying_mask(int rule, mask_t m) {
    int k, top;
    mask_t out = 0;
    switch (rule) {
    case 0:
        return top_card(m);
    case 1:
        if (!(k = rule_key(1, m))) return 0;
        top = (k & 63) - 1;
        return m & ((mask_t)127 << (top / 7 * 7));
    case 2:
        if (!(k = rule_key(2, m))) return 0;
        top = (k & 63) - 1;
        return m & COLOUR_MASK[6 - top % 7];
    case 3:
        return m & EVEN_MASK;
    case 4:
        for (int c = 0; c < 7; c++) out |= top_card(m & COLOUR_MASK[c]);
        return out;
    case 5: {
        if (!m) return 0;
        int present = values_present(m), length = RUN_LENGTH[present];
        top = RUN_TOP[present];
        for (int v = top - length + 1; v <= top; v++) out |= top_card(m & ((mask_t)127 << (7 * v)));
        return out;
    }
    default:
        return m & BELOW4_MASK;
    }
}

#endif
