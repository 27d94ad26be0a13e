// Correspondence play (docs/web.md, "Time controls"): the new-game form's days per move,
// how the lobby names them, the rating pools on the leaderboard and profile, the account
// page's reminder choices, and the reminder itself as the account socket brings it.
import { api } from "./api.js";
import { durationWords, t, tn } from "./i18n.js";
import { notifying } from "./live.js";
import { toast } from "./toast.js";
import { h } from "./util.js";

/** The days per move the server offers (correspondence.DAYS_PER_MOVE). */
export const DAYS_PER_MOVE = [1, 2, 3, 5, 7, 14];

/** "2 days per move (correspondence)". */
export function daysWords(days) {
  return tn("{n} day per move (correspondence)", "{n} days per move (correspondence)", days);
}

/** The new-game form's choice of days per move: ``field`` to show, ``days()`` chosen
 * (0: not a correspondence game). */
export function daysChoice(onChange = () => {}) {
  const select = h("select", { id: "days-per-move", "data-testid": "days-per-move" },
    h("option", { value: "0" }, t("Off: not a correspondence game")),
    ...DAYS_PER_MOVE.map((n) => h("option", { value: String(n) }, daysWords(n))));
  const field = h("label", { class: "field option-choice", for: "days-per-move" },
    h("span", {}, t("Correspondence: days per move")), select,
    h("small", { class: "muted" }, t("Each player is reminded before the time for a move runs out.")));
  select.addEventListener("change", onChange);
  return { field, select, days: () => Number(select.value) };
}

/** An open game's time control in the lobby: its days per move and what running out does. */
export function daysText(days, onTimeout) {
  const span = daysWords(days);
  return onTimeout === "abandon"
    ? t("{span}; whoever runs out of time loses", { span })
    : t("{span}, then the default bot plays", { span });
}

// -- rating pools ------------------------------------------------------------------------

/** The leaderboard's pool from its address (``?pool=``): "live" unless "correspondence". */
export function poolOf(search) {
  return new URLSearchParams(search).get("pool") === "correspondence" ? "correspondence" : "live";
}

/** The leaderboard's pool picker: live games or correspondence games, as links. */
export function poolPicker(typeName, pool, bots) {
  const link = (value, text) => {
    const query = new URLSearchParams();
    if (bots) query.set("players", "bots");
    if (value !== "live") query.set("pool", value);
    return h("a", {
      class: `btn small ${value === pool ? "primary" : "ghost"}`, href: `/leaderboard/${typeName}${query.size ? `?${query}` : ""}`,
      "data-testid": `leaderboard-pool-${value}`, "aria-current": value === pool ? "page" : null,
    }, text);
  };
  return h("nav", { class: "row wrap leaderboard-pools", "aria-label": t("Kind of time control") },
    link("live", t("Live games")), link("correspondence", t("Correspondence games")));
}

/** A profile's correspondence rating of a game (``r.pools``), once it has one. */
export function correspondenceRating(type, r, formatNumber) {
  const pool = r.pools && r.pools.correspondence;
  if (!pool || !pool.games) return null;
  return h("small", { class: "muted", "data-testid": `profile-correspondence-${type}` }, " · ",
    t("correspondence: {rating}", { rating: formatNumber(pool.rating, 1) }), " ",
    tn("({n} rated game)", "({n} rated games)", pool.games));
}

// -- reminders -----------------------------------------------------------------------------

/** The account page's card: how to be reminded before a correspondence move's time runs out. */
export async function reminderSettings() {
  const card = h("section", { class: "card", "data-testid": "reminder-settings", "aria-labelledby": "reminder-heading" },
    h("h2", { id: "reminder-heading" }, t("Correspondence reminders")));
  let settings;
  try {
    settings = await api("/api/account/reminders");
  } catch (err) {
    card.append(h("p", { class: "muted" }, err.message));
    return card;
  }
  const box = (name, label) => h("label", { class: "check", for: `reminder-${name}` },
    h("input", { type: "checkbox", id: `reminder-${name}`, checked: settings[name], "data-testid": `reminder-${name}`,
      onchange: (event) => save({ [name]: event.target.checked }, event.target) }), " ", label);
  async function save(body, input) {
    try {
      await api("/api/account/reminders", { method: "POST", body });
      toast(t("Saved"), "ok");
    } catch (err) {
      input.checked = !input.checked;
      toast(err.message, "error");
    }
  }
  card.append(
    h("p", { class: "muted" }, t("In a correspondence game you are reminded once per move, a day before its time runs out (in games of one day per move: six hours before).")),
    h("div", { class: "options" },
      box("push", t("on my open pages (and as a browser notification where notifications are on)")),
      box("mail", t("by e-mail, to the confirmed address below"))));
  return card;
}

/** A reminder from the account socket: a notice on this page and, where notifications are
 * on, a browser notification (one per game and move: the tag). Says only what the page
 * words itself: no seat names. */
export function showReminder(msg) {
  const game = msg.game;
  const left = durationWords(msg.left);
  const text = t("Your move in {game}: {time} left", { game: game.title, time: left });
  toast(text, "info", 15000);
  if (!notifying()) return;
  const note = new Notification(t("Reminder · {game}", { game: game.title }), { body: t("{time} left", { time: left }), tag: `${game.id}:reminder` });
  note.onclick = () => {
    window.focus();
    history.pushState(null, "", game.url);
    window.dispatchEvent(new PopStateEvent("popstate"));
    note.close();
  };
}
