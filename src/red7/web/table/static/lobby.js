// Red7 web: the lobby, /. First what Red7 is, how to learn it and "Play now against a
// bot" (POST /api/play-now: a started table, this browser in seat 0; its settings, shown
// beside the button, are changed there and kept in localStorage); then the tables awaiting
// this browser's turn and the open tables; then a table made by hand, its common options
// first and the rest folded. Create a table, public or private (POST /api/tables: this
// browser sits in seat 0 and keeps the seat token, and a private table's invitation),
// join a free seat or watch one of the public tables, a page of them at a time, filtered
// (GET /api/tables?offset=&limit=&lang=&players=&advanced=&actions=&free=). The page's words
// come from GET /api/ui in the chosen language.

import { duration } from "./clock.js";
import {
  api, choosePageLanguage, fillLanguages, getName, getToken, h, loadWords, pageLanguage, setInvite, setName, setToken, t,
  toast,
} from "./common.js";

const CLOCKS = ["0", "60", "180", "86400", "259200"];
const LEVELS = ["easy", "medium", "hard"];
const PLAY_NOW = "red7:play-now"; // localStorage: the settings of "Play now" the person chose
const PLAY_NOW_DEFAULTS = { players: 2, advanced: false, actions: false, level: "medium" };

let words = { lang: "en", languages: { en: "English", "pt-BR": "Português (Brasil)" }, ui: {} };
let tables = [];
let username = null; // logged in (GET /api/account): the server seats them under this name
let offset = 0; // where the page of tables shown starts in the server's list
let total = 0; // how many tables the list has
const PAGE = 20;
const $ = (id) => document.getElementById(id);

function applyWords() {
  const ui = words.ui;
  document.documentElement.lang = words.lang;
  showTitle();
  $("title").textContent = t(ui, "lobby_title");
  $("about").textContent = t(ui, "about_red7");
  $("learn-link").textContent = t(ui, "learn_link");
  $("learn-link").href = `/tutorial?lang=${encodeURIComponent(words.lang)}`;
  $("play-now").textContent = t(ui, "play_now");
  $("play-players-label").textContent = t(ui, "players");
  $("play-level-label").textContent = t(ui, "level");
  for (const option of $("play-level").options) option.textContent = t(ui, `level_${option.value}`);
  $("play-advanced-label").textContent = t(ui, "advanced_game");
  $("play-actions-label").textContent = t(ui, "action_cards");
  $("more-options-title").textContent = t(ui, "more_options");
  $("page-lang-label").textContent = t(ui, "language");
  $("new-title").textContent = t(ui, "new_table");
  $("name-label").textContent = t(ui, "your_name");
  $("players-label").textContent = t(ui, "players");
  $("advanced-label").textContent = t(ui, "advanced_game");
  $("actions-label").textContent = t(ui, "action_cards");
  $("hints-label").textContent = t(ui, "hints_allowed");
  $("rated-label").textContent = t(ui, "rated_table");
  $("leaderboard-link").textContent = t(ui, "leaderboard");
  $("rules-link").textContent = t(ui, "rules");
  $("rules-link").href = `/rules?lang=${encodeURIComponent(words.lang)}`;
  $("table-lang-label").textContent = t(ui, "language");
  $("clock-label").textContent = t(ui, "clock");
  for (const option of $("clock").options) option.textContent = t(ui, `clock_${option.value}`);
  $("turns-title").textContent = t(ui, "your_turns");
  $("spectator-chat-label").textContent = t(ui, "spectator_chat");
  $("spectator-chat-separate").textContent = t(ui, "spectator_chat_separate");
  $("spectator-chat-off").textContent = t(ui, "spectator_chat_off");
  $("create-button").textContent = t(ui, "create");
  $("open-title").textContent = t(ui, "open_tables");
  $("account-link").textContent = username || t(ui, "account"); // logged in: their name
  $("table-name-label").textContent = t(ui, "table_name");
  $("table-name-hint").textContent = t(ui, "table_name_hint");
  $("private-label").textContent = t(ui, "private_table");
  $("filters-title").textContent = t(ui, "filters");
  $("filter-players-label").textContent = t(ui, "filter_players");
  $("filter-advanced-label").textContent = t(ui, "filter_game");
  $("filter-actions-label").textContent = t(ui, "filter_actions");
  $("filter-free-label").textContent = t(ui, "filter_free");
  const choiceWords = { "": "filter_any", false: "filter_basic", true: "filter_advanced" };
  for (const option of $("filter-players").options) if (!option.value) option.textContent = t(ui, "filter_any");
  for (const option of $("filter-advanced").options) option.textContent = t(ui, choiceWords[option.value]);
  const actionWords = { "": "filter_any", true: "filter_with", false: "filter_without" };
  for (const option of $("filter-actions").options) option.textContent = t(ui, actionWords[option.value]);
  for (const id of ["page-lang", "table-lang"]) {
    const select = $(id);
    const current = select.value || words.lang;
    fillLanguages(select, words, id === "page-lang" ? words.lang : current);
  }
  drawPlayNow();
  drawTables();
  drawTurns();
}

