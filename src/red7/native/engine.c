/* The compiled engine (see engine.h): red7.core.game.Game and red7.core.turn.TurnSolver
 * in C. Each function names its Python twin; the rules' IDs are those of docs/rules.md. */
#include "engine.h"
#include "fast.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define HAND_SIZE R7_HAND_SIZE

static inline int next_bit(mask_t *m) { /* pops the lowest card of *m */
    int c = __builtin_ctzll(*m);
    *m &= *m - 1;
    return c;
}

/* --- the turn solver: red7.core.turn.TurnSolver ------------------------------------- */

typedef struct {
    const r7_game *g;
    int me, rule, public_top; /* public_top: the deck's top card when everyone knows it, else -1 */
    int best[7];              /* the other players' best key per rule, -1 until needed */
    int without[R7_MAX_PLAYERS][7]; /* ...without one owner, for a 1's take, -1 until needed */
} solver_t;

/* best_key: the largest key under `rule` among the remaining players but `me` and `skip` */
static int best_key(const solver_t *s, int rule, int skip) {
    int best = 0;
    for (int seat = 0; seat < s->g->players; seat++) {
        if (seat == s->me || seat == skip || !(s->g->alive >> seat & 1)) continue;
        int k = rule_key(rule, s->g->palettes[seat]);
        if (k > best) best = k;
    }
    return best;
}

/* _wins: does the mover, with palette m, win under `rule`? */
static inline int wins(solver_t *s, mask_t m, int rule) {
    if (s->best[rule] < 0) s->best[rule] = best_key(s, rule, -1);
    return rule_key(rule, m) > s->best[rule];
}

/* _can_finish: winning now with palette m, or some canvas card of `hand` makes it so */
static int can_finish(solver_t *s, mask_t m, mask_t hand) {
    if (wins(s, m, s->rule)) return 1;
    int colours = colours_present(hand) & ~(1 << s->rule);
    for (int c = 0; c < 7; c++)
        if (colours >> c & 1 && wins(s, m, c)) return 1;
    return 0;
}

/* _victims: the palette cards a 1 may take when the mover's palette is m (R7.1) */
static mask_t victims(const solver_t *s, mask_t m) {
    int size = popcount(m);
    mask_t out = 0;
    for (int seat = 0; seat < s->g->players; seat++)
        if (seat != s->me && s->g->alive >> seat & 1 && popcount(s->g->palettes[seat]) >= size)
            out |= s->g->palettes[seat];
    return out;
}

/* _owner: the remaining seat whose palette holds `card`, or -1 */
static int owner_of(const r7_game *g, int card) {
    for (int seat = 0; seat < g->players; seat++)
        if (g->palettes[seat] >> card & 1 && g->alive >> seat & 1) return seat;
    return -1;
}

/* _forbidden_kind: a 7, or a 1 that would take a card (R7.7, R7.1, R7.x) */
static int forbidden_kind(const solver_t *s, mask_t m, int card) {
    if (!s->g->actions) return 0;
    int v = value_of(card);
    if (v == 7) return 1;
    return v == 1 && victims(s, m | (mask_t)1 << card) != 0;
}

/* _finishes_after_take: can the mover finish winning once a 1 took `card`? */
static int finishes_after_take(solver_t *s, mask_t m, int card, mask_t hand) {
    int owner = owner_of(s->g, card);
    mask_t rest = s->g->palettes[owner] & ~((mask_t)1 << card);
    int colours = colours_present(hand) | 1 << s->rule;
    for (int c = 0; c < 7; c++) {
        if (!(colours >> c & 1)) continue;
        int mine = rule_key(c, m);
        if (s->without[owner][c] < 0) s->without[owner][c] = best_key(s, c, owner);
        if (mine > s->without[owner][c] && mine > rule_key(c, rest)) return 1;
    }
    return 0;
}

static int survives_play(solver_t *s, mask_t m, int card, mask_t hand);

