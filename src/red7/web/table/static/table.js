// Red7 web: a table, /t/<id> (?watch: as a spectator). One WebSocket, /ws/<id>, whose first
// message says who this is (the seat token: never in an address, which logs keep); every
// `table` frame redraws the page (render.js), `error` frames show their message. A
// connection the server refuses (no such table, another site's page, too many
// connections) is told why before it is closed: the page says so instead of reconnecting.
// The person picks a card the legal options name, then one of that card's options (or a
// card-less one); the server's marks decide what asks first (safe, ends_turn).
// A private table opens with its invitation, the `#invite=` fragment of its link (never
// sent to the server in an address: the page sends it in its hello and requests' bodies)
// or this browser's seat token; the host copies the link from the side panel, and may
// make a new one or revoke it (the old link then opens nothing, and whoever watched by it
// is told so and stops seeing the table: the page says why instead of reconnecting).
// Each person reads the table in their own language: the hello asks for the one chosen on
// any page (else the browser's; none: the table's), the server words every frame, refusal,
// chat line and hint in it, and the header's control changes it (remembered like the
// lobby's choice) with a `lang` message: the table comes whole again in it, the connection
// (and the seat's presence) unbroken.

import {
  api, askedLanguage, choosePageLanguage, clearInvite, clearToken, fillLanguages, getInvite, getName, getToken, h, loadWords,
  pageLanguage, setInvite, setName, setToken, t, toast,
} from "./common.js";
import { showClock } from "./clock.js";
import { rematchEl } from "./rematch.js";
import { chatSeats, initChat, onChat } from "./chat.js";
import { cardEl, pickable, renderBoard } from "./render.js";
import { noticeTurn, soundToggle } from "./notice.js";

const tableId = decodeURIComponent(location.pathname.split("/")[2] || "");
const watching = new URLSearchParams(location.search).has("watch");
let token = watching ? null : getToken(tableId);
let invite = inviteFromLink() || getInvite(tableId); // a private table's invitation (null: none known)

/** The invitation of the address's fragment (`#invite=...`), kept for later visits. */
function inviteFromLink() {
  const secret = new URLSearchParams(location.hash.slice(1)).get("invite");
  if (secret) setInvite(tableId, secret);
  return secret;
}

let frame = null; // the last table frame
let log = []; // its whole move log (a frame sends the lines after the first `log_from` ones)
let ui = {}; // its words (before the first frame: the lobby's language)
let selected = null; // the card picked (its id)
let pending = null; // {seq}: a decision sent, its answer not arrived yet
let socket = null;
let attempts = 0;
let retryTimer = null;
let gone = null; // why this table cannot be shown (no such table, refused): stop trying
let refusal = null; // the error frame a refused connection was sent before it was closed
let tokenDropped = false; // the server refused this browser's token: reconnect as a spectator
let firstFrame = true;
let lastPrompt = "";
let hint = null; // {game, seq, text}: the hint asked at frame `seq` of game `game` (text null while it is worked out)
const drafts = { name: getName(), levels: {} }; // what is typed in the set-up panel

const $ = (id) => document.getElementById(id);

// --- the connection ---------------------------------------------------------------------

/** Error codes the server closes the connection after (the close event says what next). */
const CLOSING = new Set([
  "no-table", "cross-origin", "too-many", "token-in-url", "bad-hello", "no-hello", "private", "invite-changed",
]);

function socketUrl() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  return `${scheme}://${location.host}/ws/${encodeURIComponent(tableId)}`;
}