// --- "Play now against a bot" -----------------------------------------------------------------

/** The settings of "Play now": the person's, else the defaults (2 players, basic game, medium bots). */
function playNowSettings() {
  let kept = {};
  try {
    kept = JSON.parse(localStorage.getItem(PLAY_NOW) || "{}") || {};
  } catch {
    kept = {};
  }
  const settings = { ...PLAY_NOW_DEFAULTS };
  if ([2, 3, 4].includes(kept.players)) settings.players = kept.players;
  if (typeof kept.advanced === "boolean") settings.advanced = kept.advanced;
  if (typeof kept.actions === "boolean") settings.actions = kept.actions;
  if (LEVELS.includes(kept.level)) settings.level = kept.level;
  return settings;
}

/** The settings of "Play now" in its controls and in the line beside the button. */
function drawPlayNow() {
  const ui = words.ui;
  const settings = playNowSettings();
  $("play-players").value = String(settings.players);
  $("play-level").value = settings.level;
  $("play-advanced").checked = settings.advanced;
  $("play-actions").checked = settings.actions;
  const game = t(ui, settings.advanced ? "game_advanced" : "game_basic");
  $("play-now-summary").textContent = t(ui, "play_now_summary", {
    n: settings.players,
    game: settings.actions ? t(ui, "game_with_actions", { game }) : game,
    level: t(ui, `level_${settings.level}`),
  });
}

function playNowChanged() {
  localStorage.setItem(PLAY_NOW, JSON.stringify({
    players: Number($("play-players").value),
    advanced: $("play-advanced").checked,
    actions: $("play-actions").checked,
    level: $("play-level").value,
  }));
  drawPlayNow();
}

async function playNow() {
  const button = $("play-now");
  button.disabled = true;
  try {
    const answer = await api("/api/play-now", { ...playNowSettings(), lang: words.lang, name: name() });
    setToken(answer.id, answer.token);
    location.href = `/t/${encodeURIComponent(answer.id)}`;
  } catch (err) {
    toast(err.message);
    button.disabled = false;
  }
}

async function setLanguage(lang) {
  words = await loadWords(lang);
  applyWords();
}

