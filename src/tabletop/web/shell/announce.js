// What a screen reader hears: short sentences in one polite live region (#announcer in
// index.html, visually hidden). The pages themselves are not live regions: a redraw of
// the board would be read out in full.
//
// The region holds one announcement at a time: a new one replaces the last, so a screen
// reader that reads the region's whole content on a change (some do) never repeats the
// earlier ones. News (a move, whose turn it is, the result) stays alone in the region for
// HOLD_MS at least, so that the next one (a bot's move a moment after the round it ends)
// cannot cut it off: it waits its turn. A text of the moment (where the ghost is now, the
// replay's step) holds nothing up and is itself replaced by a later one while it waits.
import { h } from "./util.js";

const HOLD_MS = 500; // the accessibility tree has passed it on; a reader queues it
let heldUntil = 0; // the news on show stays until then
const news = []; // news waiting their turn, oldest first
let moment = null; // the latest text of the moment waiting, if any
let timer = null;

/** Say ``text`` politely (nothing for an empty text); ``moment``: a text of the moment
 * rather than news (see above). */
export function announce(text, { moment: now = false } = {}) {
  if (!text || !document.getElementById("announcer")) return;
  if (now) moment = text;
  else news.push(text);
  next();
  count();
}

/** How many texts wait their turn, on the region (``data-waiting``): a test that counts
 * what is said waits for 0 rather than for a while. */
function count() {
  const region = document.getElementById("announcer");
  if (region) region.dataset.waiting = String(news.length + (moment !== null ? 1 : 0));
}

function next() {
  if (timer !== null) return;
  const wait = heldUntil - performance.now();
  if (wait > 0) {
    timer = setTimeout(() => {
      timer = null;
      next();
      count();
    }, wait);
    return;
  }
  if (news.length) {
    show(news.shift());
    heldUntil = performance.now() + HOLD_MS;
    if (news.length || moment !== null) next();
  } else if (moment !== null) {
    show(moment);
    moment = null;
  }
}

function show(text) {
  const region = document.getElementById("announcer");
  if (region) region.replaceChildren(h("p", { "data-testid": "announcement" }, text));
}