function connect() {
  clearTimeout(retryTimer);
  refusal = null;
  const ws = new WebSocket(socketUrl());
  socket = ws;
  ws.addEventListener("open", () => {
    attempts = 0;
    ws.send(JSON.stringify({ type: "hello", token, lang: askedLanguage(), chat: true, invite }));
    showConnection(true);
  });
  ws.addEventListener("message", (event) => {
    if (socket !== ws) return; // a socket replaced on purpose: its frames are not this page's
    let data;
    try {
      data = JSON.parse(event.data);
    } catch {
      return;
    }
    if (data.type === "table") onFrame(data);
    else if (data.type === "error") onError(data);
    else if (data.type === "chat") onChat(data);
    else if (data.type === "hint") onHint(data);
  });
  ws.addEventListener("close", (event) => {
    if (socket !== ws) return; // replaced on purpose (a seat was taken)
    socket = null;
    const why = refusal && refusal.message;
    if (event.code === 4403 && tokenDropped) {
      tokenDropped = false; // the seat token was refused: watch instead
      connect();
      return;
    }
    if (event.code === 4429) { // too many connections from this address: try again when told
      showConnection(false);
      if (why) $("conn").textContent = why;
      retryTimer = setTimeout(connect, 1000 * Math.max(1, Number(refusal && refusal.retry_after) || 10));
      return;
    }
    if (event.code === 4404 || (event.code >= 4400 && event.code < 4500)) {
      // no such table, or refused (another site's page...): trying again cannot help
      gone = why || (event.code === 4404 ? t(ui, "no_table") : `${event.code} ${event.reason}`);
      showGone();
      return;
    }
    showConnection(false);
    const delay = Math.min(10000, 500 * 2 ** attempts) * (0.8 + Math.random() * 0.4);
    attempts += 1;
    retryTimer = setTimeout(connect, delay);
  });
}

function reconnectNow() {
  const old = socket;
  socket = null;
  if (old) old.close();
  connect();
}

function send(message) {
  if (!socket || socket.readyState !== WebSocket.OPEN) {
    toast(t(ui, "reconnecting"));
    return false;
  }
  socket.send(JSON.stringify(message));
  return true;
}

function showConnection(up) {
  const box = $("conn");
  box.textContent = up ? "" : t(ui, "reconnecting");
  box.classList.toggle("down", !up);
  document.body.classList.toggle("offline", !up);
}

/** Why the table cannot be shown (`gone`), and the way back to the lobby. */
function showGone() {
  showConnection(true);
  $("board").replaceChildren(
    h("p", { class: "gone", role: "alert" }, gone || t(ui, "no_table"), " ", h("a", { href: "/" }, t(ui, "lobby_title"))),
  );
  $("setup").replaceChildren();
  // nothing of the game or its chat stays (a spectator whose invitation the host changed sees them no more)
  $("chat").replaceChildren();
  $("chat").hidden = true;
}

// --- frames -------------------------------------------------------------------------------

/** A hint's answer: shown if it is for the position on the board (a later frame made it stale). */
function onHint(data) {
  if (!frame || !hint || data.seq !== frame.seq || data.game !== frame.table.game) return;
  hint = { game: data.game, seq: data.seq, text: data.text };
  draw();
}

function askHint() {
  if (!myTurn() || !frame.table.hints || hint) return;
  const game = frame.table.game;
  if (send({ type: "hint", seq: frame.seq, game })) {
    hint = { game, seq: frame.seq, text: null };
    draw();
  }
}

function onError(data) {
  pending = null;
  if (data.code && data.code !== "hint-busy" && hint && hint.text === null) hint = null; // refused: ask again later
  if (CLOSING.has(data.code)) {
    refusal = data; // said when the socket closes
    if (data.code === "invite-changed") clearInvite(tableId); // its host renewed or revoked it: it opens nothing
    return;
  }
  toast(data.message || data.code);
  if (data.code === "unseated" || data.code === "removed") {
    // they left, or the host removed them: the connection is a spectator's now
    clearToken(tableId);
    token = null;
  }
  if (data.code === "removed") localStorage.setItem(removedKey(), "1"); // no seat is offered to them here again
  if (data.code === "bad-token" || data.code === "seat-revoked" || data.code === "account-revoked") {
    // this browser's token no longer opens a seat here (an admin revoked it, or banned its account): watch instead
    clearToken(tableId);
    token = null;
    tokenDropped = true;
  }
  if (frame) draw();
}

/** Whether the host removed this browser's person from this table (told once, kept). */
const removedKey = () => `red7:removed:${tableId}`;
const removedHere = () => localStorage.getItem(removedKey()) === "1";

