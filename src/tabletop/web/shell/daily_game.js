// The daily challenge on a game's page (state.game.daily: {day, counted}, docs/web.md
// "Daily challenge"): a chip that says it is the daily, a note with the day's deal (its
// seed, the same for everyone, not one a creator chose), whether the game counts on the
// day's board and, before any is used, that a hint or a take-back marks it "with help";
// and the end screen's way back to the day's results.
import { formatDay, t } from "./i18n.js";
import { h } from "./util.js";

/** The page of the day's results, which shows this game's result (and the bot's). */
export function dailyResultsUrl(daily) {
  return `/daily?day=${encodeURIComponent(daily.day)}`;
}

/** The banner's chip: "Daily challenge · November 28, 2026 · counted". */
export function dailyChip(daily) {
  const counted = daily.counted ? t("counted") : t("not counted");
  return h("span", { class: "chip chip-daily", "data-testid": "daily-chip" },
    t("Daily challenge · {day} · {counted}", { day: formatDay(daily.day), counted }));
}

/** The note beside the board, in place of a chosen seed's warning. */
export function dailyNote(state) {
  const daily = state.game.daily;
  const day = formatDay(daily.day);
  const parts = [t("Daily challenge of {day}: the day's deal (seed {seed}), the same for everyone.", { day, seed: state.game.fixed_seed })];
  if (!daily.counted) {
    parts.push(t("This game is not counted on the day's board: a practice game, or one played without an account."));
  } else if (state.unrated === "hint" || state.unrated === "undo") {
    parts.push(t("It counts on the day's board, marked \"with help\": a hint or a take-back was used."));
  } else {
    parts.push(t("It counts on the day's board. A hint or a take-back marks your result \"with help\"."));
  }
  return parts.join(" ");
}

/** The end screen's link back to the day's results. */
export function dailyResultsLink(daily) {
  return h("a", { class: "btn primary", href: dailyResultsUrl(daily), "data-testid": "end-daily-results" }, t("The day's results"));
}