/* _survives_seven */
static int survives_seven(solver_t *s, mask_t m, int seven, mask_t hand) {
    mask_t others = m & ~((mask_t)1 << seven);
    if (!others) return can_finish(s, m, hand);
    while (others) {
        int z = next_bit(&others);
        mask_t rest = m & ~((mask_t)1 << z);
        if (wins(s, rest, colour_of(z)) || can_finish(s, rest, hand)) return 1;
    }
    return 0;
}

/* _survives_five (R7.y: with no legal follow-up the 5 does nothing) */
static int survives_five(solver_t *s, mask_t m, mask_t hand) {
    int any_legal = 0;
    for (mask_t left = hand; left;) {
        int y = next_bit(&left);
        if (survives_play(s, m, y, hand)) return 1;
        if (!forbidden_kind(s, m, y)) any_legal = 1;
    }
    return !any_legal && can_finish(s, m, hand);
}

/* _survives_one */
static int survives_one(solver_t *s, mask_t m, mask_t hand) {
    mask_t v = victims(s, m);
    if (!v) return can_finish(s, m, hand);
    while (v)
        if (finishes_after_take(s, m, next_bit(&v), hand)) return 1;
    return 0;
}

/* _survives_play: can the mover end the turn winning after playing `card` to palette
 * m, its action carried out by its best choices? A draw counts only when public (R4.7). */
static int survives_play(solver_t *s, mask_t m, int card, mask_t hand) {
    mask_t bit = (mask_t)1 << card;
    m |= bit;
    hand &= ~bit;
    if (!s->g->actions) return can_finish(s, m, hand);
    switch (value_of(card)) {
    case 7:
        return survives_seven(s, m, card, hand);
    case 5:
        return survives_five(s, m, hand);
    case 1:
        return survives_one(s, m, hand);
    case 3:
        if (s->public_top >= 0) hand |= (mask_t)1 << s->public_top;
        /* fall through */
    default:
        return can_finish(s, m, hand);
    }
}

static inline void add(r7_game *g, int id, int safe) {
    g->legal[g->legal_count] = (int16_t)id;
    g->safe[g->legal_count++] = (uint8_t)safe;
}

/* TurnSolver._solve */
void r7_legal(r7_game *g) {
    if (g->legal_ready) return;
    g->legal_ready = 1;
    g->legal_count = 0;
    int step = g->step;
    if (step >= R7_OVER) return;
    solver_t s = {.g = g, .me = g->current, .rule = g->rule,
                  .public_top = g->deck_known ? g->deck[g->deck_size - 1] : -1};
    memset(s.best, -1, sizeof s.best);
    memset(s.without, -1, sizeof s.without);
    mask_t m = g->palettes[g->current], hand = g->hands[g->current];
    if (step == R7_START || step == R7_FIVE) {
        for (mask_t left = hand; left;) {
            int c = next_bit(&left);
            if (g->actions) {
                int ok = survives_play(&s, m, c, hand);
                if (ok || !forbidden_kind(&s, m, c)) add(g, R7_PLAY + c, ok);
            } else {
                mask_t bit = (mask_t)1 << c;
                add(g, R7_PLAY + c, can_finish(&s, m | bit, hand & ~bit));
            }
        }
    }
    if (step == R7_START || step == R7_AFTER) {
        int winning = 0, colours = colours_present(hand);
        for (int c = 0; c < 7; c++)
            if (colours >> c & 1 && wins(&s, m, c)) winning |= 1 << c;
        for (mask_t left = hand; winning && left;) {
            int c = next_bit(&left);
            if (winning >> colour_of(c) & 1) add(g, R7_CANVAS + c, 1);
        }
    } else if (step == R7_SEVEN) {
        mask_t others = m & ~((mask_t)1 << g->pending);
        uint8_t deck_safe[R7_CARDS];
        int n = 0;
        for (mask_t left = others; left;) {
            int z = next_bit(&left);
            mask_t rest = m & ~((mask_t)1 << z);
            if (wins(&s, rest, colour_of(z))) add(g, R7_MOVE_CANVAS + z, 1);
            deck_safe[n++] = (uint8_t)can_finish(&s, rest, hand);
        }
        n = 0;
        for (mask_t left = others; left;) add(g, R7_MOVE_DECK + next_bit(&left), deck_safe[n++]);
    } else if (step == R7_ONE) {
        for (mask_t v = victims(&s, m); v;) {
            int z = next_bit(&v);
            add(g, R7_TAKE + z, finishes_after_take(&s, m, z, hand));
        }
    }
    if (step == R7_AFTER && wins(&s, m, g->rule)) add(g, R7_END, 1);
    add(g, R7_CONCEDE, 0);
    if (step == R7_DRAW) add(g, R7_DRAWS, 1), add(g, R7_DECLINE, 1);
}

