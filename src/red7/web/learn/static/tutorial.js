// Red7 web: the guided first game (/tutorial). Each chapter is drawn with the table page's
// own board (render.js, from the table frame the server makes for the learner's seat); each
// decision goes to POST /api/tutorial, which judges it with the engine (refused, missed:
// not applied, told why; good: the turn goes on; done). The server keeps nothing: this page
// holds the chapter and the turn's decisions so far, and the chapters done (localStorage),
// so the tutorial goes on where it was left.

import { api, h, t, toast } from "./common.js";
import { pickable, renderBoard } from "./render.js";

const DONE_KEY = "red7:tutorial:done";
const KIND_KEYS = { play: "p", canvas: "c", take: "t", end: "e", draw: "d", decline: "n", concede: "x" };

const lang = document.getElementById("main").dataset.lang || "en";
let data = null; // the server's last answer (TutorialView)
let chapter = 0;
let decisions = []; // the turn's decisions the server accepted so far
let selected = null; // the card picked
let pending = false;
let decided = null; // the chapter the learner made a decision in (its lesson is folded then)
let answers = 0; // answers drawn so far: the page says it (main's data-answers), so a test waits on it

function doneKeys() {
  try {
    const keys = JSON.parse(localStorage.getItem(DONE_KEY) || "[]");
    return Array.isArray(keys) ? keys.filter((k) => typeof k === "string") : [];
  } catch {
    return [];
  }
}

function markDone(key) {
  const keys = doneKeys();
  if (!keys.includes(key)) keys.push(key);
  localStorage.setItem(DONE_KEY, JSON.stringify(keys));
}

/** Ask the server for chapter `n` after `decisions`, judging `decision` (if any). */
async function load(n, decision = null) {
  pending = true;
  try {
    const answer = await api("/api/tutorial", { chapter: n, decisions, decision, lang });
    data = answer;
    chapter = n;
    decisions = answer.decisions;
    if (answer.verdict && answer.verdict.outcome !== "good") selected = null;
    if (answer.done) markDone(answer.key);
  } catch (err) {
    toast(err.message);
  } finally {
    pending = false;
  }
  draw();
  answers += 1;
  document.getElementById("main").dataset.answers = String(answers);
}

function start(n) {
  decisions = [];
  selected = null;
  load(n);
}

function firstNotDone(chapters) {
  const done = doneKeys();
  const i = chapters.findIndex((c) => !done.includes(c.key));
  return i < 0 ? null : i;
}

function w(key, vars) {
  return t(data.words, key, vars);
}

function lessonEl() {
  const verdict = data.verdict;
  const parts = [
    h("h2", { id: "chapter-title" }, w("chapter_n", { n: data.chapter + 1, total: data.chapters.length, title: data.title })),
    // the lesson is read before the first decision, then folded (a phone shows the hand sooner)
    h(
      "details",
      { class: "lesson-text", open: decided !== data.chapter },
      h("summary", {}, w("lesson")),
      h("p", {}, data.lesson),
    ),
    h("p", { class: "goal", id: "goal" }, h("strong", {}, w("goal", { goal: data.goal }))),
  ];
  if (verdict && verdict.text) {
    parts.push(
      h(
        "div",
        { class: `verdict ${verdict.outcome}`, id: "verdict", role: "status", "data-outcome": verdict.outcome },
        verdict.text.split("\n").map((line) => h("p", {}, line)),
      ),
    );
  }
  const controls = [];
  if (data.done) {
    const next = data.chapter + 1 < data.chapters.length;
    controls.push(
      next
        ? h("button", { type: "button", class: "primary next-chapter", onclick: () => start(data.chapter + 1) }, w("next"))
        : h("p", { class: "finished" }, w("finished"), " ", h("a", { href: "/" }, w("play_now"))),
    );
  }
  controls.push(h("button", { type: "button", class: "restart-chapter", onclick: () => start(data.chapter) }, w("restart")));
  if (data.chapter + 1 < data.chapters.length && !data.done) {
    controls.push(h("button", { type: "button", class: "skip-chapter", onclick: () => start(data.chapter + 1) }, w("skip")));
  }
  parts.push(h("p", { class: "lesson-controls" }, controls));
  return parts;
}

function chaptersEl() {
  const done = doneKeys();
  return [
    h("h2", {}, w("chapters")),
    h(
      "ol",
      {},
      data.chapters.map((c, i) =>
        h(
          "li",
          { class: done.includes(c.key) ? "done" : null },
          h(
            "a",
            {
              href: `#${c.key}`,
              "aria-current": i === data.chapter ? "step" : null,
              onclick: (event) => {
                event.preventDefault();
                start(i);
              },
            },
            c.title,
          ),
          done.includes(c.key) ? h("span", { class: "badge done" }, ` ✓ ${w("done_mark")}`) : null,
        ),
      ),
    ),
    h("p", {}, h("button", { type: "button", class: "restart-all", onclick: restartAll }, w("restart_all"))),
  ];
}

