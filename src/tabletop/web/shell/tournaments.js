// Tournaments (issue 47, docs/tournaments.md): /tournaments lists the upcoming, running
// and finished events and holds the form that creates one; each event's own page, /t/{id},
// is tournament_event.js. An event is an arena (a time window: whoever is free is paired
// again at once) or a Swiss (a fixed number of rounds, paired by score). Anyone signed in
// creates a private event (its link is its invitation); a moderator also public and
// recurring ones. Every name a player chose is shown as text (h() and textContent).
import { api, gameTypes } from "./api.js";
import { accountInfo } from "./account.js";
import { clockField, controlWords } from "./clocks.js";
import { durationWords, formatDateTime, t, tn } from "./i18n.js";
import { toast } from "./toast.js";
import { focusLost, focusOn, h } from "./util.js";

/** An arena's length, minutes (the server takes 10 to 360). */
const ARENA_MINUTES = [10, 15, 20, 30, 45, 60, 90, 120, 180, 240, 360];
/** A Swiss's rounds (the server takes 1 to 15). */
const MAX_ROUNDS = 15;
/** When an event may start, seconds from now; "" is a moment chosen on the calendar. */
const STARTS_IN = [5 * 60, 15 * 60, 30 * 60, 3600, 2 * 3600, 86400];
/** The longest name the form takes (the server's limit). */
export const NAME_LENGTH = 60;

// -- words shared with the event page -----------------------------------------------------

/** "Arena" or "Swiss". */
export function kindWords(kind) {
  return kind === "swiss" ? t("Swiss") : t("Arena");
}

/** An event's status in words. */
export function statusWords(status) {
  return {
    upcoming: t("Upcoming"), running: t("Running"), finished: t("Finished"), cancelled: t("Cancelled"),
  }[status] || status;
}

/** A game's title by its type name ("nova-luna" → "Nova Luna"). */
export function gameTitle(types, name) {
  const found = types.find((type) => type.name === name);
  return found ? found.title : name;
}

/** An event's shape in parts: "Arena", "60 min" (or "5 rounds"), "2 players per table". */
export function formatParts(event) {
  const length = event.kind === "swiss"
    ? tn("{n} round", "{n} rounds", event.rounds || 0)
    : t("{n} min", { n: event.minutes || 0 });
  const tables = tn("{n} player per table", "{n} players per table", event.players);
  return [kindWords(event.kind), length, tables];
}

/** An event's time control in words ("5 min + 3 s a move", "1 min per move"), or null. */
export function timeControlWords(control) {
  if (!control) return null;
  if (control.clock_base) return controlWords(control.clock_base, control.clock_increment || 0);
  if (control.time_limit) return t("{time} per move", { time: durationWords(control.time_limit) });
  return null;
}

/** When an upcoming event starts, or a running arena ends, by the page's own clock. */
function whenWords(event) {
  if (event.status === "upcoming") return t("Starts {when}", { when: formatDateTime(event.starts * 1000) });
  if (event.status === "running" && event.ends) return t("Ends {when}", { when: formatDateTime(event.ends * 1000) });
  if (event.status === "running" && event.kind === "swiss") return t("Round {round} of {rounds}", { round: event.round, rounds: event.rounds });
  return t("Started {when}", { when: formatDateTime(event.starts * 1000) });
}

// -- /tournaments ----------------------------------------------------------------------------

export async function showTournaments(root, navigate) {
  const [types, info, lists] = await Promise.all([gameTypes(), accountInfo(), api("/api/tournaments")]);
  document.title = `${t("Tournaments")} · Tabletop`;
  const page = h("div", { class: "account-page tournaments-page", "data-testid": "tournaments" },
    h("section", { class: "card" },
      h("h1", {}, t("Tournaments")),
      h("p", { class: "muted" }, t("An arena lasts a fixed time: whoever finishes a game is paired again at once, with a player near them in the standings. A Swiss has a fixed number of rounds, each paired by score. Both count points by place at the table.")),
      h("p", { class: "muted" }, t("Events are rated like ordinary games of their time control."))),
    eventList("running", t("Running"), lists.running, types, t("No tournament is running now.")),
    eventList("upcoming", t("Upcoming"), lists.upcoming, types, t("No tournament is coming up.")),
    info.account ? createForm(types, info, navigate) : signInCard(),
    eventList("finished", t("Finished"), lists.finished, types, t("No tournament has finished yet.")));
  // drawn once everything has arrived; nothing when the reader has gone elsewhere meanwhile
  if (location.pathname.replace(/\/+$/, "") === "/tournaments") root.replaceChildren(page);
  return {};
}

