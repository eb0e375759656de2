// Red7 web: the replay of a game, /t/<id>/replay/<n>: every decision's frame (GET
// /api/tables/<id>/games/<n>/replay, as this browser's seat saw it, or as a spectator),
// drawn by the same renderer as the live table; First/Previous/Next/Last and the
// ←/→/Home/End keys step through it; #13 in the address opens it on decision 13. Its words
// are in the language this person asked for (chosen on any page, else the browser's; none:
// the table's).

import { api, askedLanguage, getInvite, getToken, h, loadWords, pageLanguage, t, toast } from "./common.js";
import { renderBoard } from "./render.js";

const parts = location.pathname.split("/");
const tableId = decodeURIComponent(parts[2] || "");
const number = Number(parts[4]);
let frames = [];
let withHands = null; // the frames with every hand (a finished game's, fetched when asked)
let at = 0;
let ui = {};
const $ = (id) => document.getElementById(id);

function words() {
  $("first").textContent = t(ui, "first");
  $("previous").textContent = t(ui, "previous");
  $("next").textContent = t(ui, "next");
  $("last").textContent = t(ui, "last");
  $("back").textContent = t(ui, "back_to_table");
  $("review-link").textContent = t(ui, "review");
  $("all-hands-label").textContent = t(ui, "all_hands");
  $("bar").setAttribute("aria-label", t(ui, "replay"));
}

function show(i) {
  if (!frames.length) return;
  at = Math.max(0, Math.min(frames.length - 1, i));
  const shownFrames = $("all-hands").checked && withHands ? withHands : frames;
  const frame = { ...shownFrames[at], ui }; // the words of the controls come with the first frame only
  renderBoard($("board"), frame, { interactive: false, allHands: shownFrames === withHands });
  $("where").textContent = t(ui, "decision_of", { i: at, n: frames.length - 1 });
  $("first").disabled = $("previous").disabled = at === 0;
  $("next").disabled = $("last").disabled = at === frames.length - 1;
  if (at || location.hash) history.replaceState(null, "", `#${at}`); // the step, to link or to come back to
}

/** The step the address asks for: /t/<id>/replay/<n>#13 opens on decision 13 (a review's line links there). */
function askedStep() {
  const asked = Number(location.hash.slice(1));
  return Number.isInteger(asked) && asked > 0 ? asked : 0;
}

/** The query part asking for this person's language ("" if none: the table's). */
function inLanguage(separator) {
  const lang = askedLanguage();
  return lang ? `${separator}lang=${encodeURIComponent(lang)}` : "";
}

async function load() {
  const base = `/api/tables/${encodeURIComponent(tableId)}/games/${number}/replay${inLanguage("?")}`;
  const token = getToken(tableId);
  const invite = getInvite(tableId); // a private table's games open with its invitation
  try {
    try {
      frames = (await api(base, undefined, token, invite)).frames;
    } catch (err) {
      if (!token || err.code !== "bad-token") throw err;
      frames = (await api(base, undefined, null, invite)).frames; // a token this table no longer knows: the spectator's view
    }
  } catch (err) {
    $("board").replaceChildren(h("p", { class: "gone" }, err.message));
    return;
  }
  if (!frames.length) {
    $("board").replaceChildren(h("p", { class: "gone" }, t(ui, "no_replay")));
    $("where").textContent = "";
    for (const id of ["first", "previous", "next", "last"]) $(id).disabled = true;
    return;
  }
  const first = frames[0];
  ui = first.ui;
  // a finished game has a review and may show every hand (never one still played)
  const over = Boolean(frames[frames.length - 1].game && frames[frames.length - 1].game.over);
  $("review-link").hidden = !over;
  $("hands-box").hidden = !over;
  document.documentElement.lang = first.lang;
  $("settings").textContent = `${t(ui, "replay")} · ${first.table.settings}`;
  document.title = `Red7 · ${t(ui, "replay")} · ${first.table.settings}`;
  words();
  show(askedStep());
}

function main() {
  $("back").href = `/t/${encodeURIComponent(tableId)}`;
  $("review-link").href = `/t/${encodeURIComponent(tableId)}/review/${number}`;
  $("first").addEventListener("click", () => show(0));
  $("previous").addEventListener("click", () => show(at - 1));
  $("next").addEventListener("click", () => show(at + 1));
  $("last").addEventListener("click", () => show(frames.length - 1));
  $("all-hands").addEventListener("change", async () => {
    if ($("all-hands").checked && !withHands) {
      try {
        const base = `/api/tables/${encodeURIComponent(tableId)}/games/${number}/replay?hands=all${inLanguage("&")}`;
        withHands = (await api(base, undefined, getToken(tableId) || undefined)).frames;
      } catch (err) {
        $("all-hands").checked = false;
        toast(err.message);
      }
    }
    show(at);
  });
  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const moves = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: frames.length - 1 };
    if (!(event.key in moves)) return;
    event.preventDefault();
    show(moves[event.key]);
  });
  loadWords(pageLanguage()).then((w) => {
    if (frames.length) return;
    ui = w.ui;
    words();
  });
  load().catch((err) => toast(err.message));
}

main();
