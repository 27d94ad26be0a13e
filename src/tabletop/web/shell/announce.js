// What a screen reader hears: short sentences in one polite live region (#announcer in
// index.html, visually hidden). The pages themselves are not live regions: a redraw of
// the board would be read out in full.
//
// The region holds one announcement at a time: a new one replaces the last, so a screen
// reader that reads the region's whole content on a change (some do) never repeats the
// earlier ones. Each stays alone in the region for HOLD_MS at least, so that one coming
// right after it (a bot's move a moment after the round it ends) cannot cut it off: it
// waits its turn, with any others that come meanwhile.
import { h } from "./util.js";

const HOLD_MS = 1000;
let shownAt = -Infinity;
let waiting = []; // [{text, supersede}] to say once the shown one has had its time
let timer = null;

/** Say ``text`` politely (nothing for an empty text). ``supersede``: a text of the
 * moment (where the ghost is now, a replay's step) that makes the waiting texts of its
 * kind out of date; the others (the moves, the turn) still follow. */
export function announce(text, { supersede = false } = {}) {
  if (!text || !document.getElementById("announcer")) return;
  const wait = shownAt + HOLD_MS - performance.now();
  if (wait <= 0 && timer === null) {
    show(text);
    return;
  }
  if (supersede) waiting = waiting.filter((w) => !w.supersede);
  waiting.push({ text, supersede });
  timer ??= setTimeout(() => {
    timer = null;
    const next = waiting.map((w) => w.text).join(" ");
    waiting = [];
    if (next) show(next);
  }, Math.max(0, wait));
}

function show(text) {
  const region = document.getElementById("announcer");
  if (!region) return;
  region.replaceChildren(h("p", { "data-testid": "announcement" }, text));
  shownAt = performance.now();
}