function onFrame(data) {
  // the words of the controls come in a connection's first frame only: later frames use them
  ui = data.ui || ui;
  if (data.table.status === "expired") { // left open and unused: the server let it go
    gone = t(ui, "no_table");
    const old = socket;
    socket = null;
    if (old) old.close();
    showGone();
    return;
  }
  if (data.table.status === "closed" && !data.game) { // closed by an admin before a game
    gone = t(ui, "table_closed");
    const old = socket;
    socket = null;
    if (old) old.close();
    showGone();
    return;
  }
  data.ui = ui;
  // the move log: a connection's first frame has it whole, later ones what follows the
  // lines this page keeps
  if (data.game) {
    log = log.slice(0, data.game.log_from).concat(data.game.log);
    data.game.log = log;
  } else {
    log = [];
  }
  frame = data;
  chatSeats(data);
  showLanguage(data.lang);
  if (pending && pending.seq !== data.seq) pending = null;
  if (hint && (hint.seq !== data.seq || hint.game !== data.table.game)) hint = null; // for a position that is gone
  noticeTurn(myTurn(), `Red7 · ${data.table.name || data.table.settings}`, t(ui, "your_turn_title"), firstFrame);
  const { usable } = pickable(data);
  if (!usable.includes(selected)) selected = usable.length === 1 ? usable[0] : null;
  draw();
  announce();
  roundEnded();
  firstFrame = false;
}

function myTurn() {
  return Boolean(frame && frame.game && frame.you !== null && frame.game.options.length);
}

/** The prompt goes to the live region when it changes (the board itself is redrawn). */
function announce() {
  const g = frame.game;
  const text = g ? g.prompt || "" : "";
  if (text !== lastPrompt) {
    lastPrompt = text;
    $("announce").textContent = text;
  }
}

// --- drawing ------------------------------------------------------------------------------

function draw() {
  $("settings").textContent = frame.table.name ? `${frame.table.name} · ${frame.table.settings}` : frame.table.settings;
  showClock($("countdown"), frame, ui);
  if (!frame.game) {
    $("board").replaceChildren();
    $("setup").replaceChildren(setupEl());
    return;
  }
  $("setup").replaceChildren();
  const picks = pickable(frame);
  renderBoard($("board"), frame, {
    interactive: myTurn(),
    selected,
    numbered: picks.numbered,
    usable: picks.usable,
    unusable: frame.game.unusable || {},
    onCard: pickCard,
    onWhy: (why) => toast(why),
    turn: myTurn(),
    pending: Boolean(pending),
    actions: actionsEl(picks),
    side: linksEl(),
  });
}

const KIND_KEYS = { play: "p", canvas: "c", take: "t", end: "e", draw: "d", decline: "n", concede: "x" };

function optionKey(option) {
  if (option.kind === "move") return option.to === "deck" ? "k" : "c";
  return KIND_KEYS[option.kind] || "";
}

function optionLabel(option) {
  if (option.kind === "move") return t(ui, option.to === "deck" ? "deck" : "canvas");
  return t(ui, option.kind);
}

function actionButton(label, key, attrs, onclick) {
  return h(
    "button",
    { type: "button", "aria-keyshortcuts": key || null, onclick, ...attrs },
    h("span", {}, label),
    key ? h("kbd", { "aria-hidden": "true" }, key) : null,
  );
}

function optionButton(option) {
  const unsafe = !option.safe && option.kind !== "concede";
  return actionButton(
    optionLabel(option),
    optionKey(option),
    {
      class: ["act", `k-${option.kind}`, unsafe && "unsafe", option.kind === "concede" && "danger"].filter(Boolean).join(" "),
      title: option.text,
      "data-action": option.action,
      "data-kind": option.kind,
      "data-safe": String(option.safe),
      "data-focus": `act:${option.action}`,
    },
    () => choose(option),
  );
}

/** The buttons of the person's turn: the options of the picked card, the card-less ones,
 * taking the turn back, conceding; or what ends the game. */
function actionsEl(picks) {
  const g = frame.game;
  if (g.over) return overEl();
  if (!myTurn()) return null;
  const buttons = [];
  if (selected && picks.byCard.has(selected)) for (const option of picks.byCard.get(selected)) buttons.push(optionButton(option));
  for (const option of g.options) if (!option.card && option.kind !== "concede") buttons.push(optionButton(option));
  if (g.staged.length) {
    buttons.push(
      actionButton(t(ui, "take_back"), "u", { class: "act k-take-back", "data-kind": "take_back", "data-focus": "act:take_back" }, takeBack),
    );
  }
  if (frame.table.hints) {
    buttons.push(
      actionButton(t(ui, "hint"), "h", { class: "act k-hint", "data-kind": "hint", "data-focus": "act:hint", disabled: Boolean(hint) }, askHint),
    );
  }
  const concede = g.options.find((o) => o.kind === "concede");
  if (concede) buttons.push(optionButton(concede));
  return [
    hint
      ? h(
          "section",
          { class: "hint-box", id: "hint", role: "status", "aria-labelledby": "hint-title" },
          h("h2", { id: "hint-title", class: "sr-only" }, t(ui, "hint_title")),
          h("p", {}, hint.text === null ? t(ui, "thinking_hint") : hint.text),
        )
      : null,
    h("div", { class: "buttons", role: "group", "aria-labelledby": "prompt" }, buttons),
  ];
}