int r7_is_legal(r7_game *g, int id) {
    r7_legal(g);
    for (int i = 0; i < g->legal_count; i++)
        if (g->legal[i] == id) return 1;
    return 0;
}

int r7_safe_or_concede(r7_game *g, int16_t *out) {
    r7_legal(g);
    int n = 0;
    for (int i = 0; i < g->legal_count; i++)
        if (g->safe[i]) out[n++] = g->legal[i];
    if (!n) out[n++] = R7_CONCEDE;
    return n;
}

int r7_random_decision(r7_game *g, double u) {
    int16_t choices[R7_MAX_LEGAL];
    return choices[(int)(u * r7_safe_or_concede(g, choices))];
}

/* --- the game: red7.core.game.Game ---------------------------------------------------- */

void r7_init(r7_game *g, int players, int advanced, int actions) {
    memset(g, 0, sizeof *g);
    g->players = (int8_t)players, g->advanced = (int8_t)advanced, g->actions = (int8_t)actions;
    g->alive = (uint8_t)((1 << players) - 1);
    g->step = R7_DEALING;
    g->pending = -1;
}

/* --- the check of a position given field by field (engine.h) ------------------------------ */

static const char *const STEP_NAMES[] = R7_STEP_NAMES;

/* `why` written as printf writes it; returns `why` */
static const char *say(char *why, const char *format, ...) {
    va_list args;
    va_start(args, format);
    vsnprintf(why, R7_WHY_ROOM, format, args);
    va_end(args);
    return why;
}

/* the names of the cards of `m` in R1.3's notation (R7 V1 ...), the first 12 of them */
static const char *names_of(mask_t m, char *out) {
    char *at = out;
    for (int shown = 0; m; m &= m - 1, shown++) {
        if (shown == 12) {
            strcpy(at, " ...");
            return out;
        }
        int card = __builtin_ctzll(m);
        at += sprintf(at, "%s%c%d", at == out ? "" : " ", "ROYGBIV"[colour_of(card)], value_of(card));
    }
    *at = 0;
    return out;
}

/* adds the cards of one place (`place`, of `seat` if not -1) to *seen; NULL if none of
 * them was there already, else `why` saying which one was */
static const char *placed(mask_t *seen, mask_t cards, char *why, const char *place, int seat) {
    mask_t again = *seen & cards;
    *seen |= cards;
    if (!again) return NULL;
    char name[64];
    names_of(again & -again, name);
    return seat < 0 ? say(why, "card %s is placed twice (%s)", name, place)
                    : say(why, "card %s is placed twice (%s %d)", name, place, seat);
}

static int value_sum(mask_t m) {
    int sum = 0;
    for (; m; m &= m - 1) sum += value_of(__builtin_ctzll(m));
    return sum;
}

