// Red7 web: the review of a finished game, /t/<id>/review/<n>. The server works it out
// once per game (GET /api/tables/<id>/games/<n>/review; the first to ask starts it) and
// says how far it is: the page shows a progress bar and asks again every second until the
// review's text comes, then shows it line by line (as text: never as HTML), each decision's
// verdict a link to its step in the replay.

import { api, h, loadWords, pageLanguage, t, toast } from "./common.js";

const parts = location.pathname.split("/");
const tableId = decodeURIComponent(parts[2] || "");
const number = Number(parts[4]);
let ui = {};
const $ = (id) => document.getElementById(id);

function words() {
  $("title").textContent = t(ui, "review");
  document.title = `Red7 · ${t(ui, "review")}`;
  $("back").textContent = t(ui, "back_to_table");
  $("replay-link").textContent = t(ui, "replay");
}

function progress(answer) {
  const bar = $("progress");
  bar.max = Math.max(1, answer.total);
  bar.value = answer.done;
  $("progress-label").textContent = t(ui, "reviewing", { done: answer.done, total: answer.total });
  document.body.dataset.review = answer.status;
}

function shown(text) {
  $("progress-box").hidden = true;
  document.body.dataset.review = "done";
  const replay = `/t/${encodeURIComponent(tableId)}/replay/${number}`;
  $("review").replaceChildren(
    ...text.split("\n").map((line) => {
      if (!line) return h("br", {});
      // a decision's verdict opens with its number in the game's record ("13. Round 1, turn 7, …"):
      // the line links to that step of the replay (the frame after decision 13)
      const step = /^(\d+)\. /.exec(line);
      return h("p", {}, step ? h("a", { class: "step", href: `${replay}#${step[1]}` }, line) : line);
    }),
  );
}

async function poll() {
  const answer = await api(`/api/tables/${encodeURIComponent(tableId)}/games/${number}/review`);
  if (document.documentElement.lang !== answer.lang) {
    // the page speaks the review's language: the reader's (else, if the server speaks neither, the table's)
    ui = (await loadWords(answer.lang)).ui;
    document.documentElement.lang = answer.lang;
    words();
  }
  if (answer.status === "done") {
    progress(answer);
    shown(answer.text);
    return;
  }
  if (answer.status === "failed") {
    document.body.dataset.review = "failed";
    $("review").replaceChildren(h("p", { class: "gone" }, t(ui, "review_failed")));
    return;
  }
  progress(answer);
  setTimeout(() => poll().catch(failed), 1000);
}

function failed(err) {
  document.body.dataset.review = "refused";
  $("progress-box").hidden = true;
  $("review").replaceChildren(h("p", { class: "gone" }, err.message));
}

async function main() {
  $("back").href = `/t/${encodeURIComponent(tableId)}`;
  $("replay-link").href = `/t/${encodeURIComponent(tableId)}/replay/${number}`;
  try {
    const w = await loadWords(pageLanguage());
    ui = w.ui;
    document.documentElement.lang = w.lang;
  } catch (err) {
    toast(err.message);
  }
  words();
  $("progress-label").textContent = t(ui, "reviewing", { done: 0, total: "…" });
  poll().catch(failed);
}

main();