function overEl() {
  const g = frame.game;
  const n = frame.table.game;
  return h(
    "div",
    { class: "over" },
    h("p", { class: "over-text" }, g.over.text),
    h(
      "p",
      { class: "over-links" },
      h("a", { href: `/t/${encodeURIComponent(tableId)}/replay/${n}` }, t(ui, "replay")),
      h("a", { href: `/t/${encodeURIComponent(tableId)}/review/${n}`, class: "link-review" }, t(ui, "review")),
      recordLink(n),
    ),
    rematchEl(frame, ui, playAgain, declineAgain),
  );
}

/** The game record's link; a private table's is fetched with the token or invitation
 * (a plain link cannot carry them) and opened from memory. */
function recordLink(n) {
  const path = `/api/tables/${encodeURIComponent(tableId)}/games/${n}/record`;
  if (!frame.table.private) return h("a", { href: path }, t(ui, "record"));
  return h("a", {
    href: path,
    onclick: async (event) => {
      event.preventDefault();
      try {
        const record = await api(path, undefined, token, invite);
        const blob = new Blob([JSON.stringify(record, null, 2)], { type: "application/json" });
        const link = h("a", { href: URL.createObjectURL(blob), download: `red7-${tableId}-${n}.json` });
        link.click();
        URL.revokeObjectURL(link.href);
      } catch (err) {
        toast(err.message);
      }
    },
  }, t(ui, "record"));
}

/** Copy `text` (a link) to the clipboard, and say so. */
async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    toast(t(ui, "copied"));
  } catch {
    toast(text, 20000); // no clipboard here (an address that is not secure): the link to copy by hand
  }
}

/** The host renews the invitation (`revoke` false: a new secret, which this page keeps and
 * shows) or revokes it; either way the old link opens nothing any more. */
async function changeInvite(revoke) {
  try {
    const answer = await api(`/api/tables/${encodeURIComponent(tableId)}/invite`, { token, revoke });
    invite = answer.invite;
    if (invite) setInvite(tableId, invite);
    else clearInvite(tableId);
    // the address bar shows the link that opens the table now (the fragment is never sent)
    history.replaceState(null, "", location.pathname + location.search + (invite ? `#invite=${encodeURIComponent(invite)}` : ""));
    toast(t(ui, revoke ? "invite_revoked" : "invite_renewed"));
    if (frame) draw();
  } catch (err) {
    toast(err.message);
  }
}

/** The host's controls of a private table's invitation. */
function inviteControls() {
  if (frame.you !== 0 || frame.table.status === "closed") return [];
  return [
    h("p", { class: "share invite-note" }, t(ui, "invite_host")),
    h("p", { class: "invite-actions" },
      h("button", { type: "button", class: "invite-renew", "data-focus": "invite-renew", onclick: () => changeInvite(false) }, t(ui, "invite_renew")),
      frame.table.invitation
        ? h("button", { type: "button", class: "invite-revoke", "data-focus": "invite-revoke", onclick: () => changeInvite(true) }, t(ui, "invite_revoke"))
        : null),
  ];
}