const char *r7_check(const r7_game *g, char *why) {
    int n = g->players, me = g->current, step = g->step;
    char names[64];
    const char *wrong = NULL;
    if (n < R7_MIN_PLAYERS || n > R7_MAX_PLAYERS) return say(why, "a game has %d to %d players, not %d", R7_MIN_PLAYERS, R7_MAX_PLAYERS, n);
    mask_t any = g->out | g->out_known;
    for (int s = 0; s < n; s++) any |= g->hands[s] | g->palettes[s] | g->known[s] | g->out_own[s] | g->piles[s];
    if (any & ~ALL_CARDS) return say(why, "a set of cards holds a card beyond the 49");
    if (g->deck_size < 0 || g->deck_size > R7_CARDS || g->canvas_size < 0 || g->canvas_size > R7_CARDS)
        return say(why, "the deck and the canvas hold 0 to 49 cards each");
    /* every card in one place at most, in the order Game.from_position places them, then
     * the cards out of the round (which from_position makes of the cards placed nowhere) */
    mask_t seen = 0;
    for (int s = 0; s < n && !wrong; s++) wrong = placed(&seen, g->hands[s], why, "hand", s);
    for (int s = 0; s < n && !wrong; s++) wrong = placed(&seen, g->palettes[s], why, "palette", s);
    for (int i = 0; i < g->deck_size && !wrong; i++)
        wrong = g->deck[i] >= R7_CARDS ? say(why, "deck: card %d is not one of the 49 (0 to 48)", g->deck[i])
                                : placed(&seen, (mask_t)1 << g->deck[i], why, "deck", -1);
    for (int i = 0; i < g->canvas_size && !wrong; i++)
        wrong = g->canvas[i] >= R7_CARDS ? say(why, "canvas: card %d is not one of the 49 (0 to 48)", g->canvas[i])
                                  : placed(&seen, (mask_t)1 << g->canvas[i], why, "canvas", -1);
    for (int s = 0; s < n && !wrong; s++) wrong = placed(&seen, g->piles[s], why, "score pile", s);
    if (wrong || (wrong = placed(&seen, g->out, why, "out_of_round", -1))) return wrong;
    for (int s = 0; s < n; s++)
        if (g->known[s] & ~g->hands[s])
            return say(why, "known_hand_cards of seat %d (%s) are not in its hand", s, names_of(g->known[s] & ~g->hands[s], names));
    if (g->deck_known < 0 || g->deck_known > g->deck_size)
        return say(why, "deck_known_count=%d but the deck holds %d cards", g->deck_known, g->deck_size);
    if (g->rule < 0 || g->rule > 6) return say(why, "rule %d is not a rule (0 to 6, R3)", g->rule);
    if (!g->canvas_size && g->rule)
        return say(why, "rule %d with an empty canvas: the Red start card's rule is 0 (R2.3)", g->rule);
    if (g->canvas_size && g->rule != colour_of(g->canvas[g->canvas_size - 1]))
        return say(why, "rule %d is not the colour of the canvas's top card, %s (%d)", g->rule,
                   names_of((mask_t)1 << g->canvas[g->canvas_size - 1], names), colour_of(g->canvas[g->canvas_size - 1]));
    /* the seats in the round (R6): two or more; the cards of the others face down (R6.1) */
    if (g->alive >> n) return say(why, "alive names seats beyond the table's %d", n);
    if (popcount(g->alive) < 2)
        return say(why, "alive has %d of the %d seats in the round: a round needs two (R6.2)", popcount(g->alive), n);
    if (g->out_known & ~g->out) return say(why, "out_of_round_known holds cards that are not out of the round");
    mask_t own = 0;
    for (int s = 0; s < n; s++) {
        int in_round = g->alive >> s & 1;
        if (!in_round && (g->hands[s] | g->palettes[s] | g->known[s]))
            return say(why, "seat %d is out of the round but holds cards in hand or palette (R6.1)", s);
        if (in_round && g->out_own[s])
            return say(why, "out_of_round_own of seat %d holds cards while it is in the round", s);
        if (g->out_own[s] & ~(g->out & ~g->out_known & ~own))
            return say(why, "out_of_round_own of seat %d holds cards that are not its own face-down hand (R6.1)", s);
        own |= g->out_own[s];
        if (g->scores[s] != value_sum(g->piles[s]))
            return say(why, "seat %d's score %d is not the value of its score pile (%d)", s, g->scores[s],
                       value_sum(g->piles[s]));
    }
    /* the turn: its mover, its step, the 7 it resolves */
    if (me < 0 || me >= n) return say(why, "seat %d cannot take the turn: the table has %d seats", me, n);
    if (!(g->alive >> me & 1)) return say(why, "seat %d cannot take the turn: it is out of the round", me);
    if (step < R7_START || step > R7_DRAW)
        return say(why, "step %d is not a player's decision (0 to 5: start, after, five, seven, one, draw)", step);
    if ((step == R7_FIVE || step == R7_SEVEN || step == R7_ONE) && !g->actions)
        return say(why, "step %d (%s) belongs to the action rules (R7), which are off", step, STEP_NAMES[step]);
    if (step == R7_DRAW && (!g->advanced || !g->deck_size))
        return say(why, "step 5 (draw) is the advanced draw (R5.1): %s", g->advanced ? "the deck is empty" : "the game is basic");
    if (step != R7_SEVEN && g->pending != -1)
        return say(why, "pending names the 7 being resolved, at step 3 (seven) only");
    if (step == R7_SEVEN) {
        if (g->pending < 0 || g->pending >= R7_CARDS) return say(why, "step 3 (seven) resolves a 7: pending names it (R7.7)");
        mask_t bit = (mask_t)1 << g->pending, m = g->palettes[me];
        if (value_of(g->pending) != 7 || !(m & bit) || !(m & ~bit))
            return say(why, "pending %s is not a 7 of the mover's palette beside another card (R7.7)",
                       names_of(bit, names));
    }
    if (g->round < 1 || g->round > R7_MAX_ROUNDS)
        return say(why, "round %d: the rounds of a match are numbered 1 to %d (R8.6)", g->round, R7_MAX_ROUNDS);
    if (g->turns < 0) return say(why, "turns %d: a count of turns is never negative", (int)g->turns);
    return NULL;
}