function restartAll() {
  localStorage.removeItem(DONE_KEY);
  start(0);
}

function optionButton(option, ui) {
  const key = option.kind === "move" ? (option.to === "deck" ? "k" : "c") : KIND_KEYS[option.kind] || "";
  const label = option.kind === "move" ? t(ui, option.to === "deck" ? "deck" : "canvas") : t(ui, option.kind);
  return h(
    "button",
    {
      type: "button",
      class: ["act", `k-${option.kind}`, option.kind === "concede" && "danger"].filter(Boolean).join(" "),
      title: option.text,
      "aria-keyshortcuts": key || null,
      "data-action": option.action,
      "data-kind": option.kind,
      "data-focus": `act:${option.action}`,
      onclick: () => choose(option),
    },
    h("span", {}, label),
    key ? h("kbd", { "aria-hidden": "true" }, key) : null,
  );
}

function actionsEl(picks) {
  const g = data.frame.game;
  if (data.done || !g) return null;
  const ui = data.frame.ui;
  const buttons = [];
  if (selected && picks.byCard.has(selected)) for (const option of picks.byCard.get(selected)) buttons.push(optionButton(option, ui));
  for (const option of g.options) if (!option.card && option.kind !== "concede") buttons.push(optionButton(option, ui));
  if (decisions.length) {
    buttons.push(
      h("button", { type: "button", class: "act k-take-back", "data-kind": "take_back", onclick: takeBack },
        h("span", {}, w("take_back")), h("kbd", { "aria-hidden": "true" }, "u")),
    );
  }
  const concede = g.options.find((o) => o.kind === "concede");
  if (concede) buttons.push(optionButton(concede, ui));
  return h("div", { class: "buttons", role: "group", "aria-labelledby": "prompt" }, buttons);
}

function draw() {
  if (!data) return;
  document.getElementById("lesson").replaceChildren(...lessonEl());
  document.getElementById("chapters").replaceChildren(...chaptersEl());
  const frame = data.frame;
  if (data.done && frame.game && frame.game.round > 1) {
    // the chapter's round ended (the verdict tells its score): the engine has dealt the
    // next one already, which is no part of the lesson
    document.getElementById("board").replaceChildren();
    return;
  }
  const picks = pickable(frame);
  const interactive = !data.done && !pending;
  if (selected && !picks.usable.includes(selected)) selected = null;
  if (!selected && picks.usable.length === 1) selected = picks.usable[0];
  renderBoard(document.getElementById("board"), frame, {
    interactive,
    selected,
    numbered: picks.numbered,
    usable: picks.usable,
    unusable: frame.game.unusable || {},
    onCard: (id) => {
      selected = id;
      draw();
    },
    onWhy: (why) => toast(why),
    turn: interactive,
    prompt: data.done ? "" : undefined,
    actions: actionsEl(picks),
  });
}

function choose(option) {
  if (pending || !data || data.done) return;
  decided = chapter;
  load(chapter, option.action);
}

function takeBack() {
  if (pending || !decisions.length) return;
  decisions = [];
  selected = null;
  load(chapter);
}

document.addEventListener("keydown", (event) => {
  if (!data || data.done || pending || !data.frame.game) return;
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const tag = event.target && event.target.tagName;
  if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
  const picks = pickable(data.frame);
  const options = data.frame.game.options;
  const forCard = (test) => (selected ? (picks.byCard.get(selected) || []).find(test) : null);
  const key = event.key;
  let option = null;
  let handled = true;
  if (/^[1-9]$/.test(key)) {
    const id = picks.numbered[Number(key) - 1];
    if (id && picks.usable.includes(id)) {
      selected = id;
      draw();
    } else if (id && data.frame.game.unusable && data.frame.game.unusable[id]) toast(data.frame.game.unusable[id]);
  } else if (key === "p") option = forCard((o) => o.kind === "play");
  else if (key === "c") option = forCard((o) => o.kind === "canvas" || (o.kind === "move" && o.to !== "deck"));
  else if (key === "k") option = forCard((o) => o.kind === "move" && o.to === "deck");
  else if (key === "t") option = forCard((o) => o.kind === "take");
  else if (key === "d") option = options.find((o) => o.kind === "draw");
  else if (key === "n") option = options.find((o) => o.kind === "decline");
  else if (key === "e") option = options.find((o) => o.kind === "end");
  else if (key === "x") option = options.find((o) => o.kind === "concede");
  else if (key === "u") takeBack();
  else handled = false;
  if (handled) event.preventDefault();
  if (option) choose(option);
});

// the first chapter not done (all done: the first), unless the address names one (#key)
(async () => {
  decisions = [];
  await load(0);
  if (!data) return;
  const named = data.chapters.findIndex((c) => `#${c.key}` === location.hash);
  const n = named >= 0 ? named : firstNotDone(data.chapters);
  if (n !== null && n !== 0) start(n);
})();
