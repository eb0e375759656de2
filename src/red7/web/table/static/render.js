// Red7 web: the table as a `table` frame shows it (red7.web.views.table_frame), shared by
// the live table (table.js) and the replay (replay.js). It draws what the frame says and
// nothing else: which cards count, what was drawn, who leads, the prompt and the words
// all come from the server.

import { h, srOnly, t } from "./common.js";

/** One card: its colour and its label ("Vm7"), named for screen readers ("Vermelho 7").
 * `o.onClick` makes it a button (a card the person can pick now); `o.muted` a card that
 * cannot be used now; `o.counts` underlines a palette card that counts under the rule;
 * `o.drawn` marks a card just drawn; `o.key` is its number key (1-9). */
export function cardEl(card, o = {}) {
  const classes = ["card", `c-${card.colour}`];
  for (const flag of ["small", "mini", "counts", "drawn", "muted", "selected"]) if (o[flag]) classes.push(flag);
  const described = [o.counts && "legend-counts", o.drawn && "legend-drawn"].filter(Boolean).join(" ");
  const attrs = {
    class: classes.join(" "),
    "data-card": card.id,
    "aria-label": card.name,
    "aria-describedby": described || null,
    title: card.name,
  };
  const inside = [
    o.key ? h("span", { class: "num", "aria-hidden": "true" }, String(o.key)) : null,
    h("span", { class: "label" }, card.label),
    o.drawn ? h("span", { class: "mark", "aria-hidden": "true" }, "+") : null,
  ];
  if (o.why) {
    // a card that cannot be used now: still a button, so tapping or focusing it says why
    // (the server's words: the engine's refusal); hovering shows it as its title
    return h(
      "button",
      {
        ...attrs,
        type: "button",
        title: o.why,
        "aria-disabled": "true",
        "aria-label": `${card.name}: ${o.why}`,
        "data-why": o.why,
        "data-focus": `card:${card.id}`,
        onclick: () => o.onWhy(o.why),
      },
      inside,
    );
  }
  if (o.onClick) {
    return h(
      "button",
      {
        ...attrs,
        type: "button",
        "aria-pressed": o.selected ? "true" : "false",
        "data-usable": "true",
        "data-focus": `card:${card.id}`,
        onclick: () => o.onClick(card.id),
      },
      inside,
    );
  }
  return h("span", { ...attrs, role: "img", "aria-disabled": o.muted ? "true" : null }, inside);
}

/** A row of cards as a list. */
function cardList(cards, options, extraClass = "") {
  return h(
    "ul",
    { class: `cards ${extraClass}`.trim() },
    cards.map((card) => h("li", {}, cardEl(card, options(card)))),
  );
}

/** The seats in the order a seated person sees them: the others from the next seat on,
 * then their own (drawn last, beside their hand); a spectator sees them in seat order. */
export function seatOrder(frame) {
  const n = frame.seats.length;
  if (frame.you === null || frame.you === undefined) return [...Array(n).keys()];
  return [...Array(n).keys()].map((i) => (frame.you + 1 + i) % n);
}

/** The cards the number keys count now, in the order the board shows them (the hand, the
 * person's palette at a 7's step, the other palettes at a 1's step), and those of them the
 * legal options name (the cards that can be picked). Nothing when it is not their turn. */
export function pickable(frame) {
  const g = frame.game;
  const byCard = new Map();
  if (!g || !g.options || !g.options.length) return { numbered: [], usable: [], byCard };
  for (const option of g.options) {
    if (!option.card) continue;
    if (!byCard.has(option.card)) byCard.set(option.card, []);
    byCard.get(option.card).push(option);
  }
  let numbered = [];
  if (g.picks === "hand") numbered = (g.hand || []).map((c) => c.id);
  else if (g.picks === "own-palette") numbered = g.palettes[frame.you].map((c) => c.id);
  else if (g.picks === "other-palettes") {
    for (const s of seatOrder(frame)) if (s !== frame.you) numbered.push(...g.palettes[s].map((c) => c.id));
  }
  for (const id of byCard.keys()) if (!numbered.includes(id)) numbered.push(id);
  const usable = numbered.filter((id) => byCard.has(id));
  return { numbered, usable, byCard };
}

function badge(kind, ...content) {
  return h("span", { class: `badge ${kind}` }, content);
}