void r7_eliminate(r7_game *g, int seat) { /* _eliminate (R6.1) */
    g->out |= g->hands[seat] | g->palettes[seat];
    g->out_known |= g->palettes[seat] | g->known[seat];
    g->out_own[seat] = g->hands[seat] & ~g->known[seat];
    g->hands[seat] = g->palettes[seat] = g->known[seat] = 0;
    g->alive &= (uint8_t)~(1 << seat);
}

static void finish(r7_game *g, uint8_t winners) { /* _finish */
    g->step = R7_OVER;
    g->winners = winners;
}

/* _round_over: if one player remains, end the round (R6.2), score it and go on (R8);
 * a next round waits at R7_DEALING for its key */
static int round_over(r7_game *g) {
    if (g->alive & (g->alive - 1)) return 0;
    int w = __builtin_ctz(g->alive);
    mask_t scored = g->advanced ? qualifying_mask(g->rule, g->palettes[w]) : 0;
    int points = 0;
    for (mask_t left = scored; left;) points += value_of(next_bit(&left));
    if (g->rounds_played < R7_MAX_ROUNDS)
        g->results[g->rounds_played++] = (r7_round_t){(int8_t)w, g->rule, (int8_t)points, scored};
    if (!g->advanced) {
        finish(g, (uint8_t)(1 << w));
        return 1;
    }
    g->palettes[w] &= ~scored;
    g->piles[w] |= scored;
    g->scores[w] += (int16_t)points;
    if (g->scores[w] >= r7_target(g->players)) { /* R8.3 */
        finish(g, (uint8_t)(1 << w));
        return 1;
    }
    mask_t left = ALL_CARDS;
    for (int seat = 0; seat < g->players; seat++) left &= ~g->piles[seat];
    if (popcount(left) < (HAND_SIZE + 1) * g->players || g->round >= R7_MAX_ROUNDS) { /* R8.4, R8.6 */
        int top = 0;
        uint8_t winners = 0;
        for (int seat = 0; seat < g->players; seat++) top = g->scores[seat] > top ? g->scores[seat] : top;
        for (int seat = 0; seat < g->players; seat++)
            if (g->scores[seat] == top) winners |= (uint8_t)(1 << seat);
        finish(g, winners);
        return 1;
    }
    g->step = R7_DEALING;
    return 1;
}

