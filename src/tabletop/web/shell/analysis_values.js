// How the analysis writes its values: a seat's colour, the unit, a value at the scale's
// rounding, the marks' words and signs, a move in the game's words and the counts of
// marks (shared by the panel and its graph).
import { formatNumber, t, tn } from "./i18n.js";

export const MARK_WORDS = () => ({ inaccuracy: t("Inaccuracy"), mistake: t("Mistake"), blunder: t("Blunder") });
export const MARK_SIGNS = { inaccuracy: "?!", mistake: "?", blunder: "??" };

/** A seat's colour as a CSS colour (a game's seatColor gives `{fill, ink}` or a colour). */
export function seatFill(mod, seat, count) {
  const colour = mod.seatColor(seat, count);
  return typeof colour === "string" ? colour : colour.fill;
}

export function unitName(scale) {
  return scale.unit === "points" ? t("points") : scale.unit === "chance to win" ? t("chance to win") : scale.unit;
}

/** Whether the game's values are shares (its pattern formats a percentage, "{value:.0%}"). */
export function isShare(scale) {
  return /%\}$/.test(scale.pattern || "");
}

export function fmt(value, scale) {
  if (isShare(scale)) return `${formatNumber(Math.round(value * 100))} %`;
  return formatNumber(Math.round(value * 10) / 10, 1);
}


/** A sentence part the server sends (``{key, args}``, args that may be parts: a tile's
 * colour) in the page's language. */
export function partWords(part) {
  if (!part || typeof part !== "object" || !("key" in part)) return String(part ?? "");
  const args = Object.fromEntries(Object.entries(part.args || {}).map(([name, value]) => [name, partWords(value)]));
  return t(part.key, args);
}

/** The move ``which`` ("played" or "best") in the game's words ("the 9 at column 12,
 * row 8, level 0, turned 90°"), from the analyser's ``describe``; a game without one
 * (or an analysis stored before it) shows the engine's notation. */
export function moveWords(move, which) {
  const words = move[`${which}_words`];
  return words ? partWords(words) : String(move[which]);
}

/** The move's label in the page's language ("Runde 3"), else as the server wrote it. */
export function moveLabel(move) {
  if (move.label_words) return partWords(move.label_words);
  return move.label || `#${move.index + 1}`;
}

/** "1 inaccuracy · 2 mistakes · 0 blunders", by the page language's plural rules. */
export function markCounts(seat) {
  return [
    tn("{n} inaccuracy", "{n} inaccuracies", seat.inaccuracies),
    tn("{n} mistake", "{n} mistakes", seat.mistakes),
    tn("{n} blunder", "{n} blunders", seat.blunders),
  ].join(" · ");
}