function drawTables() {
  const ui = words.ui;
  const box = $("tables");
  const focused = document.activeElement && box.contains(document.activeElement)
    ? ["data-join", "data-watch"].map((name) => [name, document.activeElement.getAttribute(name)]).find(([, v]) => v)
    : null;
  if (!tables.length) {
    box.replaceChildren(h("p", { class: "none" }, t(ui, filterQuery() ? "no_match" : "no_tables")));
    return;
  }
  const pager = total <= PAGE ? null : h(
    "nav",
    { class: "pager", "aria-label": t(ui, "open_tables") },
    h("button", { type: "button", "data-page": "previous", disabled: offset === 0, onclick: () => turnPage(-PAGE) }, t(ui, "previous")),
    h("span", { class: "where" }, `${offset + 1}–${offset + tables.length} / ${total}`),
    h("button", { type: "button", "data-page": "next", disabled: offset + tables.length >= total, onclick: () => turnPage(PAGE) }, t(ui, "next")),
  );
  box.replaceChildren(
    h(
      "ul",
      { class: "tables" },
      tables.map((table) => {
        const mine = getToken(table.id);
        const free = table.seats.findIndex((name) => name === null);
        const url = `/t/${encodeURIComponent(table.id)}`;
        const actions = [];
        if (mine) actions.push(h("a", { class: "button-link primary", href: url, "data-join": table.id }, t(ui, "join")));
        else if (table.status === "open" && free >= 0) {
          actions.push(
            h("button", { type: "button", class: "primary", "data-join": table.id, onclick: () => join(table, free) }, t(ui, "join")),
          );
        }
        actions.push(h("a", { class: "button-link", href: `${url}?watch`, "data-watch": table.id }, t(ui, "watch")));
        const names = table.seats.map((name) => name === null ? t(ui, "seat_empty") : name).join(" · ");
        return h(
          "li",
          { "data-table": table.id, lang: table.lang },
          h("div", { class: "info" }, table.name ? h("p", { class: "table-name" }, table.name) : null,
            h("p", { class: "settings-line" }, table.settings,
              table.clock ? ` · ${t(ui, `clock_${table.clock}`)}` : ""),
            h("p", { class: "seat-names" }, names, " · ", h("em", { class: "status" }, t(ui, `status_${table.status}`)))),
          h("div", { class: "row-actions" }, actions),
        );
      }),
    ),
    pager || "", // (replaceChildren writes a null out as the text "null")
  );
  if (focused) {
    const again = box.querySelector(`[${focused[0]}="${CSS.escape(focused[1])}"]`);
    if (again) again.focus();
  }
}

let shown = "";

// --- "your turn": the tables this browser has a seat at that await it ----------------------

let turns = [];

/** Every table this browser keeps a seat token for (localStorage), as POST /api/turns takes them. */
function keptSeats() {
  const seats = [];
  for (let i = 0; i < localStorage.length && seats.length < 50; i += 1) {
    const key = localStorage.key(i);
    if (key && key.startsWith("red7:token:")) seats.push({ table: key.slice("red7:token:".length), token: localStorage.getItem(key) });
  }
  return seats;
}

async function refreshTurns() {
  const seats = keptSeats();
  if (!seats.length) return;
  try {
    const answer = await api("/api/turns", { seats }); // the tokens in the body, never in the address
    turns = answer.tables;
    drawTurns();
  } catch {
    // the list is a convenience: the open tables are shown anyway
  }
}

/** The tab's title: the lobby's, counting the games awaiting this browser first ("(2) Red7 online"). */
function showTitle() {
  const title = t(words.ui, "lobby_title");
  document.title = turns.length ? `(${turns.length}) ${title}` : title;
}

/** The tables awaiting this browser, one link each (its name, settings and time left): a
 * strip above the open tables, which a phone scrolls sideways so it never pushes the rest down. */
function drawTurns() {
  const ui = words.ui;
  showTitle();
  $("turns-panel").hidden = !turns.length;
  $("turns").replaceChildren(h(
    "ul",
    { class: "turns" },
    turns.map((row) => h(
      "li",
      { "data-turn": row.id },
      h("a", { class: "button-link primary", href: `/t/${encodeURIComponent(row.id)}` },
        h("strong", {}, row.name),
        h("span", { class: "settings-line" }, row.settings),
        row.remaining === null ? null : h("span", { class: "time-left" }, t(ui, "time_left_short", { time: duration(row.remaining) }))),
    )),
  ));
}

function turnPage(step) {
  offset = Math.max(0, offset + step);
  refresh();
}

/** The lobby's filters as the query of GET /api/tables ("" when none is set). */
function filterQuery() {
  const query = new URLSearchParams();
  for (const name of ["players", "advanced", "actions"]) {
    const value = $(`filter-${name}`).value;
    if (value) query.set(name, value);
  }
  if ($("filter-free").checked) query.set("free", "true");
  const text = query.toString();
  return text ? `&${text}` : "";
}