static inline int next_alive(const r7_game *g, int seat) {
    do seat = (seat + 1) % g->players;
    while (!(g->alive >> seat & 1));
    return seat;
}

void r7_begin_turn(r7_game *g, int seat) { /* _begin_turn (R4.1) */
    g->pending = -1;
    g->legal_ready = 0;
    for (;;) {
        g->current = (int8_t)seat;
        g->turns++;
        if (g->hands[seat]) {
            g->step = R7_START;
            return;
        }
        r7_eliminate(g, seat);
        if (round_over(g)) return;
        seat = next_alive(g, seat);
    }
}

static inline void end_turn(r7_game *g) { r7_begin_turn(g, next_alive(g, g->current)); }

static void draw(r7_game *g, int seat, int ends_turn) { /* _draw */
    if (g->deck_size) {
        mask_t bit = (mask_t)1 << g->deck[--g->deck_size];
        g->hands[seat] |= bit;
        if (g->deck_known > 0) g->deck_known--, g->known[seat] |= bit;
    }
    if (ends_turn) end_turn(g);
    else g->step = R7_AFTER;
}

static inline void tuck(r7_game *g, int card) { /* _tuck: face down on the deck, public (R7.z) */
    g->deck[g->deck_size++] = (uint8_t)card;
    g->deck_known++;
}

static void resolve_action(r7_game *g, int me, int card) { /* _resolve_action (R7) */
    g->step = R7_AFTER;
    if (!g->actions) return;
    switch (value_of(card)) {
    case 7:
        if (g->palettes[me] & ~((mask_t)1 << card)) g->step = R7_SEVEN, g->pending = (int8_t)card;
        break;
    case 5:
        g->step = R7_FIVE;
        g->legal_ready = 0;
        r7_legal(g); /* the decisions of step FIVE: kept, unless it gives way to AFTER */
        if (!(g->legal[0] < R7_CANVAS)) g->step = R7_AFTER, g->legal_ready = 0; /* R7.y */
        break;
    case 3:
        draw(g, me, 0);
        break;
    case 1: {
        int size = popcount(g->palettes[me]);
        for (int seat = 0; seat < g->players; seat++)
            if (seat != me && g->alive >> seat & 1 && popcount(g->palettes[seat]) >= size) g->step = R7_ONE;
        break;
    }
    }
}

void r7_apply(r7_game *g, int id) { /* apply_id */
    int me = g->current;
    g->decisions++;
    g->legal_ready = 0; /* a new decision point (a played 5 works its own out at once) */
    if (id < R7_CANVAS) {
        mask_t bit = (mask_t)1 << id;
        g->hands[me] &= ~bit;
        g->known[me] &= ~bit;
        g->palettes[me] |= bit;
        resolve_action(g, me, id);
    } else if (id < R7_MOVE_CANVAS) {
        int card = id - R7_CANVAS;
        mask_t bit = (mask_t)1 << card;
        g->hands[me] &= ~bit;
        g->known[me] &= ~bit;
        g->canvas[g->canvas_size++] = (uint8_t)card;
        g->rule = (int8_t)colour_of(card);
        if (g->advanced && g->deck_size && value_of(card) > popcount(g->palettes[me])) g->step = R7_DRAW; /* R5.1 */
        else end_turn(g);
    } else if (id < R7_MOVE_DECK) {
        int card = id - R7_MOVE_CANVAS;
        g->palettes[me] &= ~((mask_t)1 << card);
        g->canvas[g->canvas_size++] = (uint8_t)card;
        g->rule = (int8_t)colour_of(card);
        g->step = R7_AFTER, g->pending = -1;
    } else if (id < R7_TAKE) {
        int card = id - R7_MOVE_DECK;
        g->palettes[me] &= ~((mask_t)1 << card);
        tuck(g, card);
        g->step = R7_AFTER, g->pending = -1;
    } else if (id < R7_END) {
        int card = id - R7_TAKE;
        for (int seat = 0; seat < g->players; seat++) g->palettes[seat] &= ~((mask_t)1 << card);
        tuck(g, card);
        g->step = R7_AFTER;
    } else if (id == R7_END || id == R7_DECLINE) {
        end_turn(g);
    } else if (id == R7_DRAWS) {
        draw(g, me, 1);
    } else { /* concede */
        r7_eliminate(g, me);
        if (!round_over(g)) end_turn(g);
    }
}

