// Red7 web: playing again after a game. "Play again" proposes it (a frame's `rematch`
// then lists who agreed); each person agrees or declines; the next game starts once
// every person seated agreed (bots always do). A decline ends the proposal, said to all.

import { h, t } from "./common.js";

/** The rematch's words and buttons for `frame` (a game over): `agree()` sends this
 * seat's agreement (or the proposal), `decline()` its refusal. */
export function rematchEl(frame, ui, agree, decline) {
  const rematch = frame.rematch;
  const you = frame.you;
  const names = (seats) => seats.map((s) => frame.seats[s].name).join(", ");
  const lines = [];
  const buttons = [];
  const againButton = (label) => h("button", { type: "button", class: "primary", "data-focus": "again", onclick: agree }, label);
  if (rematch && rematch.agreed.length) {
    lines.push(h("p", { class: "rematch-asked" }, t(ui, "rematch_agreed", { names: names(rematch.agreed) })));
    if (you !== null && rematch.agreed.includes(you)) {
      lines.push(h("p", { class: "rematch-waiting" }, t(ui, "rematch_waiting")));
    } else if (you !== null) {
      buttons.push(againButton(t(ui, "rematch_agree")));
      buttons.push(h("button", { type: "button", "data-focus": "decline", onclick: decline }, t(ui, "rematch_decline")));
    }
  } else {
    if (rematch && rematch.declined !== null) {
      lines.push(h("p", { class: "rematch-declined" }, t(ui, "rematch_declined", { name: frame.seats[rematch.declined].name })));
    }
    if (you !== null) buttons.push(againButton(t(ui, "play_again")));
  }
  return h("div", { class: "rematch", role: "group", "aria-label": t(ui, "play_again") }, lines, buttons.length ? h("p", { class: "rematch-buttons" }, buttons) : null);
}
