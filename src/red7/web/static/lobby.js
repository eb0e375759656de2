// Red7 web: the lobby, /. Create a table (POST /api/tables: this browser sits in seat 0
// and keeps the seat token), join a free seat or watch one of the open tables, a page of
// them at a time (GET /api/tables?offset=&limit=). The page's words come from GET /api/ui
// in the chosen language.

import {
  api, choosePageLanguage, getName, getToken, h, loadWords, pageLanguage, setName, setToken, t, toast,
} from "./common.js";

let words = { lang: "en", languages: { en: "English", "pt-BR": "Português (Brasil)" }, ui: {} };
let tables = [];
let offset = 0; // where the page of tables shown starts in the server's list
let total = 0; // how many tables the list has
const PAGE = 20;
const $ = (id) => document.getElementById(id);

function applyWords() {
  const ui = words.ui;
  document.documentElement.lang = words.lang;
  document.title = t(ui, "lobby_title");
  $("title").textContent = t(ui, "lobby_title");
  $("page-lang-label").textContent = t(ui, "language");
  $("new-title").textContent = t(ui, "new_table");
  $("name-label").textContent = t(ui, "your_name");
  $("players-label").textContent = t(ui, "players");
  $("advanced-label").textContent = t(ui, "advanced_game");
  $("actions-label").textContent = t(ui, "action_cards");
  $("hints-label").textContent = t(ui, "hints_allowed");
  $("table-lang-label").textContent = t(ui, "language");
  $("create-button").textContent = t(ui, "create");
  $("open-title").textContent = t(ui, "open_tables");
  for (const id of ["page-lang", "table-lang"]) {
    const select = $(id);
    const current = select.value || words.lang;
    select.replaceChildren(
      ...Object.entries(words.languages).map(([tag, name]) => h("option", { value: tag, lang: tag }, name)),
    );
    select.value = id === "page-lang" ? words.lang : current;
  }
  drawTables();
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
    box.replaceChildren(h("p", { class: "none" }, t(ui, "no_tables")));
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
          h("div", { class: "info" }, h("p", { class: "settings-line" }, table.settings),
            h("p", { class: "seat-names" }, names, " · ", h("em", { class: "status" }, t(ui, `status_${table.status}`)))),
          h("div", { class: "row-actions" }, actions),
        );
      }),
    ),
    pager,
  );
  if (focused) {
    const again = box.querySelector(`[${focused[0]}="${CSS.escape(focused[1])}"]`);
    if (again) again.focus();
  }
}

let shown = "";

function turnPage(step) {
  offset = Math.max(0, offset + step);
  refresh();
}

async function refresh() {
  try {
    const page = await api(`/api/tables?offset=${offset}&limit=${PAGE}`);
    if (!page.tables.length && page.total > 0 && offset > 0) { // the page emptied: the last one
      offset = Math.max(0, Math.floor((page.total - 1) / PAGE) * PAGE);
      return refresh();
    }
    tables = page.tables;
    total = page.total;
    const now = JSON.stringify([offset, total, tables]);
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
      lang: $("table-lang").value,
      name: name(),
    });
    setToken(answer.id, answer.token);
    location.href = `/t/${encodeURIComponent(answer.id)}`;
  } catch (err) {
    toast(err.message);
    button.disabled = false;
  }
}

function main() {
  $("name").value = getName();
  $("create").addEventListener("submit", create);
  $("page-lang").addEventListener("change", (event) => {
    choosePageLanguage(event.target.value);
    $("table-lang").value = event.target.value;
    setLanguage(event.target.value);
  });
  const lang = pageLanguage();
  $("table-lang").replaceChildren(h("option", { value: lang }, lang));
  $("table-lang").value = lang;
  setLanguage(lang);
  refresh();
  setInterval(refresh, 4000);
}

main();