function shareLinks() {
  const base = `${location.origin}/t/${encodeURIComponent(tableId)}`;
  if (frame.table.private) { // the links carry the invitation, in their fragment
    if (frame.table.invitation === false) return [h("p", { class: "share invite-none" }, t(ui, "invite_none")), ...inviteControls()];
    // a seated guest's copy may be one the host has since renewed (only its hash is kept:
    // nobody but the host is told the new one): the host shares the link
    if (frame.you !== null && frame.you !== 0) return [h("p", { class: "share invite-ask" }, t(ui, "invite_ask"))];
    if (!invite) return [h("p", { class: "share" }, t(ui, "invite_lost")), ...inviteControls()];
    const fragment = `#invite=${encodeURIComponent(invite)}`;
    return [
      h("p", { class: "share" }, t(ui, "invite_link"), " ", h("a", { href: base + fragment, class: "link-invite" }, base + fragment)),
      h("p", {}, h("button", { type: "button", class: "copy-link", "data-focus": "copy", onclick: () => copyText(base + fragment) }, t(ui, "copy_invite"))),
      ...inviteControls(),
    ];
  }
  return [
    h("p", { class: "share" }, t(ui, "share"), " ", h("a", { href: base, class: "link-share" }, base)),
    h("p", { class: "share" }, t(ui, "watch_link"), " ", h("a", { href: `${base}?watch`, class: "link-watch" }, `${base}?watch`)),
    h("p", {}, h("button", { type: "button", class: "copy-link", "data-focus": "copy", onclick: () => copyText(base) }, t(ui, "copy_link"))),
  ];
}

function linksEl() {
  // the rules open beside the game, in the reader's language
  const rules = h("p", {}, h("a", { href: `/rules?lang=${encodeURIComponent(frame.lang)}`, target: "_blank",
    rel: "noopener", id: "rules-link" }, t(ui, "rules")));
  return h("section", { class: "links" }, frame.you !== null ? soundToggle(t(ui, "sound")) : null, rules, shareLinks());
}

// --- a table not started yet ----------------------------------------------------------------

function setupEl() {
  const seated = token !== null;
  const anyFree = frame.seats.some((s) => !s.taken);
  const rows = frame.seats.map((seat, s) => {
    const parts = [h("span", { class: "seat-no", "aria-hidden": "true" }, `${s + 1}.`)];
    if (seat.taken) {
      parts.push(h("span", { class: "seat-label" }, seat.name));
      if (seat.bot) parts.push(h("span", { class: "badge bot" }, t(ui, `level_${seat.bot}`)));
      if (seat.you) parts.push(h("span", { class: "badge you" }, t(ui, "you")));
      if (!seat.bot) parts.push(h("span", { class: `badge ${seat.online ? "online" : "offline"}` }, t(ui, seat.online ? "online" : "offline")));
      if (frame.you === 0 && s !== 0) { // the host may empty another seat before the start
        parts.push(h("button", {
          type: "button",
          class: "remove-seat",
          "data-seat": s,
          "data-focus": `remove:${s}`,
          "aria-label": t(ui, "remove_seat", { name: seat.name, n: s + 1 }),
          onclick: () => removeSeat(s),
        }, t(ui, "remove")));
      }
    } else {
      parts.push(h("span", { class: "seat-label empty" }, t(ui, "seat_empty")));
      if (seated) {
        const level = drafts.levels[s] || "medium";
        const select = h(
          "select",
          {
            id: `level-${s}`,
            "aria-label": `${t(ui, "level")} (${s + 1})`,
            "data-focus": `level:${s}`,
            onchange: (e) => {
              drafts.levels[s] = e.target.value;
            },
          },
          ["easy", "medium", "hard"].map((lv) => h("option", { value: lv, selected: lv === level }, t(ui, `level_${lv}`))),
        );
        parts.push(
          select,
          h("button", { type: "button", class: "add-bot", "data-seat": s, "data-focus": `bot:${s}`, onclick: () => addBot(s) }, t(ui, "add_bot")),
        );
      } else if (!watching && !removedHere()) {
        parts.push(
          h("button", { type: "button", class: "take-seat", "data-seat": s, "data-focus": `seat:${s}`, onclick: () => takeSeat(s) }, t(ui, "take_seat")),
        );
      }
    }
    return h("li", { class: seat.you ? "you" : null }, parts);
  });
  const box = h(
    "section",
    { class: "setup panel", "aria-labelledby": "setup-title" },
    h("h2", { id: "setup-title" }, frame.table.name || frame.table.settings,
      frame.table.private ? h("span", { class: "badge private" }, t(ui, "private")) : null),
  );
  if (!seated && removedHere()) box.append(h("p", { class: "removed-note" }, t(ui, "removed_here")));
  if (!seated && !watching && anyFree && !removedHere()) {
    box.append(
      h(
        "p",
        { class: "field" },
        h("label", { for: "seat-name" }, t(ui, "your_name")),
        h("input", {
          id: "seat-name",
          maxlength: "24",
          autocomplete: "nickname",
          value: drafts.name,
          "data-focus": "name",
          oninput: (e) => {
            drafts.name = e.target.value;
          },
        }),
      ),
    );
  }
  box.append(h("ol", { class: "seatlist" }, rows));
  if (seated) {
    box.append(
      h("p", { class: "setup-actions" },
        frame.you === 0 // the host starts the game; the others are told they wait for them
          ? h("button", { type: "button", class: "primary start", disabled: anyFree, "data-focus": "start", onclick: startGame }, t(ui, "start"))
          : h("span", { class: "waiting-host" }, t(ui, "waiting_host")),
        frame.you !== null && frame.you !== 0
          ? h("button", { type: "button", class: "leave-seat", "data-focus": "leave", onclick: leaveSeat }, t(ui, "leave_seat"))
          : null),
    );
  }
  if (watching) box.append(h("p", { class: "spectating" }, t(ui, "spectating")));
  box.append(...shareLinks());
  const focused = document.activeElement && document.activeElement.getAttribute("data-focus");
  if (focused) {
    queueMicrotask(() => {
      const again = document.querySelector(`#setup [data-focus="${CSS.escape(focused)}"]`);
      if (again && document.activeElement !== again) again.focus({ preventScroll: true });
    });
  }
  return box;
}

