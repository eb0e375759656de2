// Red7 web: the chat panel of a table page. The server sends `chat` frames on the table's
// WebSocket: first the recent history (`history: true`, with the panel's words and the
// canned reactions in the connection's language), then each new line. Lines are shown as text
// (textContent through h(): never HTML, no link made of a URL). Who is muted is kept in
// this browser only (localStorage, by table and person): muting hides that person's lines
// here, and nobody else is told. A person is their line's and seat's `who` (their username,
// or their name at the table), not a seat: they stay muted in another seat or when they
// come back, and someone else in their old seat is not muted.

import { h, t } from "./common.js";

const MAX = 200; // characters a message may have (the server's MAX_CHAT)
let send = null; // how a message goes to the server (table.js's send)
let tableId = "";
let words = {};
let reactions = [];
let lines = []; // the lines shown, oldest first (each as the server sent it)
let canPost = false;
let spectators = "separate";
let seats = []; // the table frame's seats (names, who is a person)
let you = null; // this page's seat (null: a spectator)
let started = false;

const $ = (id) => document.getElementById(id);
const muteKey = () => `red7:mute:${tableId}`;

function muted() {
  try {
    const list = JSON.parse(localStorage.getItem(muteKey()) || "[]");
    // (a seat number kept by an older page names nobody now: left out)
    return new Set(Array.isArray(list) ? list.filter((who) => typeof who === "string" && who) : []);
  } catch {
    return new Set();
  }
}

function toggleMute(who) {
  const set = muted();
  if (set.has(who)) set.delete(who);
  else set.add(who);
  localStorage.setItem(muteKey(), JSON.stringify([...set]));
  draw();
}

/** Start the panel: `id` the table, `sender(message)` sends on the table's socket. */
export function initChat(id, sender) {
  tableId = id;
  send = sender;
}

/** The table frame's seats and this page's seat (for the names to mute). */
export function chatSeats(frame) {
  const before = JSON.stringify([seats.map((s) => [s.name, s.who, s.taken]), you]);
  seats = frame.seats;
  you = frame.you;
  if (started && before !== JSON.stringify([seats.map((s) => [s.name, s.who, s.taken]), you])) drawMutes();
}

/** A `chat` frame: the history replaces what is shown (lines said since it was read are
 * kept), a new line is added. */
export function onChat(frame) {
  canPost = frame.can_post;
  spectators = frame.spectators;
  if (frame.history) {
    words = frame.words || words;
    reactions = frame.reactions || reactions;
    const last = frame.lines.length ? frame.lines[frame.lines.length - 1].id : -1;
    lines = frame.lines.concat(lines.filter((line) => line.id > last));
    build();
  } else {
    for (const line of frame.lines) {
      if (lines.some((old) => old.id === line.id)) continue;
      lines.push(line);
      clearIfSaid(line);
    }
    lines = lines.slice(-200);
  }
  started = true;
  draw();
}

/** The input is emptied once its line comes back (said and kept): a line refused (too
 * fast, say) stays there to send again. */
function clearIfSaid(line) {
  const input = $("chat-text");
  if (input && line.seat === you && !line.reaction && line.text === input.value.trim().replace(/\s+/g, " ")) {
    input.value = "";
  }
}

/** The panel's fixed parts, made again when the history (and its words) arrives (what is
 * being typed is kept). */
function build() {
  const panel = $("chat");
  const typed = $("chat-text") ? $("chat-text").value : "";
  const focused = document.activeElement && document.activeElement.id === "chat-text";
  const form = h(
    "form",
    { class: "chat-form", id: "chat-form", onsubmit: submit },
    h("label", { for: "chat-text", class: "sr-only" }, t(words, "chat_say")),
    h("input", {
      id: "chat-text",
      maxlength: MAX,
      autocomplete: "off",
      placeholder: t(words, "chat_say"),
    }),
    h("button", { type: "submit" }, t(words, "chat_send")),
  );
  const buttons = reactions.map((r) =>
    h("button", { type: "button", class: "reaction", "data-reaction": r.id, onclick: () => say({ reaction: r.id }) }, r.text),
  );
  const title = you === null && spectators === "separate" ? t(words, "chat_spectators") : t(words, "chat");
  panel.replaceChildren(
    h("h2", { id: "chat-title" }, title),
    // the log (a live region screen readers read new lines from) scrolls; the list inside keeps its semantics
    h("div", { id: "chat-log", class: "chat-log", role: "log", "aria-labelledby": "chat-title", tabindex: "0" },
      h("ol", { id: "chat-lines", class: "chat-lines" })),
    h("div", { id: "chat-mutes", class: "chat-mutes" }),
    canPost
      ? h("div", { class: "chat-say" }, h("div", { class: "reactions", role: "group", "aria-label": t(words, "chat_reactions") }, buttons), form)
      : h("p", { class: "chat-off" }, t(words, "chat_off")),
  );
  panel.hidden = false;
  const input = $("chat-text");
  if (input) {
    input.value = typed;
    if (focused) input.focus();
  }
}

function say(message) {
  if (send) send({ type: "chat", ...message });
}

function submit(event) {
  event.preventDefault();
  const input = $("chat-text");
  const text = input.value.trim();
  if (text) say({ text });
}

function nameOf(line) {
  if (line.seat === null) return t(words, "chat_spectator");
  return line.name;
}

function draw() {
  const list = $("chat-lines");
  const box = $("chat-log");
  if (!list || !box) return;
  const hidden = muted();
  const shown = lines.filter((line) => !line.who || !hidden.has(line.who));
  const atEnd = box.scrollHeight - box.scrollTop - box.clientHeight < 24;
  list.replaceChildren(
    ...(shown.length
      ? shown.map((line) =>
        h(
          "li",
          { class: `chat-line${line.reaction ? " reaction-line" : ""}${line.channel === "spectators" ? " from-spectator" : ""}`, "data-id": line.id },
          h("span", { class: "chat-name" }, nameOf(line)),
          ": ",
          h("span", { class: "chat-text" }, line.text),
        ))
      : [h("li", { class: "chat-empty" }, t(words, "chat_empty"))]),
  );
  if (atEnd) box.scrollTop = box.scrollHeight;
  drawMutes();
}

/** A toggle for each other person seated: their lines hidden on this device, whichever seat. */
function drawMutes() {
  const box = $("chat-mutes");
  if (!box) return;
  const hidden = muted();
  box.replaceChildren(
    ...seats
      .filter((s) => s.who && s.seat !== you)
      .map((s) =>
        h(
          "button",
          { type: "button", class: "mute", "aria-pressed": hidden.has(s.who) ? "true" : "false", "data-mute": s.seat, onclick: () => toggleMute(s.who) },
          t(words, "chat_mute", { name: s.name }),
        )),
  );
}
