// Red7 web: the admin's page, /admin (an admin's login session only: the server sends
// anyone else to /account). It lists the tables open or being played and who is connected
// (GET /api/admin, again every few seconds), the accounts and the metrics of the process
// that answered; its buttons close a table, revoke a seat's token, ban, unban or remove an
// account, or end its login sessions (POSTs of {} as JSON: another site's page can send
// neither). Every text is set with textContent (never HTML): table and account names are
// other people's words.

import { api, choosePageLanguage, fillLanguages, h, pageLanguage, t, toast } from "./common.js";

let words = { lang: "en", languages: { en: "English", "pt-BR": "Português (Brasil)" }, ui: {} };
let view = null;
const $ = (id) => document.getElementById(id);

async function act(path) {
  try {
    await api(path, {});
    toast(t(words.ui, "done"), 3000);
  } catch (err) {
    toast(err.message);
  }
  await refresh();
}

function tableItem(table) {
  const ui = words.ui;
  const id = encodeURIComponent(table.id);
  const status = t(ui, `status_${table.status}`);
  const seats = table.seats.map((seat) => {
    const parts = [seat.name];
    if (seat.person) {
      parts.push(" ", h("button", { type: "button", "data-revoke": `${table.id}:${seat.seat}`,
        onclick: () => act(`/api/admin/tables/${id}/seats/${seat.seat}/revoke`) }, t(ui, "revoke_seat", { name: seat.name })));
    }
    return h("li", {}, parts);
  });
  return h("li", { class: "admin-table", "data-table": table.id },
    h("p", {}, h("a", { href: `/t/${id}?watch` }, t(ui, "table_line", {
      id: table.id, settings: table.settings, game: table.game, status, n: table.connected,
    }))),
    h("ul", {}, seats),
    h("button", { type: "button", class: "primary", "data-close": table.id,
      onclick: () => act(`/api/admin/tables/${id}/close`) }, t(ui, "close_table")));
}

function accountItem(account) {
  const ui = words.ui;
  const name = encodeURIComponent(account.username);
  const marks = [account.admin ? t(ui, "is_admin") : null, account.banned ? t(ui, "is_banned") : null].filter(Boolean);
  const buttons = [];
  if (!account.admin) {
    buttons.push(account.banned
      ? h("button", { type: "button", onclick: () => act(`/api/admin/accounts/${name}/unban`) }, t(ui, "unban"))
      : h("button", { type: "button", "data-ban": account.username, onclick: () => act(`/api/admin/accounts/${name}/ban`) }, t(ui, "ban")));
    buttons.push(h("button", { type: "button", onclick: () => act(`/api/admin/accounts/${name}/remove`) }, t(ui, "remove")));
  }
  buttons.push(h("button", { type: "button", onclick: () => act(`/api/admin/accounts/${name}/logout`) }, t(ui, "end_logins")));
  return h("li", { "data-account": account.username },
    t(ui, "account_line", { name: account.username, logins: account.logins }),
    marks.length ? ` (${marks.join(", ")})` : "", " ", buttons);
}

function draw() {
  const ui = words.ui;
  if (!view) return;
  $("connected").textContent = t(ui, "connected", { n: view.connected });
  $("tables").replaceChildren(view.tables.length
    ? h("ul", { class: "admin-list" }, view.tables.map(tableItem))
    : h("p", { class: "none" }, t(ui, "no_tables")));
  $("accounts").replaceChildren(h("ul", { class: "admin-list" }, view.accounts.map(accountItem)));
  $("metrics").replaceChildren(...Object.entries(view.metrics).flatMap(([name, value]) => [
    h("dt", {}, name), h("dd", {}, Number.isInteger(value) ? String(value) : value.toFixed(3)),
  ]));
}

async function refresh() {
  try {
    view = await api("/api/admin");
  } catch (err) {
    view = null;
    $("tables").replaceChildren(h("p", { role: "alert" }, err.status === 403 ? t(words.ui, "not_admin") : err.message));
    return;
  }
  draw();
}

async function setLanguage(lang) {
  try {
    words = await api(`/api/account/ui?lang=${encodeURIComponent(lang)}`);
    const lobby = await api(`/api/ui?lang=${encodeURIComponent(lang)}`); // the tables' status words
    words.ui = { ...lobby.ui, ...words.ui };
  } catch {
    words = { lang: "en", languages: { en: "English" }, ui: {} };
  }
  const ui = words.ui;
  document.documentElement.lang = words.lang;
  document.title = `Red7 · ${t(ui, "admin_title")}`;
  $("title").textContent = t(ui, "admin_title");
  $("page-lang-label").textContent = t(ui, "language");
  $("tables-title").textContent = t(ui, "tables");
  $("accounts-title").textContent = t(ui, "accounts");
  $("metrics-title").textContent = t(ui, "metrics");
  $("back").textContent = t(ui, "account");
  fillLanguages($("page-lang"), words);
  draw();
}

async function main() {
  $("page-lang").addEventListener("change", (event) => {
    choosePageLanguage(event.target.value);
    setLanguage(event.target.value);
  });
  await setLanguage(pageLanguage());
  await refresh();
  setInterval(refresh, 5000);
}

main();