async function takeSeat(s) {
  try {
    const name = drafts.name.trim();
    setName(name);
    const answer = await api(`/api/tables/${encodeURIComponent(tableId)}/seats/${s}`, { name, invite });
    setToken(tableId, answer.token);
    token = answer.token;
    reconnectNow();
  } catch (err) {
    toast(err.message);
  }
}

async function addBot(s) {
  try {
    await api(`/api/tables/${encodeURIComponent(tableId)}/bots`, { token, seat: s, level: drafts.levels[s] || "medium" });
  } catch (err) {
    toast(err.message);
  }
}

async function removeSeat(s) {
  try {
    await api(`/api/tables/${encodeURIComponent(tableId)}/seats/${s}/remove`, { token });
  } catch (err) {
    toast(err.message);
  }
}

async function leaveSeat() {
  try {
    await api(`/api/tables/${encodeURIComponent(tableId)}/leave`, { token });
  } catch (err) {
    toast(err.message);
  }
}

async function startGame() {
  try {
    await api(`/api/tables/${encodeURIComponent(tableId)}/start`, { token });
  } catch (err) {
    toast(err.message);
  }
}

// --- deciding -------------------------------------------------------------------------------

const dialog = () => $("dialog");
let dialogQueue = Promise.resolve();

/** A modal question: `{title, lines, extra, buttons: [{label, value, primary, href}]}`; the
 * answer's value ("" when closed with Esc). Questions wait for the one shown before. */
function ask(spec) {
  const shown = dialogQueue.then(
    () =>
      new Promise((resolve) => {
        const box = dialog();
        const buttons = spec.buttons.map((b) =>
          b.href
            ? h("a", { class: "button-link", href: b.href }, b.label)
            : h(
                "button",
                {
                  type: "button",
                  class: b.primary ? "primary" : null,
                  "data-answer": b.value,
                  onclick: () => box.close(b.value),
                },
                b.label,
              ),
        );
        box.replaceChildren(
          h("h2", { id: "dialog-title" }, spec.title),
          ...(spec.lines || []).filter(Boolean).map((line) => h("p", { class: "dialog-line" }, line)),
          ...(spec.extra ? [spec.extra] : []),
          h("div", { class: "dialog-buttons" }, buttons),
        );
        box.className = spec.kind || "";
        box.returnValue = "";
        box.addEventListener("close", () => resolve(box.returnValue), { once: true });
        box.showModal();
        const first = box.querySelector("button.primary") || box.querySelector("button");
        if (first) first.focus();
      }),
  );
  dialogQueue = shown.catch(() => {});
  return shown;
}

function pickCard(id) {
  selected = id;
  draw();
  const again = document.querySelector(`[data-focus="card:${CSS.escape(id)}"]`);
  if (again) again.focus({ preventScroll: true });
}

