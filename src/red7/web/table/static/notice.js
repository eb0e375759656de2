// Red7 web: noticing that it is your turn. The tab's title says so while it is ("● Your
// turn — Red7"), and, if the person switched it on (off by default; kept in this browser's
// localStorage), a short sound made with WebAudio plays when the turn becomes theirs.

import { h } from "./common.js";

const SOUND_KEY = "red7:sound";
let wasMyTurn = false;
let audio = null;

/** Is the turn sound switched on in this browser? */
export function soundOn() {
  try {
    return localStorage.getItem(SOUND_KEY) === "on";
  } catch {
    return false; // storage refused (private mode): no sound
  }
}

function beep() {
  try {
    audio = audio || new AudioContext();
    const now = audio.currentTime;
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.type = "sine";
    tone.frequency.setValueAtTime(660, now);
    tone.frequency.setValueAtTime(880, now + 0.09);
    gain.gain.setValueAtTime(0.0001, now);
    gain.gain.exponentialRampToValueAtTime(0.2, now + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + 0.25);
    tone.connect(gain).connect(audio.destination);
    tone.start(now);
    tone.stop(now + 0.26);
  } catch {
    // no audio here: the title still says it
  }
}

/** After each frame: the title (`yours` while it is the person's turn, else `usual`), and
 * the sound when the turn has just become theirs (not for the page's first frame: they
 * are looking at it). `document.body.dataset.turn` says which, for tests and styles. */
export function noticeTurn(myTurn, usual, yours, first) {
  document.title = myTurn ? yours : usual;
  document.body.dataset.turn = myTurn ? "yours" : "";
  if (myTurn && !wasMyTurn && !first && soundOn()) beep();
  wasMyTurn = myTurn;
}

/** The switch of the turn sound, labelled `label`. */
export function soundToggle(label) {
  return h(
    "p",
    { class: "sound-toggle" },
    h("input", {
      type: "checkbox",
      id: "turn-sound",
      checked: soundOn(),
      "data-focus": "sound",
      onchange: (e) => {
        try {
          localStorage.setItem(SOUND_KEY, e.target.checked ? "on" : "off");
        } catch {
          // storage refused: the switch holds for this page only
        }
        if (e.target.checked) beep(); // what it will sound like (and a gesture unlocks audio)
      },
    }),
    h("label", { for: "turn-sound" }, label),
  );
}
