// What a screen reader hears: short sentences in one polite live region (#announcer in
// index.html, visually hidden). The pages themselves are not live regions: a redraw of
// the board would be read out in full.
import { h } from "./util.js";

const KEEP = 3; // recent messages left in the region (older ones are removed, unread again)

/** Say ``text`` politely (nothing for an empty text). */
export function announce(text) {
  const region = document.getElementById("announcer");
  if (!region || !text) return;
  region.append(h("p", { "data-testid": "announcement" }, text));
  while (region.children.length > KEEP) region.firstChild.remove();
}