function filtersChanged() {
  offset = 0;
  refresh();
}

async function refresh() {
  try {
    // the rows in the lobby's language (one language in a row, whatever each table's is)
    const lang = encodeURIComponent(pageLanguage());
    const page = await api(`/api/tables?offset=${offset}&limit=${PAGE}&lang=${lang}${filterQuery()}`);
    if (!page.tables.length && page.total > 0 && offset > 0) { // the page emptied: the last one
      offset = Math.max(0, Math.floor((page.total - 1) / PAGE) * PAGE);
      return refresh();
    }
    tables = page.tables;
    total = page.total;
    const now = JSON.stringify([offset, total, tables, filterQuery(), lang]);
    if (now === shown) return; // unchanged: keep the list (and the focus in it) as it is
    shown = now;
    drawTables();
  } catch (err) {
    toast(err.message);
  }
}

function name() {
  const text = $("name").value.trim();
  setName(text);
  return text;
}

async function join(table, seat) {
  try {
    const answer = await api(`/api/tables/${encodeURIComponent(table.id)}/seats/${seat}`, { name: name() });
    setToken(table.id, answer.token);
    location.href = `/t/${encodeURIComponent(table.id)}`;
  } catch (err) {
    toast(err.message);
    refresh();
  }
}

async function create(event) {
  event.preventDefault();
  const form = $("create");
  const button = $("create-button");
  button.disabled = true;
  try {
    const answer = await api("/api/tables", {
      players: Number(form.elements.players.value),
      advanced: $("advanced").checked,
      actions: $("actions").checked,
      hints: $("hints").checked,
      rated: $("rated").checked,
      lang: $("table-lang").value,
      name: name(),
      clock: Number(CLOCKS.includes($("clock").value) ? $("clock").value : 0),
      spectator_chat: $("spectator-chat").value,
      table_name: $("table-name").value.trim(),
      private: $("private").checked,
    });
    setToken(answer.id, answer.token);
    const url = `/t/${encodeURIComponent(answer.id)}`;
    if (answer.invite) { // a private table: its link carries the invitation in its fragment
      setInvite(answer.id, answer.invite);
      location.href = `${url}#invite=${encodeURIComponent(answer.invite)}`;
    } else location.href = url;
  } catch (err) {
    toast(err.message);
    button.disabled = false;
  }
}

function main() {
  $("name").value = getName();
  $("create").addEventListener("submit", create);
  $("play-now").addEventListener("click", playNow);
  $("filters-title").addEventListener("click", () => { // the filters, folded until asked for
    const open = $("filters").hidden;
    $("filters").hidden = !open;
    $("filters-title").setAttribute("aria-expanded", String(open));
  });
  // a rated table gives no hint (the server refuses none: it turns them off): the form says so
  $("rated").addEventListener("change", () => {
    if ($("rated").checked) $("hints").checked = false;
    $("hints").disabled = $("rated").checked;
  });
  $("play-now-form").addEventListener("change", playNowChanged);
  $("play-now-form").addEventListener("submit", (event) => event.preventDefault());
  $("filters").addEventListener("change", filtersChanged);
  $("filters").addEventListener("submit", (event) => event.preventDefault());
  $("page-lang").addEventListener("change", (event) => {
    choosePageLanguage(event.target.value);
    $("table-lang").value = event.target.value;
    setLanguage(event.target.value);
    refresh();
  });
  const lang = pageLanguage();
  $("table-lang").replaceChildren(h("option", { value: lang }, lang));
  $("table-lang").value = lang;
  setLanguage(lang);
  api("/api/account").then((me) => {
    username = me.username;
    if (username) {
      $("name").value = username;
      $("name").readOnly = true;
    }
    $("account-link").textContent = username || t(words.ui, "account");
  }).catch(() => {});
  refresh();
  refreshTurns();
  setInterval(refresh, 4000);
  setInterval(refreshTurns, 30000);
}

main();
