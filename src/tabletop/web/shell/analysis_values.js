// How the analysis writes its values: a seat's colour, the unit, a value at the scale's
// rounding, the marks' words and signs (shared by the panel and its graph).
import { formatNumber, t } from "./i18n.js";

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