/* the cards of the next round (all but the score piles, R8.4), lowest first */
int r7_round_cards(const r7_game *g, uint8_t *deck) {
    mask_t left = ALL_CARDS;
    for (int seat = 0; seat < g->players; seat++) left &= ~g->piles[seat];
    int size = 0;
    while (left) deck[size++] = (uint8_t)next_bit(&left);
    return size;
}

/* _deal and _dealt (R2.2-R2.4) */
void r7_deal_shuffled(r7_game *g, const uint8_t *deck, int size) {
    int n = g->players;
    g->round++;
    for (int seat = 0; seat < n; seat++)
        g->hands[seat] = g->palettes[seat] = g->known[seat] = g->out_own[seat] = 0;
    g->deck_known = 0, g->canvas_size = 0, g->rule = 0;
    g->out = g->out_known = 0;
    g->alive = (uint8_t)((1 << n) - 1);
    g->pending = -1;
    g->legal_ready = 0;
    memcpy(g->deck, deck, (size_t)size);
    for (int pass = 0; pass < HAND_SIZE; pass++)
        for (int seat = 0; seat < n; seat++) g->hands[seat] |= (mask_t)1 << g->deck[--size];
    int first = 0;
    for (int seat = 0; seat < n; seat++) {
        g->palettes[seat] = (mask_t)1 << g->deck[--size];
        if (g->palettes[seat] > g->palettes[first]) first = seat;
    }
    g->deck_size = (int8_t)size;
    r7_begin_turn(g, (first + 1) % n);
}

void r7_deal_splitmix64(r7_game *g, uint64_t seed) {
    uint8_t deck[R7_CARDS];
    int size = r7_round_cards(g, deck);
    fast_shuffle(&seed, deck, size);
    r7_deal_shuffled(g, deck, size);
}

void r7_deal(r7_game *g, const uint32_t *key, int key_length) {
    uint8_t deck[R7_CARDS];
    int size = r7_round_cards(g, deck);
    mt_t rng;
    mt_seed_key(&rng, key, key_length);
    mt_shuffle(&rng, deck, size);
    r7_deal_shuffled(g, deck, size);
}

/* red7.core.worlds in C: see engine.h */
void r7_redeal(r7_game *g, int viewer, mt_t *rng) {
    int unknown_deck = g->deck_size - g->deck_known, n = 0;
    mask_t hidden = g->out & ~g->out_known & ~g->out_own[viewer];
    for (int seat = 0; seat < g->players; seat++)
        if (seat != viewer) hidden |= g->hands[seat] & ~g->known[seat];
    for (int i = 0; i < unknown_deck; i++) hidden |= (mask_t)1 << g->deck[i];
    uint8_t pool[R7_CARDS];
    for (mask_t left = hidden; left; left &= left - 1) pool[n++] = (uint8_t)__builtin_ctzll(left);
    mt_shuffle(rng, pool, n);
    int k = 0;
    for (int seat = 0; seat < g->players; seat++) {
        if (seat == viewer) continue;
        int size = popcount(g->hands[seat] & ~g->known[seat]);
        g->hands[seat] = g->known[seat];
        while (size--) g->hands[seat] |= (mask_t)1 << pool[k++];
        g->out_own[seat] = 0;
    }
    for (int i = 0; i < unknown_deck; i++) g->deck[i] = pool[k++];
    g->out &= g->out_known | g->out_own[viewer];
    while (k < n) g->out |= (mask_t)1 << pool[k++];
    g->legal_ready = 0;
}
