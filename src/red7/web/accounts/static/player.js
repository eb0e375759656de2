// Red7 web: a person's public profile, /players/{username}: their rating and their finished
// games at public tables (GET /api/players/{username}), linked from the leaderboard. Its
// words come from GET /api/account/ui; every text is set with textContent (never HTML).

import { api, choosePageLanguage, fillLanguages, gameLine, h, loadWords, pageLanguage, t } from "./common.js";

const $ = (id) => document.getElementById(id);
const username = decodeURIComponent(location.pathname.split("/").pop() || "");
let words = { lang: "en", languages: { en: "English", "pt-BR": "Português (Brasil)" }, ui: {} };
let profile = null;
let refusal = null; // the refusal of the profile asked for, if it was refused

async function loadProfile() {
  try {
    profile = await api(`/api/players/${encodeURIComponent(username)}`);
    refusal = null;
  } catch (err) {
    profile = null;
    refusal = err;
  }
}

function draw() {
  const ui = words.ui;
  const name = profile ? profile.username : username;
  document.title = `Red7 · ${t(ui, "profile_title", { name })}`;
  $("title").textContent = t(ui, "profile_title", { name });
  if (!profile) {
    // (no such person is said in the page's language; anything else as the server said it)
    const text = refusal && refusal.status === 404 ? t(ui, "no_player", { name: username }) : refusal && refusal.message;
    $("profile").replaceChildren(h("p", { class: "panel none", id: "refusal" }, text || ""));
    return;
  }
  const { rating, games } = profile;
  $("profile").replaceChildren(
    h("section", { class: "panel", "aria-labelledby": "rating-title" },
      h("h2", { id: "rating-title" }, t(ui, "leaderboard")),
      h("p", { id: "rating" }, rating
        ? t(ui, "their_rating", { rating: rating.rating.toFixed(1), place: rating.place, games: rating.games })
        : t(ui, "their_not_rated"))),
    h("section", { class: "panel", "aria-labelledby": "games-title" },
      h("h2", { id: "games-title" }, t(ui, "their_games")),
      games.length
        ? h("ul", { id: "games", class: "games" }, games.map((game) => gameLine(ui, game)))
        : h("p", { class: "none" }, t(ui, "their_no_games"))),
  );
}

async function setLanguage(lang) {
  words = await loadWords(lang, "/api/account/ui");
  const ui = words.ui;
  document.documentElement.lang = words.lang;
  $("page-lang-label").textContent = t(ui, "language");
  $("leaderboard").textContent = t(ui, "leaderboard");
  $("back").textContent = t(ui, "back");
  fillLanguages($("page-lang"), words);
  draw();
}

async function main() {
  $("page-lang").addEventListener("change", (event) => {
    choosePageLanguage(event.target.value);
    setLanguage(event.target.value);
  });
  await loadProfile();
  await setLanguage(pageLanguage());
}

main();
