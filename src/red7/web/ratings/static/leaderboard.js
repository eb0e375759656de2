// Red7 web: the leaderboard, /leaderboard. A page of the rated players at a time
// (GET /api/leaderboard?offset=&limit=&kind=), people, bots or both, and the rules that
// decide which games count (their figures come with the leaderboard). The page's words come
// from GET /api/ui in the lobby's language. A person's name links to their public profile.

import { api, choosePageLanguage, fillLanguages, h, loadWords, pageLanguage, t, toast } from "./common.js";

const PAGE = 50;
const $ = (id) => document.getElementById(id);
let words = { lang: "en", languages: { en: "English", "pt-BR": "Português (Brasil)" }, ui: {} };
let board = { lines: [], total: 0, offset: 0, rules: null };
let kind = "";

function applyWords() {
  const ui = words.ui;
  document.documentElement.lang = words.lang;
  document.title = `${t(ui, "leaderboard")} — ${t(ui, "lobby_title")}`;
  $("title").textContent = t(ui, "leaderboard");
  $("page-lang-label").textContent = t(ui, "language");
  $("about").textContent = t(ui, "leaderboard_about");
  $("kind-label").textContent = t(ui, "players");
  $("everyone").textContent = t(ui, "everyone");
  $("people").textContent = t(ui, "people_only");
  $("bots").textContent = t(ui, "bots_only");
  $("counting-title").textContent = t(ui, "counting_title");
  fillLanguages($("page-lang"), words);
  draw();
}

function drawRules() {
  const ui = words.ui;
  const rules = board.rules;
  if (!rules) return; // the leaderboard has not come yet
  $("counting").replaceChildren(
    h("li", {}, t(ui, "counting_played")),
    h("li", {}, t(ui, "counting_repeated", { games: rules.repeats, hours: rules.window_hours })),
  );
}

function nameOf(line) {
  const ui = words.ui;
  if (line.kind === "bot") return t(ui, "bot_line", { level: t(ui, `level_${line.name}`) });
  return h("a", { href: `/players/${encodeURIComponent(line.name)}` }, line.name); // their public profile
}

function draw() {
  const ui = words.ui;
  const box = $("board");
  drawRules();
  if (!board.lines.length) {
    box.replaceChildren(h("p", { class: "none" }, t(ui, "no_ratings")));
    return;
  }
  const head = h("tr", {}, ...["place", "player", "rating", "games_played"].map((key) => h("th", { scope: "col" }, t(ui, key))));
  const rows = board.lines.map((line) => h(
    "tr",
    { class: line.kind === "bot" ? "bot" : null },
    h("td", {}, String(line.place)),
    h("th", { scope: "row" }, nameOf(line)),
    h("td", { title: `μ ${line.mu} · σ ${line.sigma}` }, line.rating.toFixed(1)),
    h("td", {}, String(line.games)),
  ));
  const table = h("table", { class: "ratings" }, h("caption", { class: "sr-only" }, t(ui, "leaderboard")),
    h("thead", {}, head), h("tbody", {}, rows));
  const last = board.offset + board.lines.length;
  const pager = board.total <= PAGE ? null : h(
    "nav",
    { class: "pager", "aria-label": t(ui, "leaderboard") },
    h("button", { type: "button", disabled: board.offset === 0, onclick: () => load(board.offset - PAGE) }, t(ui, "previous")),
    h("span", { class: "where" }, t(ui, "page_of", { first: board.offset + 1, last, total: board.total })),
    h("button", { type: "button", disabled: last >= board.total, onclick: () => load(board.offset + PAGE) }, t(ui, "next")),
  );
  box.replaceChildren(table, pager || "");
}

async function load(offset) {
  const query = new URLSearchParams({ offset: String(Math.max(0, offset)), limit: String(PAGE) });
  if (kind) query.set("kind", kind);
  try {
    board = await api(`/api/leaderboard?${query}`);
  } catch (err) {
    toast(err.message);
    return;
  }
  draw();
}

async function main() {
  words = await loadWords(pageLanguage());
  applyWords();
  $("page-lang").addEventListener("change", async (event) => {
    choosePageLanguage(event.target.value);
    words = await loadWords(event.target.value);
    applyWords();
  });
  for (const radio of document.querySelectorAll("input[name=kind]")) {
    radio.addEventListener("change", () => {
      kind = radio.value;
      load(0);
    });
  }
  await load(0);
}

main();
