// Red7 web: the countdown of the turn awaited (a frame's `clock`: the table's clock, or
// the patience with a person who is not connected). The frame says the whole seconds
// left when it was made; the page counts down from the moment it arrived, once a second,
// in the header's timer (role="timer": read when asked, not at every tick).

import { t } from "./common.js";

let shown = null; // {clock, frame, name, at}: the countdown of the last frame, and when it came
let ticker = null;

/** "2:05", "1 h 04 min", "2 d 03 h": what is left of `seconds`. */
export function duration(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  if (s >= 86400) return `${Math.floor(s / 86400)} d ${String(Math.floor((s % 86400) / 3600)).padStart(2, "0")} h`;
  if (s >= 3600) return `${Math.floor(s / 3600)} h ${String(Math.floor((s % 3600) / 60)).padStart(2, "0")} min`;
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function left() {
  return shown.clock.remaining - (performance.now() - shown.at) / 1000;
}

function tick(box, ui) {
  if (!shown) {
    box.hidden = true;
    box.textContent = "";
    return;
  }
  const seconds = left();
  const key = shown.clock.kind === "away" ? "away_in" : "time_left";
  box.hidden = false;
  box.dataset.kind = shown.clock.kind;
  box.dataset.remaining = String(Math.max(0, Math.ceil(seconds)));
  box.classList.toggle("urgent", seconds <= 10 && shown.clock.kind !== "correspondence");
  box.textContent = t(ui, key, { name: shown.name, time: duration(Math.ceil(seconds)) });
}

/** Show the countdown of `frame` (none: hide it) in `box`, with the page's words `ui`. */
export function showClock(box, frame, ui) {
  if (shown && shown.frame === frame) return; // the page redrawn, the same frame: counting on
  const clock = frame.clock || null;
  shown = clock ? { clock, frame, name: frame.seats[clock.seat].name, at: performance.now() } : null;
  clearInterval(ticker);
  ticker = null;
  tick(box, ui);
  if (shown) ticker = setInterval(() => tick(box, ui), 1000);
}