function eventList(which, title, events, types, empty) {
  const id = `tournaments-${which}-title`;
  const card = h("section", { class: "card", "data-testid": `tournaments-${which}`, "aria-labelledby": id },
    h("h2", { id }, title));
  if (!events.length) {
    card.append(h("p", { class: "muted", "data-testid": `tournaments-${which}-empty` }, empty));
    return card;
  }
  card.append(h("ul", { class: "tournament-list" }, ...events.map((event) => eventItem(event, types))));
  return card;
}

function eventItem(event, types) {
  return h("li", { class: "tournament-item", "data-testid": "tournament-item" },
    h("a", { href: `/t/${encodeURIComponent(event.id)}`, class: "tournament-name", "data-testid": `tournament-link-${event.id}` }, event.name),
    h("span", { class: "tournament-facts" },
      h("span", {}, gameTitle(types, event.type)),
      ...formatParts(event).map((part) => h("span", {}, part)),
      h("span", {}, whenWords(event)),
      h("span", {}, tn("{n} entrant", "{n} entrants", event.entrants))),
    h("span", { class: "tournament-chips" },
      event.visibility === "private" ? h("span", { class: "chip" }, t("Private")) : null,
      event.recurring ? h("span", { class: "chip" }, event.recurring === "weekly" ? t("Weekly") : t("Daily")) : null,
      event.creator ? h("span", { class: "chip" }, t("by {name}", { name: event.creator })) : null));
}

function signInCard() {
  return h("section", { class: "card", "data-testid": "tournament-sign-in" },
    h("h2", {}, t("Create a tournament")),
    h("p", {}, t("Sign in to create a tournament or to join one.")),
    h("a", { class: "btn primary", href: "/me" }, t("Sign in")));
}

// -- the form ---------------------------------------------------------------------------------

/** A <label class="field"> around its text and control. */
function field(id, text, control, note = null) {
  return h("label", { class: "field", for: id }, h("span", {}, text), control, note);
}

function select(id, choices, chosen) {
  return h("select", { id, "data-testid": id },
    ...choices.map(([value, text]) => h("option", { value: String(value), selected: String(value) === String(chosen) }, text)));
}

/** The largest table of a game: 2 up to its most seats. */
function tableSizes(type) {
  const sizes = [];
  for (let n = 2; n <= type.seats[1]; n++) sizes.push([n, tn("{n} player", "{n} players", n)]);
  return sizes;
}