/** One seat: its name and marks, and its palette. */
function seatEl(frame, s, view) {
  const seat = frame.seats[s];
  const g = frame.game;
  const ui = frame.ui;
  const current = g && !g.over && g.current === s;
  const out = g && !g.alive[s];
  const classes = ["seat", seat.you && "you", current && "current", out && "out", !seat.taken && "empty"];
  const nameId = `seat-${s}-name`;
  const marks = [];
  if (g && g.leader === s) marks.push(badge("leader", h("span", { "aria-hidden": "true" }, "★ "), t(ui, "winning")));
  if (seat.you) marks.push(badge("you", t(ui, "you")));
  if (seat.bot) marks.push(badge("bot", t(ui, `level_${seat.bot}`)));
  else if (seat.taken && seat.away) marks.push(badge("away", t(ui, "away")));
  else if (seat.taken) marks.push(badge(seat.online ? "online" : "offline", t(ui, seat.online ? "online" : "offline")));
  if (g) {
    marks.push(
      badge(
        "handsize",
        h("span", { class: "cardback", "aria-hidden": "true" }),
        h("span", { "aria-hidden": "true" }, String(g.hand_sizes[s])),
        srOnly(t(ui, "in_hand", { n: g.hand_sizes[s] })),
      ),
    );
    if (g.target !== null && g.target !== undefined) {
      marks.push(
        badge(
          "score",
          h("span", { "aria-hidden": "true" }, `${g.scores[s]}/${g.target}`),
          srOnly(t(ui, "points", { score: g.scores[s], target: g.target })),
        ),
      );
    }
    if (out) marks.push(badge("outmark", t(ui, "out")));
  }
  const known = g ? g.known_hands[s] || [] : [];
  const head = h(
    "div",
    { class: "seat-head" },
    h(
      "h2",
      { class: "seat-name", id: nameId },
      current ? h("span", { class: "turn", "aria-hidden": "true" }, "▶ ") : null,
      seat.taken ? seat.name : t(ui, "seat_empty"),
    ),
    h("div", { class: "marks" }, marks),
    known.length
      ? h(
          "div",
          { class: "known" },
          h("span", { class: "known-title" }, t(ui, "known_hand")),
          cardList(known, () => ({ mini: true }), "known-cards"),
        )
      : null,
  );
  const body = [];
  if (g) {
    const ownPick = g.picks === "own-palette" && s === frame.you;
    const otherPick = g.picks === "other-palettes" && s !== frame.you;
    body.push(
      cardList(
        g.palettes[s],
        (card) => cardOptions(card, view, ownPick || otherPick, { counts: card.counts }),
        "palette",
      ),
    );
    if (g.hands && view && view.allHands) {
      // the replay of a finished game, every hand shown (the server sends them only then)
      body.push(
        h(
          "div",
          { class: "known all-hands" },
          h("span", { class: "known-title" }, t(ui, "hand")),
          cardList(g.hands[s], () => ({ mini: true }), "known-cards"),
        ),
      );
    }
  }
  return h(
    "section",
    { class: classes.filter(Boolean).join(" "), "aria-labelledby": nameId, "aria-current": current ? "true" : null },
    head,
    body,
  );
}

/** How a card is drawn: pickable (a button), muted (in the picking area but not usable),
 * selected, numbered; a card the frame says cannot be used now (`unusable`, the mover's
 * only) tells why when tapped (`view.onWhy`). */
function cardOptions(card, view, inPickArea, extra = {}) {
  const o = { ...extra };
  if (view && view.interactive && inPickArea) {
    const index = view.numbered.indexOf(card.id);
    if (index >= 0 && index < 9) o.key = index + 1;
    if (view.usable.includes(card.id)) {
      o.onClick = view.onCard;
      o.selected = view.selected === card.id;
    } else if (index >= 0) {
      o.muted = true;
    }
  }
  const why = view && view.interactive && view.unusable ? view.unusable[card.id] : null;
  if (why && !o.onClick && view.onWhy) {
    o.why = why;
    o.onWhy = view.onWhy;
  }
  return o;
}

function legendEl(ui) {
  return h(
    "p",
    { class: "legend" },
    h(
      "span",
      { id: "legend-counts" },
      h("span", { class: "sample counts", "aria-hidden": "true" }, "7"),
      " ",
      t(ui, "counts"),
    ),
    h(
      "span",
      { id: "legend-moved" },
      h("span", { class: "sample moved", "aria-hidden": "true" }, "7"),
      " ",
      t(ui, "moved"),
    ),
    h(
      "span",
      { id: "legend-drawn" },
      h("span", { class: "sample drawn", "aria-hidden": "true" }, h("span", { class: "mark" }, "+")),
      " ",
      t(ui, "drawn"),
    ),
  );
}

function centreEl(frame) {
  const g = frame.game;
  const ui = frame.ui;
  const rule = h(
    "section",
    { class: `rule c-${g.rule.colour}`, "aria-labelledby": "rule-title" },
    h("h2", { id: "rule-title" }, t(ui, "rule")),
    h("p", { class: "rule-name" }, g.rule.name),
    h("p", { class: "rule-text" }, g.rule.text),
  );
  const canvas = h(
    "section",
    { class: "canvas", "aria-labelledby": "canvas-title" },
    h("h2", { id: "canvas-title" }, t(ui, "canvas_title")),
    g.canvas.length
      ? cardList(g.canvas, (card) => ({ small: card !== g.canvas[g.canvas.length - 1] }), "canvas-cards")
      : h("p", { class: "empty-canvas" }, "—"),
  );
  const deck = h(
    "section",
    { class: "deck", "aria-labelledby": "deck-title" },
    h("h2", { id: "deck-title" }, t(ui, "deck_title")),
    h("p", { class: "deck-size" }, h("span", { class: "cardback big", "aria-hidden": "true" }), String(g.deck.size)),
    g.deck.known_top.length
      ? h(
          "div",
          { class: "known" },
          h("span", { class: "known-title" }, t(ui, "known_top")),
          cardList(g.deck.known_top, () => ({ mini: true }), "known-cards"),
        )
      : null,
  );
  return h("div", { class: "centre" }, rule, canvas, deck);
}

