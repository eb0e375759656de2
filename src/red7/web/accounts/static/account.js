// Red7 web: the account page, /account. A guest registers or logs in (POST
// /api/account/register, /api/account/login: the server answers with an HttpOnly cookie,
// which no script here reads); a person logged in sees their finished games with links to
// their replays (GET /api/account/games) and logs out. Its words come from GET
// /api/account/ui; every text is set with textContent (never HTML).

import { api, choosePageLanguage, fillLanguages, gameLine, h, loadWords, pageLanguage, t, toast } from "./common.js";

let words = { lang: "en", languages: { en: "English", "pt-BR": "Português (Brasil)" }, ui: {} };
let me = { username: null, admin: false };
const $ = (id) => document.getElementById(id);

function credentialsForm(kind) {
  const ui = words.ui;
  const id = (name) => `${kind}-${name}`;
  const form = h(
    "form",
    { id: kind, class: "panel", "aria-labelledby": id("title") },
    h("h2", { id: id("title") }, t(ui, kind === "login" ? "login" : "register_title")),
    h("p", { class: "field" },
      h("label", { for: id("username") }, t(ui, "username")),
      h("input", { id: id("username"), name: "username", maxlength: 20, autocomplete: "username", required: true,
        "aria-describedby": kind === "register" ? id("username-rules") : null }),
      kind === "register" ? h("small", { id: id("username-rules") }, t(ui, "username_rules")) : null),
    h("p", { class: "field" },
      h("label", { for: id("password") }, t(ui, "password")),
      h("input", { id: id("password"), name: "password", type: "password", maxlength: 256, required: true,
        autocomplete: kind === "login" ? "current-password" : "new-password",
        "aria-describedby": kind === "register" ? id("password-rules") : null }),
      kind === "register" ? h("small", { id: id("password-rules") }, t(ui, "password_rules")) : null),
    h("p", {}, h("button", { type: "submit", class: "primary", id: id("button") }, t(ui, kind === "login" ? "login" : "register"))),
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      me = await api(`/api/account/${kind}`, { username: $(id("username")).value, password: $(id("password")).value });
      await draw();
    } catch (err) {
      toast(err.message);
    }
  });
  return form;
}

async function draw() {
  const ui = words.ui;
  const box = $("account");
  if (!me.username) {
    box.replaceChildren(credentialsForm("login"), credentialsForm("register"));
    return;
  }
  let games = [];
  let rating = null;
  try {
    ({ games, rating } = await api("/api/account/games"));
  } catch (err) {
    toast(err.message);
  }
  const logout = h("button", { type: "button", id: "logout" }, t(ui, "logout"));
  logout.addEventListener("click", async () => {
    try {
      me = await api("/api/account/logout", {});
      await draw();
    } catch (err) {
      toast(err.message);
    }
  });
  box.replaceChildren(
    h("section", { class: "panel", "aria-labelledby": "me" },
      h("h2", { id: "me" }, t(ui, "logged_in_as", { name: me.username })),
      h("p", {}, logout, me.admin ? [" ", h("a", { href: "/admin", id: "admin-link" }, t(ui, "admin"))] : null),
      h("p", { id: "rating" },
        rating ? t(ui, "your_rating", { rating: rating.rating.toFixed(1), place: rating.place, games: rating.games }) : t(ui, "not_rated"),
        " ", h("a", { href: "/leaderboard" }, t(ui, "leaderboard")),
        " · ", h("a", { href: `/players/${encodeURIComponent(me.username)}`, id: "public-profile" }, t(ui, "public_profile")))),
    h("section", { class: "panel", "aria-labelledby": "games-title" },
      h("h2", { id: "games-title" }, t(ui, "games_title")),
      games.length ? h("ul", { id: "games", class: "games" }, games.map((game) => gameLine(ui, game))) : h("p", { class: "none" }, t(ui, "no_games"))),
  );
}

async function setLanguage(lang) {
  words = await loadWords(lang, "/api/account/ui");
  const ui = words.ui;
  document.documentElement.lang = words.lang;
  document.title = `Red7 · ${t(ui, "account_title")}`;
  $("title").textContent = t(ui, "account_title");
  $("page-lang-label").textContent = t(ui, "language");
  $("back").textContent = t(ui, "back");
  fillLanguages($("page-lang"), words);
  await draw();
}

async function main() {
  $("page-lang").addEventListener("change", (event) => {
    choosePageLanguage(event.target.value);
    setLanguage(event.target.value);
  });
  try {
    me = await api("/api/account");
  } catch {
    me = { username: null, admin: false };
  }
  await setLanguage(pageLanguage());
}

main();