async function choose(option) {
  if (pending || dialog().open || !myTurn()) return;
  const seq = frame.seq;
  const game = frame.table.game;
  if (option.kind === "concede") {
    const answer = await ask({
      title: `${t(ui, "concede")}?`,
      lines: [t(ui, frame.table.advanced ? "concede_round" : "concede_game")],
      buttons: [
        { label: t(ui, "concede"), value: "yes", primary: true },
        { label: t(ui, "cancel"), value: "no" },
      ],
    });
    if (answer !== "yes") return;
  } else if (!option.safe) {
    const answer = await ask({
      title: t(ui, "unsafe_title"),
      lines: [option.unsafe_reason, option.text],
      kind: "unsafe",
      buttons: [
        { label: t(ui, "do_it"), value: "yes", primary: true },
        { label: t(ui, "cancel"), value: "no" },
      ],
    });
    if (answer !== "yes") return;
  } else if (option.ends_turn) {
    const buttons = [{ label: t(ui, "confirm"), value: "yes", primary: true }];
    if (frame.game.staged.length) buttons.push({ label: t(ui, "take_back"), value: "back" });
    buttons.push({ label: t(ui, "cancel"), value: "no" });
    const answer = await ask({ title: t(ui, "confirm_turn"), lines: (option.summary || option.text).split("\n"), buttons });
    if (answer === "back") {
      takeBack();
      return;
    }
    if (answer !== "yes") return;
  }
  // the table may have moved on while the question was open
  const moved = frame.seq !== seq || frame.table.game !== game;
  if (!myTurn() || moved || !frame.game.options.some((o) => o.action === option.action)) {
    draw();
    return;
  }
  if (send({ type: "decide", seq, action: option.action, game })) {
    pending = { seq };
    selected = null;
    draw();
  }
}

function takeBack() {
  if (!myTurn() || pending || !frame.game.staged.length) return;
  if (send({ type: "take_back", seq: frame.seq, game: frame.table.game })) {
    pending = { seq: frame.seq };
    selected = null;
    draw();
  }
}

function playAgain() {
  send({ type: "again", game: frame.table.game }); // a proposal, or this seat's agreement
}

function declineAgain() {
  send({ type: "decline", game: frame.table.game });
}

/** The round-end dialog when a round has just ended (not for one that ended before the
 * page opened); the game-over words and links with it when the game is over. */
function roundEnded() {
  const g = frame.game;
  if (!g || !g.last_round) return;
  const key = `red7:round:${tableId}`;
  const mark = `${frame.table.game}:${g.last_round.round}`;
  const seen = sessionStorage.getItem(key);
  if (seen === mark) return;
  sessionStorage.setItem(key, mark);
  if (firstFrame && seen === null) return;
  const round = g.last_round;
  const lines = round.text.split("\n");
  const n = frame.table.game;
  const scored = !round.scored.length ? null : h(
    "ul",
    { class: "cards scored" },
    round.scored.map((card) => h("li", {}, cardEl(card, { small: true }))),
  );
  // how every palette ended: the table behind the dialog already shows the next deal
  const palettes = !round.palettes ? null : h(
    "div",
    { class: "final-palettes" },
    h("p", {}, t(ui, "final_palettes")),
    h("ul", { class: "final-list" }, round.palettes.map((cards, s) => h(
      "li",
      {},
      h("span", { class: "final-name" }, frame.seats[s].name),
      h("ul", { class: "cards" }, cards.map((card) => h("li", {}, cardEl(card, { small: true })))),
    ))),
  );
  const extra = h(
    "div",
    { class: "round-extra" },
    scored,
    palettes,
    g.over ? h("p", { class: "over-text" }, g.over.text) : null,
  );
  const buttons = [];
  if (g.over) {
    const proposed = frame.rematch && frame.rematch.agreed.length;
    if (frame.you !== null && !proposed) buttons.push({ label: t(ui, "play_again"), value: "again", primary: true });
    buttons.push({ label: t(ui, "replay"), href: `/t/${encodeURIComponent(tableId)}/replay/${n}` });
    buttons.push({ label: t(ui, "review"), href: `/t/${encodeURIComponent(tableId)}/review/${n}` });
    if (!frame.table.private) { // (a private table's record needs its invitation: the panel's link)
      buttons.push({ label: t(ui, "record"), href: `/api/tables/${encodeURIComponent(tableId)}/games/${n}/record` });
    }
    buttons.push({ label: t(ui, "close"), value: "close", primary: frame.you === null });
  } else {
    buttons.push({ label: t(ui, "next_round"), value: "next", primary: true });
  }
  ask({ title: g.over ? t(ui, "game_over") : lines[0], lines: g.over ? lines : lines.slice(1), extra, buttons, kind: "round-end" }).then(
    (answer) => {
      if (answer === "again") playAgain();
    },
  );
}