function handEl(frame, view) {
  const g = frame.game;
  const ui = frame.ui;
  if (frame.you === null || frame.you === undefined) {
    return h(
      "section",
      // a spectator has no hand: the section is named by what it says, not "Your hand"
      { class: "hand spectator", "aria-labelledby": "hand-title" },
      h("p", { class: "spectating", id: "hand-title" }, t(ui, "spectating")),
    );
  }
  const drawn = new Set(g.drawn || []);
  const inPick = g.picks === "hand";
  return h(
    "section",
    { class: "hand", "aria-labelledby": "hand-title" },
    h("h2", { id: "hand-title" }, t(ui, "your_hand")),
    g.hand && g.hand.length
      ? cardList(g.hand, (card) => cardOptions(card, view, inPick, { drawn: drawn.has(card.id) }), "hand-cards")
      : h("p", { class: "empty-hand" }, "—"),
  );
}

/** The hand with the prompt above it and the buttons beside it (`view.actions`). */
function handZone(frame, view) {
  const g = frame.game;
  const classes = ["hand-zone", view.turn && "my-turn", view.pending && "pending"].filter(Boolean).join(" ");
  return h(
    "div",
    { class: classes },
    h("p", { class: "prompt", id: "prompt" }, view.prompt !== undefined ? view.prompt : g.prompt || ""),
    h("div", { class: "hand-row" }, handEl(frame, view), view.actions ? h("div", { class: "actions" }, view.actions) : null),
  );
}

function logEl(frame) {
  const g = frame.game;
  const ui = frame.ui;
  return h(
    "div",
    { class: "log" },
    h("h2", { id: "log-title" }, t(ui, "log")),
    h(
      "div",
      { class: "logbox", role: "region", tabindex: "0", "aria-labelledby": "log-title", "data-focus": "log" },
      h(
        "ol",
        {},
        (g ? g.log : []).map((line) => h("li", {}, line)),
      ),
    ),
  );
}

/**
 * The whole board of `frame` into `root` (replacing what was there).
 * `view`: `{interactive, selected, numbered, usable, unusable, onCard, onWhy, turn, pending,
 * prompt, actions, side}`: `actions` (the buttons) goes beside the hand, under the prompt (the frame's, or
 * `prompt`); `side` (nodes) after the log.
 */
export function renderBoard(root, frame, view = {}) {
  const g = frame.game;
  const oldLog = root.querySelector(".logbox");
  const atBottom = !oldLog || oldLog.scrollHeight - oldLog.scrollTop - oldLog.clientHeight < 24;
  const oldScroll = oldLog ? oldLog.scrollTop : 0;
  const focusKey = document.activeElement && root.contains(document.activeElement)
    ? document.activeElement.getAttribute("data-focus")
    : null;

  const order = seatOrder(frame);
  const others = order.filter((s) => s !== frame.you);
  const mine = frame.you === null || frame.you === undefined ? null : frame.you;
  const main = h(
    "div",
    { class: "play-area" },
    h("div", { class: "seats others" }, others.map((s) => seatEl(frame, s, view))),
    g ? centreEl(frame) : null,
    mine !== null ? h("div", { class: "seats mine" }, seatEl(frame, mine, view)) : null,
    g ? h("p", { class: "standing" }, g.standing) : null,
    g ? handZone(frame, view) : null,
  );
  const side = h("div", { class: "side" }, g ? legendEl(frame.ui) : null, logEl(frame), view.side || null);
  root.replaceChildren(h("div", { class: "board" }, main, side));

  // the cards the latest turn moved (as this seat may see them: the server names no
  // hidden card), wherever they are now
  const moved = new Set(g && g.last ? g.last.cards : []);
  for (const el of root.querySelectorAll(".board .card[data-card]")) {
    if (moved.has(el.getAttribute("data-card"))) {
      el.classList.add("moved");
      const described = el.getAttribute("aria-describedby");
      el.setAttribute("aria-describedby", described ? `${described} legend-moved` : "legend-moved");
    }
  }

  const log = root.querySelector(".logbox");
  if (log) log.scrollTop = atBottom ? log.scrollHeight : oldScroll;
  if (focusKey) {
    const again = root.querySelector(`[data-focus="${CSS.escape(focusKey)}"]`);
    if (again) again.focus({ preventScroll: true });
  }
}