/** A local date and time for <input type=datetime-local>: "2026-11-29T20:00". */
function localInputValue(date) {
  const pad = (n) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

function createForm(types, info, navigate) {
  const moderator = Boolean(info.moderator);
  const name = h("input", { type: "text", id: "tournament-name", "data-testid": "tournament-name", maxlength: String(NAME_LENGTH), autocomplete: "off" });
  const kinds = ["arena", "swiss"].map((kind) => h("label", { class: "check" },
    h("input", { type: "radio", name: "tournament-kind", value: kind, checked: kind === "arena", "data-testid": `tournament-kind-${kind}` }),
    kindWords(kind)));
  const game = select("tournament-game", types.map((type) => [type.name, type.title]), types[0].name);
  const tables = h("span", { class: "tournament-tables" });
  const minutes = select("tournament-minutes", ARENA_MINUTES.map((n) => [n, t("{n} min", { n })]), 60);
  const rounds = select("tournament-rounds", Array.from({ length: MAX_ROUNDS }, (_, i) => [i + 1, tn("{n} round", "{n} rounds", i + 1)]), 5);
  const minutesField = field("tournament-minutes", t("Length"), minutes);
  const roundsField = field("tournament-rounds", t("Rounds"), rounds);
  const clock = clockField(() => {}, { required: true, chosen: "300+3" });
  const startsIn = select("tournament-starts-in", [
    ...STARTS_IN.map((s) => [s, t("in {time}", { time: durationWords(s) })]),
    ["", t("At a time you choose…")]], 15 * 60);
  const startsAt = h("input", { type: "datetime-local", id: "tournament-starts-at", "data-testid": "tournament-starts-at" });
  const startsAtField = field("tournament-starts-at", t("Starts at (your time)"), startsAt);
  const rated = h("input", { type: "checkbox", id: "tournament-rated", "data-testid": "tournament-rated", checked: true });
  const publicBox = h("input", { type: "checkbox", id: "tournament-public", "data-testid": "tournament-public" });
  const recurring = select("tournament-recurring", [["", t("Once")], ["daily", t("Daily")], ["weekly", t("Weekly")]], "");
  const submit = h("button", { class: "btn primary big", type: "submit", "data-testid": "tournament-create" }, t("Create the tournament"));

  const kind = () => kinds.map((label) => label.querySelector("input")).find((input) => input.checked).value;
  const type = () => types.find((ty) => ty.name === game.value) || types[0];
  function sync() {
    const sizes = tableSizes(type());
    const before = tables.querySelector("select")?.value;
    tables.replaceChildren(field("tournament-players", t("Players per table"), select("tournament-players", sizes, before && sizes.some(([n]) => String(n) === before) ? before : 2)));
    minutesField.hidden = kind() !== "arena";
    roundsField.hidden = kind() !== "swiss";
    startsAtField.hidden = startsIn.value !== "";
    if (!startsAtField.hidden && !startsAt.value) startsAt.value = localInputValue(new Date(Date.now() + 3600 * 1000));
    name.placeholder = kind() === "swiss" ? t("{game} Swiss", { game: type().title }) : t("{game} arena", { game: type().title });
  }

  const form = h("form", { class: "card tournament-form", "data-testid": "tournament-form", "aria-labelledby": "tournament-form-title", novalidate: true },
    h("h2", { id: "tournament-form-title" }, t("Create a tournament")),
    h("p", { class: "muted" }, moderator
      ? t("A private tournament is found only through its link; a public one is listed for everyone.")
      : t("Your tournament is private: share its link with the players you want.")),
    field("tournament-name", t("Name"), name),
    h("fieldset", { class: "tournament-kinds" }, h("legend", {}, t("Kind")), ...kinds),
    h("div", { class: "options" }, field("tournament-game", t("Game"), game), tables, minutesField, roundsField),
    h("div", { class: "options" }, clock.el),
    h("div", { class: "options" }, field("tournament-starts-in", t("Starts"), startsIn), startsAtField),
    h("label", { class: "check", for: "tournament-rated" }, rated, t("Rated")),
    moderator ? h("div", { class: "options", "data-testid": "tournament-moderator" },
      h("label", { class: "check", for: "tournament-public" }, publicBox, t("Public: listed for everyone")),
      field("tournament-recurring", t("Repeats"), recurring)) : null,
    h("div", { class: "row end" }, submit));
  form.addEventListener("change", sync);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const body = {
      kind: kind(),
      type: game.value,
      name: name.value.trim() || name.placeholder,
      players: Number(form.querySelector("#tournament-players").value),
      rated: rated.checked,
    };
    if (body.kind === "arena") body.minutes = Number(minutes.value);
    else body.rounds = Number(rounds.value);
    const control = clock.value();
    Object.assign(body, { clock_base: control.base, clock_increment: control.increment });
    if (startsIn.value) body.starts_in = Number(startsIn.value);
    else {
      const at = new Date(startsAt.value).getTime();
      if (!Number.isFinite(at)) {
        toast(t("Choose when the tournament starts."), "error");
        focusOn(startsAt);
        return;
      }
      body.starts = Math.round(at / 1000);
    }
    if (moderator && publicBox.checked) body.visibility = "public";
    if (moderator && recurring.value) body.recurring = recurring.value;
    submit.disabled = true;
    try {
      const made = await api("/api/tournaments", { method: "POST", body });
      navigate(made.url);
    } catch (err) {
      toast(err.message, "error");
      submit.disabled = false;
      if (submit.isConnected && focusLost()) focusOn(submit);
    }
  });
  sync();
  return form;
}