// --- keys: the terminal game's ----------------------------------------------------------------

function optionFor(test) {
  if (!myTurn()) return null;
  const g = frame.game;
  return g.options.find((o) => test(o)) || null;
}

function cardOption(test) {
  if (!myTurn()) return null;
  if (!selected) {
    toast(t(ui, "pick_first"), 3000);
    return null;
  }
  return frame.game.options.find((o) => o.card === selected && test(o)) || null;
}

document.addEventListener("keydown", (event) => {
  if (dialog().open || !frame || !frame.game) return;
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const tag = event.target && event.target.tagName;
  if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
  const picks = pickable(frame);
  const key = event.key;
  let option = null;
  let handled = true;
  if (key === "ArrowLeft" || key === "ArrowRight") {
    if (!picks.usable.length) return;
    const i = picks.usable.indexOf(selected);
    const step = key === "ArrowRight" ? 1 : -1;
    const next = i < 0 ? (step > 0 ? 0 : picks.usable.length - 1) : (i + step + picks.usable.length) % picks.usable.length;
    pickCard(picks.usable[next]);
  } else if (/^[1-9]$/.test(key)) {
    const id = picks.numbered[Number(key) - 1];
    if (id && picks.usable.includes(id)) pickCard(id);
    else if (id && frame.game.unusable && frame.game.unusable[id]) toast(frame.game.unusable[id]);
  } else if (key === "p") option = cardOption((o) => o.kind === "play");
  else if (key === "c") option = cardOption((o) => o.kind === "canvas" || (o.kind === "move" && o.to !== "deck"));
  else if (key === "k") option = cardOption((o) => o.kind === "move" && o.to === "deck");
  else if (key === "t") option = cardOption((o) => o.kind === "take");
  else if (key === "d") option = optionFor((o) => o.kind === "draw");
  else if (key === "n") option = optionFor((o) => o.kind === "decline");
  else if (key === "e") option = optionFor((o) => o.kind === "end");
  else if (key === "x") option = optionFor((o) => o.kind === "concede");
  else if (key === "u" || key === "Backspace") takeBack();
  else if (key === "h") askHint();
  else if (key === "Enter") {
    if (tag === "BUTTON" || tag === "A") return; // the focused control's own Enter
    const mine = selected ? picks.byCard.get(selected) || [] : [];
    if (mine.length === 1) option = mine[0];
    else handled = false;
  } else if (key === "Escape") {
    selected = null;
    draw();
  } else handled = false;
  if (handled) event.preventDefault();
  if (option) choose(option);
});

// --- the language -------------------------------------------------------------------------------

let languages = null; // {lang, languages} of GET /api/ui: the control's choices

/** The page in `lang` (the language of the frames): its `lang` attribute and its control. */
function showLanguage(lang) {
  document.documentElement.lang = lang;
  $("page-lang-label").textContent = t(ui, "language");
  const select = $("page-lang");
  if (languages && !select.options.length) fillLanguages(select, languages, lang); // (once: a frame never redraws it)
  if (select.value !== lang) select.value = lang;
}

/** The person chose another language: kept for every page, and the table read again in
 * it — asked of the open connection (the server sends the table whole again in it, the
 * seat staying connected), else by the next hello. */
function chooseLanguage(lang) {
  choosePageLanguage(lang);
  if (frame && frame.lang === lang) return;
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: "lang", lang }));
}

// --- start ------------------------------------------------------------------------------------

function main() {
  if (!tableId) {
    gone = t(ui, "no_table");
    showGone();
    return;
  }
  initChat(tableId, send);
  connect();
  $("page-lang").addEventListener("change", (event) => chooseLanguage(event.target.value));
  loadWords(pageLanguage()).then((words) => {
    languages = words;
    if (frame) {
      showLanguage(frame.lang);
      return;
    }
    ui = words.ui;
    showLanguage(words.lang);
    if (gone) showGone();
  });
}

main();
