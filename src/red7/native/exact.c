/* The exact solver (exact.h): red7.solver.exact's turn plans and search, in C. Pure C,
 * no Python: red7.native._core's children, won, clear_table and table_size (_core.c)
 * are its Python face, and the sampled worlds' plan values (pimc.c) call it too.
 *
 * Its transposition table is one for the process, made at the first solve: the module
 * holds the GIL throughout, so one call at a time uses it. */
#include "exact.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* --- the plans of a turn ---------------------------------------------------------- */

typedef r7_plan_t plan_t;

#define MOST_CARDS R7_MOST_CARDS /* in a hand (7 in a game: the deal); won() refuses more */
#define MOST_PLANS R7_MOST_TURN_PLANS

/* Where the legal plans leave the player holding `hand` with `palette` against the
 * other palette `other` under `rule`: the plans spending one card (a play, then the
 * canvases), then those spending two, in red7.solver.exact._children's order. */
static int plans_of(mask_t hand, mask_t palette, mask_t other, int rule, plan_t *out) {
    int theirs[7] = {0};
    int colours = colours_present(hand) | 1 << rule;
    for (int r = 0; r < 7; r++)
        if (colours >> r & 1) theirs[r] = rule_key(r, other);
    plan_t doubles[MOST_PLANS];
    int n = 0, d = 0;
    for (int p = -1; p < R7_CARDS; p++) {
        mask_t m, h;
        int two = p >= 0;
        if (two) {
            mask_t bit = (mask_t)1 << p;
            if (!(hand & bit)) continue;
            m = palette | bit, h = hand & ~bit;
            if (rule_key(rule, m) > theirs[rule]) out[n++] = (plan_t){h, m, rule};
        } else {
            m = palette, h = hand;
        }
        int left = colours_present(h);
        for (int colour = 0; colour < 7; colour++) {
            if (!(left >> colour & 1) || rule_key(colour, m) <= theirs[colour]) continue;
            for (mask_t cards = h & COLOUR_MASK[colour]; cards; cards &= cards - 1) {
                plan_t plan = {h & ~(cards & -cards), m, colour};
                if (two) doubles[d++] = plan;
                else out[n++] = plan;
            }
        }
    }
    memcpy(out + n, doubles, (size_t)d * sizeof(plan_t));
    return n + d;
}

int r7_plans(mask_t hand, mask_t palette, mask_t other, int rule, r7_plan_t *out) {
    return plans_of(hand, palette, other, rule, out);
}

/* --- the transposition table ------------------------------------------------------ */

typedef struct {
    mask_t tag; /* hand | rule << 49 | 1 << 63 (a used entry), 0 when empty */
    mask_t palette, other_hand, other_palette;
    uint8_t won;
} entry_t;

#define TABLE_BITS 20 /* 1 M entries, 40 MB: allocated at the first solve */
static entry_t *table = NULL;
static long long table_used = 0; /* entries in use */

static inline size_t slot_of(mask_t tag, mask_t palette, mask_t other_hand, mask_t other_palette) {
    mask_t h = tag * 0x9E3779B97F4A7C15ULL ^ palette * 0xC2B2AE3D27D4EB4FULL ^ other_hand * 0x165667B19E3779F9ULL ^
               other_palette * 0x27D4EB2F165667C5ULL;
    h ^= h >> 29;
    return (size_t)(h & ((1u << TABLE_BITS) - 1));
}

static inline mask_t tag_of(mask_t hand, int rule) { return hand | (mask_t)rule << R7_CARDS | (mask_t)1 << 63; }

/* 1 won, 0 lost, -1 not in the table */
static inline int probe(mask_t hand, mask_t palette, mask_t other_hand, mask_t other_palette, int rule) {
    mask_t tag = tag_of(hand, rule);
    entry_t *e = &table[slot_of(tag, palette, other_hand, other_palette)];
    if (e->tag == tag && e->palette == palette && e->other_hand == other_hand && e->other_palette == other_palette)
        return e->won;
    return -1;
}

static inline void store(mask_t hand, mask_t palette, mask_t other_hand, mask_t other_palette, int rule, int won) {
    mask_t tag = tag_of(hand, rule);
    entry_t *e = &table[slot_of(tag, palette, other_hand, other_palette)];
    if (!e->tag) table_used++;
    /* a newer position replaces an older one: entries are exact, so any one may go */
    *e = (entry_t){tag, palette, other_hand, other_palette, (uint8_t)won};
}

/* --- the search --------------------------------------------------------------------- */

typedef struct {
    plan_t plan;
    plan_t *replies;
    int count;
} ranked_t;

/* the replies of every level of the search: each level spends a card of the two hands */
#define ARENA_PLANS (2 * MOST_CARDS * MOST_PLANS * MOST_PLANS)
static plan_t arena[ARENA_PLANS];
static int arena_top = 0;

/* Is the turn start won for the player with a non-empty `hand`? `children`: its plans
 * when the caller has them already (else NULL), as red7.solver.exact._won. */
static int won_at(mask_t hand, mask_t palette, mask_t other_hand, mask_t other_palette, int rule, const plan_t *children,
                  int count) {
    int value = probe(hand, palette, other_hand, other_palette, rule);
    if (value >= 0) return value;
    plan_t own[MOST_PLANS];
    if (!children) {
        count = plans_of(hand, palette, other_palette, rule, own);
        children = own;
    }
    value = 0;
    if (count && !other_hand) {
        value = 1; /* the other player will start a turn with no card (R4.1) */
    } else if (count) {
        /* A child known lost for the other player wins at once; otherwise the children
         * with the fewest replies go first (see red7.solver.exact._won). */
        ranked_t ranked[MOST_PLANS];
        int saved = arena_top;
        for (int i = 0; i < count && !value; i++) {
            const plan_t *c = &children[i];
            if (probe(other_hand, other_palette, c->hand, c->palette, c->rule) == 0) {
                value = 1;
                break;
            }
            plan_t *replies = arena + arena_top;
            int n = plans_of(other_hand, other_palette, c->palette, c->rule, replies);
            arena_top += n;
            ranked[i] = (ranked_t){*c, replies, n};
        }
        if (!value) {
            for (int i = 1; i < count; i++) { /* insertion sort, stable as Python's */
                ranked_t r = ranked[i];
                int j = i - 1;
                while (j >= 0 && ranked[j].count > r.count) ranked[j + 1] = ranked[j], j--;
                ranked[j + 1] = r;
            }
            for (int i = 0; i < count; i++) {
                const ranked_t *r = &ranked[i];
                if (!r->count || !won_at(other_hand, other_palette, r->plan.hand, r->plan.palette, r->plan.rule,
                                         r->replies, r->count)) {
                    value = 1;
                    break;
                }
            }
        }
        arena_top = saved;
    }
    store(hand, palette, other_hand, other_palette, rule, value);
    return value;
}

static int make_table(void) {
    if (!table) table = calloc((size_t)1 << TABLE_BITS, sizeof(entry_t));
    return table != NULL;
}

int r7_won(mask_t hand, mask_t palette, mask_t other_hand, mask_t other_palette, int rule) {
    if (!hand) return 0; /* R4.1 */
    if (!make_table()) return -1;
    arena_top = 0;
    return won_at(hand, palette, other_hand, other_palette, rule, NULL, 0);
}

void r7_clear_table(void) {
    if (table) memset(table, 0, ((size_t)1 << TABLE_BITS) * sizeof(entry_t));
    table_used = 0;
}

long long r7_table_size(void) { return table_used; }
