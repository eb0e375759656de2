// Red7 web: what every page shares: building elements, the words of the page, the
// REST calls, the seat tokens kept in localStorage and the language of the lobby.
// No game rule lives here (nor anywhere in the browser): the pages render what the
// server sends.

/** English words for the few things the server's `ui` words do not cover yet (and for
 * the moments before the first frame arrives); a server word always wins. */
export const FALLBACK = {
  counts: "Underlined: counts under the rule",
  drawn: "+ just drawn",
  in_hand: "Cards in hand: {n}",
  points: "Points: {score} of {target}",
  known_top: "Known on top:",
  known_hand: "Known in hand:",
  you: "you",
  close: "Close",
  level: "Bot level",
  no_table: "There is no such table.",
  back_to_table: "Back to the table",
  no_replay: "There is nothing to replay yet.",
  pick_first: "Pick a card first: arrows, 1-9 or a click.",
  concede_round: "You will be out of this round.",
  concede_game: "You will be out, and the basic game has only this round: you lose the game.",
  reconnecting: "Connection lost: reconnecting…",
  lobby_title: "Red7 online",
  spectator_chat: "Spectators' chat",
  spectator_chat_separate: "separate from the players'",
  spectator_chat_off: "off",
};

/** The word `key` of `ui` (the server's translated words) with `{name}` fields filled. */
export function t(ui, key, vars) {
  let text = (ui && ui[key]) || FALLBACK[key] || key;
  if (vars) text = text.replace(/\{(\w+)\}/g, (whole, name) => (name in vars ? String(vars[name]) : whole));
  return text;
}

/** An element: `h("button", {class: "x", onclick: f}, "text", child)`. */
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (name.startsWith("on") && typeof value === "function") el.addEventListener(name.slice(2), value);
    else if (name === "class") el.className = value;
    else if (name === "value") el.value = value;
    else if (value === true) el.setAttribute(name, "");
    else el.setAttribute(name, String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : String(child));
  }
  return el;
}

/** Text only screen readers read. */
export function srOnly(text) {
  return h("span", { class: "sr-only" }, text);
}

/** A JSON call to the server (a POST of `body`, else a GET; a seat `token` goes in the
 * Authorization header and a private table's `invite` in X-Red7-Invite, never in the
 * address; the language this person asked for in Accept-Language); throws an Error with
 * the server's message on a refusal. */
export async function api(path, body, token, invite) {
  const headers = {};
  const lang = askedLanguage(); // refusals in this person's language, at any table
  if (lang) headers["Accept-Language"] = lang;
  if (token) headers.Authorization = `Bearer ${token}`;
  if (invite) headers["X-Red7-Invite"] = invite; // a private table's games: its invitation
  const init = body === undefined ? { headers } : {
    method: "POST",
    headers: { ...headers, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  };
  const response = await fetch(path, init);
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    const err = new Error((data && data.message) || `${response.status} ${response.statusText}`);
    err.code = data && data.code;
    err.status = response.status;
    throw err;
  }
  return data;
}

// --- seat tokens: one per table, kept by this browser ------------------------------------

const tokenKey = (id) => `red7:token:${id}`;
export const getToken = (id) => localStorage.getItem(tokenKey(id));
export const setToken = (id, token) => localStorage.setItem(tokenKey(id), token);
export const clearToken = (id) => localStorage.removeItem(tokenKey(id));

// --- a private table's invitation secret, kept once seen (the fragment of its link) --------

const inviteKey = (id) => `red7:invite:${id}`;
export const getInvite = (id) => localStorage.getItem(inviteKey(id));
export const setInvite = (id, secret) => localStorage.setItem(inviteKey(id), secret);
export const clearInvite = (id) => localStorage.removeItem(inviteKey(id));

export const getName = () => localStorage.getItem("red7:name") || "";
export const setName = (name) => localStorage.setItem("red7:name", name);

// --- the language of the pages before a table says its own -------------------------------

/** The lobby's language: the one chosen before, else the browser's (pt → pt-BR), else English. */
export const pageLanguage = () => askedLanguage() || "en";

/** The language this person asked for: the one chosen before (on any page), else the
 * first of the browser's the pages speak (pt → pt-BR); null: none (a table then speaks its own). */
export function askedLanguage() {
  const chosen = localStorage.getItem("red7:lang");
  if (chosen) return chosen;
  const wanted = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || ""];
  for (const tag of wanted) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (base === "pt") return "pt-BR";
    if (base === "en") return "en";
  }
  return null;
}

export const choosePageLanguage = (lang) => localStorage.setItem("red7:lang", lang);

/** Fill `select` with the languages of `words` (`{lang, languages}`), `chosen` selected
 * (default: the language of the words). */
export function fillLanguages(select, words, chosen = words.lang) {
  select.replaceChildren(...Object.entries(words.languages).map(([tag, name]) => h("option", { value: tag, lang: tag }, name)));
  select.value = chosen;
}

/** The pages' words in `lang` (GET /api/ui; `path` /api/account/ui: the account pages'):
 * `{lang, languages, ui}`. */
export async function loadWords(lang, path = "/api/ui") {
  try {
    return await api(`${path}?lang=${encodeURIComponent(lang)}`);
  } catch {
    return { lang: "en", languages: { en: "English" }, ui: {} };
  }
}

/** A message in the page's toast line (role=alert), cleared after a while. */
let toastTimer = null;
export function toast(text, ms = 6000) {
  const box = document.getElementById("toast");
  if (!box) return;
  box.textContent = text;
  box.classList.toggle("shown", Boolean(text));
  clearTimeout(toastTimer);
  if (text) toastTimer = setTimeout(() => toast(""), ms);
}

/** A finished game of a profile (GET /api/account/games, /api/players/{name}): a list item,
 * its replay and review linked. */
export function gameLine(ui, game) {
  const line = t(ui, "game_line", { n: game.number, table: game.table, players: game.players, seat: game.seat + 1 });
  return h("li", {}, line, " · ", h("strong", {}, t(ui, game.won ? "won" : "lost")), " · ",
    h("a", { href: game.replay }, t(ui, "replay")), " · ", h("a", { href: game.review }, t(ui, "review")));
}
