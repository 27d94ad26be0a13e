// /t/{id}: one tournament's page (issue 47; the list and the form are tournaments.js).
// Its name and shape, the start counted down on this page, join and withdraw, the
// organiser's bots and cancel, the standings with their tie-breaks and each entrant's
// results, the running games to watch, and an entrant's games when their name is chosen.
//
// The page asks GET /api/tournaments/{id} every POLL_MS while it is visible (not while
// hidden: a tab in the background costs the server nothing) and redraws only when the
// event's ``version`` changed. The countdown runs from the server's ``now`` of the last
// answer plus the time this page has counted since (its monotonic clock), so a computer
// whose clock is wrong still shows the right time left. When the server pairs you
// (``me.playing`` names a game this tab has not yet gone to), the page goes to it.
import { api, gameTypes } from "./api.js";
import { accountInfo } from "./account.js";
import { announce } from "./announce.js";
import { botName, durationWords, formatNumber, ordinal, t, tn } from "./i18n.js";
import { toast } from "./toast.js";
import { botBadge, copyText, focusName, h, refocus } from "./util.js";
import { formatParts, gameTitle, statusWords, timeControlWords } from "./tournaments.js";

const POLL_MS = 3000;
/** The games this tab has already been sent to (a player back on the event page from a
 * game still running is not sent there again). */
const SENT_KEY = "tabletop.tournament-sent.v1";
/** The tie-breaks' names per kind, in the order the server sends them (docs/tournaments.md). */
const TIEBREAKS = {
  swiss: () => [t("Buchholz"), t("Sonneborn-Berger")],
  arena: () => [t("Points per game")],
};

function sentGames() {
  try {
    return new Set(JSON.parse(sessionStorage.getItem(SENT_KEY) || "[]"));
  } catch {
    return new Set();
  }
}

function rememberSent(gameId) {
  const sent = [...sentGames(), gameId].slice(-50);
  try { sessionStorage.setItem(SENT_KEY, JSON.stringify(sent)); } catch { /* this page only */ }
}

/**
 * A new game of an event you play in, as the account socket announced it (live.js).
 * On the page of your finished game of the same event the page goes to it: an arena
 * pairs you again at once, as soon as the last game ended. Anywhere else a notice says
 * so (you may be in another game); the event's own page goes there by itself.
 */
export function nextTournamentGame(game, games) {
  const event = game.tournament;
  if (location.pathname === `/t/${event.id}` || sentGames().has(game.id)) return;
  const at = /^\/g\/([A-Za-z0-9_-]+)$/.exec(location.pathname);
  const left = at && (games || []).find((g) => g.id === at[1] && g.over && g.tournament?.id === event.id);
  if (!left) {
    toast(t("Your next game of {event} is ready: it waits in My games.", { event: event.name }), "info", 15000);
    return;
  }
  rememberSent(game.id);
  announce(t("Your game is ready."));
  history.pushState(null, "", `/g/${encodeURIComponent(game.id)}`);
  window.dispatchEvent(new PopStateEvent("popstate")); // the router shows it
}

export async function showTournament(root, id, navigate) {
  const [types, info] = await Promise.all([gameTypes(), accountInfo()]);
  const first = await api(`/api/tournaments/${encodeURIComponent(id)}`);
  const page = new EventPage(root, id, types, info, navigate);
  page.received(first);
  return { destroy: () => page.destroy() };
}

class EventPage {
  constructor(root, id, types, info, navigate) {
    Object.assign(this, { root, id, types, info, navigate });
    this.path = `/api/tournaments/${encodeURIComponent(id)}`;
    this.event = null;
    this.offset = 0; // the server's epoch seconds minus this page's monotonic seconds
    this.chosen = null; // the entrant whose games are on show
    this.chosenGames = null; // their games, as last asked
    this.confirming = null; // "withdraw" or "cancel" while its button asks to confirm
    this.alive = true;
    this.timer = null; // the next poll
    this.asking = false;
    this.ticker = setInterval(() => this.tick(), 1000);
    this.onVisibility = () => this.visibility();
    document.addEventListener("visibilitychange", this.onVisibility);
  }

  destroy() {
    this.alive = false;
    clearTimeout(this.timer);
    clearInterval(this.ticker);
    document.removeEventListener("visibilitychange", this.onVisibility);
  }

  // -- asking the server --------------------------------------------------------------------

  visibility() {
    if (document.hidden) {
      clearTimeout(this.timer);
      this.timer = null;
    } else if (!this.asking) {
      this.poll(); // back in view: the news at once
    }
  }

  schedule() {
    clearTimeout(this.timer);
    this.timer = this.alive && !document.hidden ? setTimeout(() => this.poll(), POLL_MS) : null;
  }

  async poll() {
    clearTimeout(this.timer); // one chain of polls, however often the tab was shown
    this.timer = null;
    this.asking = true;
    try {
      const event = await api(this.path);
      if (this.alive) this.received(event);
    } catch (err) {
      if (this.alive) this.showTrouble(err);
    } finally {
      this.asking = false;
      this.schedule();
    }
  }

  /** A fresh answer: the clock set by it, a redraw if the event changed, and the game
   * the server paired you in, if new here. */
  received(event) {
    // gone, or an answer older than the one on show (a poll that crossed a join)
    if (!this.alive || (this.event && event.version < this.event.version)) return;
    this.offset = event.now - performance.now() / 1000;
    const changed = !this.event || event.version !== this.event.version;
    this.event = event;
    if (changed) {
      this.render();
      if (this.chosen !== null) this.loadGames(this.chosen);
    }
    this.showTrouble(null);
    this.tick();
    this.followPairing();
    this.schedule();
  }

  /** Your new game: say so and go to it, once per game in this tab. */
  followPairing() {
    const playing = this.event.me?.playing;
    if (!playing || sentGames().has(playing)) return;
    rememberSent(playing);
    announce(t("Your game is ready."));
    this.navigate(`/g/${encodeURIComponent(playing)}`);
  }

  async act(path, body = {}) {
    try {
      this.received(await api(`${this.path}/${path}`, { method: "POST", body }));
      return true;
    } catch (err) {
      toast(err.message, "error");
      return false;
    }
  }

  async loadGames(entrant) {
    try {
      const { games } = await api(`${this.path}/entrants/${entrant}/games`);
      if (!this.alive || this.chosen !== entrant) return;
      this.chosenGames = games;
    } catch (err) {
      toast(err.message, "error");
      this.chosenGames = [];
    }
    this.render();
  }

  // -- the time ---------------------------------------------------------------------------------

  serverNow() {
    return this.offset + performance.now() / 1000;
  }

  /** The countdown's text: to the start, or to an arena's end. */
  clockText() {
    const event = this.event;
    const now = this.serverNow();
    if (event.status === "upcoming") {
      const left = event.starts - now;
      return left > 0 ? t("Starts in {time}", { time: durationWords(left) }) : t("Starting…");
    }
    if (event.status === "running" && event.ends) {
      const left = event.ends - now;
      return left > 0 ? t("Ends in {time}", { time: durationWords(left) }) : t("Time is up: the last games are being played.");
    }
    if (event.status === "running") return t("Round {round} of {rounds}", { round: event.round, rounds: event.rounds });
    return statusWords(event.status);
  }

  tick() {
    const el = this.root.querySelector("[data-testid=tournament-clock]");
    if (el && this.event) el.textContent = this.clockText();
  }

  showTrouble(err) {
    const el = this.root.querySelector("[data-testid=tournament-trouble]");
    if (el) el.textContent = err ? t("The page could not ask for the latest standings ({reason}); it tries again.", { reason: err.message }) : "";
  }

  // -- drawing ----------------------------------------------------------------------------------

  render() {
    const had = focusName(this.root);
    const event = this.event;
    document.title = `${event.name} · Tabletop`;
    this.root.replaceChildren(h("div", { class: "account-page tournament-page", "data-testid": "tournament", "data-version": String(event.version) },
      this.head(),
      event.me?.playing ? this.yourGame(event.me.playing) : null,
      h("div", { class: "tournament-grid" },
        h("div", { class: "tournament-main" }, this.standings(), this.chosen !== null ? this.entrantGames() : null),
        this.games())));
    refocus(this.root, had);
  }

  head() {
    const event = this.event;
    const facts = [gameTitle(this.types, event.type), ...formatParts(event), timeControlWords(event.time_control),
      event.rated ? t("Rated") : t("Unrated"), event.visibility === "public" ? t("Public") : t("Private")];
    if (event.recurring) facts.push(event.recurring === "weekly" ? t("Weekly") : t("Daily"));
    const over = event.status === "finished" || event.status === "cancelled";
    return h("section", { class: "card tournament-head", "aria-labelledby": "tournament-title" },
      h("h1", { id: "tournament-title", "data-testid": "tournament-title" }, event.name),
      h("p", { class: "tournament-facts", "data-testid": "tournament-facts" }, ...facts.filter(Boolean).map((fact) => h("span", {}, fact))),
      event.creator ? h("p", { class: "muted" }, t("Organised by {name}", { name: event.creator })) : null,
      h("p", { class: "tournament-status" },
        h("span", { class: `chip status-${event.status}`, "data-testid": "tournament-status" }, statusWords(event.status)),
        // an event over says so in its chip alone (the clock would repeat "Finished")
        over ? null : h("span", { class: "tournament-clock", role: "timer", "data-testid": "tournament-clock" }, this.clockText()),
        h("span", {}, tn("{n} entrant", "{n} entrants", event.entrants))),
      h("p", { class: "tournament-trouble", role: "status", "data-testid": "tournament-trouble" }),
      this.actions(),
      event.can_manage ? this.organiser() : null);
  }

  actions() {
    const event = this.event;
    const me = event.me;
    const open = event.status === "upcoming" || event.status === "running";
    const row = h("div", { class: "row wrap" });
    if (!this.info.account && open) {
      row.append(h("a", { class: "btn primary", href: "/me", "data-testid": "tournament-sign-in" }, t("Sign in to join")));
    }
    if (event.can_join) {
      row.append(h("button", { class: "btn primary", type: "button", "data-testid": "tournament-join", onclick: () => this.act("join") },
        me?.withdrawn ? t("Join again") : t("Join")));
    }
    if (me && !me.withdrawn && open) row.append(this.withdrawButton());
    if (me) {
      row.append(h("span", { class: "chip", "data-testid": "tournament-me" },
        me.withdrawn ? t("You have withdrawn") : t("You take part")));
    }
    row.append(h("button", {
      class: "btn ghost", type: "button", "data-testid": "tournament-copy-link",
      onclick: async () => {
        const copied = await copyText(location.href);
        toast(copied ? t("The link is copied: share it with the players you want.") : t("The link could not be copied; copy it from the address bar."), copied ? "ok" : "error");
      },
    }, t("Copy the link")));
    return row;
  }

  /** Withdraw, asked twice while you play a game of the event (leaving resigns it). */
  withdrawButton() {
    const playing = Boolean(this.event.me.playing);
    const asking = this.confirming === "withdraw";
    return h("button", {
      class: "btn danger", type: "button", "data-testid": asking ? "tournament-withdraw-confirm" : "tournament-withdraw",
      onclick: async () => {
        if (playing && !asking) {
          this.confirming = "withdraw";
          this.render();
          this.root.querySelector("[data-testid=tournament-withdraw-confirm]")?.focus();
          return;
        }
        this.confirming = null;
        if (await this.act("withdraw")) toast(t("You have withdrawn from the tournament."), "ok");
      },
    }, asking ? t("Withdraw and resign your game") : t("Withdraw from the tournament"));
  }

  /** The organiser's controls: add one of our bots, cancel before the start. */
  organiser() {
    const event = this.event;
    const box = h("div", { class: "row wrap tournament-organiser", "data-testid": "tournament-organiser" });
    const bots = event.bots || [];
    if (bots.length && event.status !== "finished" && event.status !== "cancelled") {
      const choice = h("select", { id: "tournament-bot", "data-testid": "tournament-bot" },
        // the second offered first, as the new-game form does: the first is the weakest
        ...bots.map((spec, i) => h("option", { value: spec, selected: i === Math.min(1, bots.length - 1) }, botName(botLabel(this.types, this.event.type, spec)))));
      box.append(h("label", { class: "field", for: "tournament-bot" }, h("span", {}, t("One of our bots")), choice),
        h("button", {
          class: "btn", type: "button", "data-testid": "tournament-add-bot",
          onclick: async () => { if (await this.act("bots", { bot: choice.value })) toast(t("The bot takes part."), "ok"); },
        }, t("Add the bot")));
    }
    if (event.status === "upcoming") {
      const asking = this.confirming === "cancel";
      box.append(h("button", {
        class: "btn danger", type: "button", "data-testid": asking ? "tournament-cancel-confirm" : "tournament-cancel",
        onclick: async () => {
          if (!asking) {
            this.confirming = "cancel";
            this.render();
            this.root.querySelector("[data-testid=tournament-cancel-confirm]")?.focus();
            return;
          }
          this.confirming = null;
          await this.act("cancel");
        },
      }, asking ? t("Cancel it for everybody") : t("Cancel the tournament")));
    }
    return box.childElementCount ? box : null;
  }

  yourGame(gameId) {
    return h("section", { class: "card tournament-your-game", "data-testid": "your-game", "aria-labelledby": "your-game-title" },
      h("h2", { id: "your-game-title" }, t("Your game is ready.")),
      h("a", { class: "btn primary", href: `/g/${encodeURIComponent(gameId)}`, "data-testid": "your-game-link" }, t("Go to your game")));
  }

  standings() {
    const event = this.event;
    const rows = event.standings;
    // no name of its own: the table's scrolling box below is the landmark named so
    const card = h("section", { class: "card", "data-testid": "standings" },
      h("h2", { id: "standings-title" }, t("Standings")));
    if (!rows.length) {
      card.append(h("p", { class: "muted", "data-testid": "standings-empty" }, t("Nobody has joined yet.")));
      return card;
    }
    const count = Math.max(0, ...rows.map((row) => row.tiebreaks.length));
    const named = (TIEBREAKS[event.kind] || (() => []))();
    const breaks = Array.from({ length: count }, (_, i) => named[i] || t("Tie-break {n}", { n: i + 1 }));
    const head = h("tr", {},
      h("th", { class: "num", scope: "col" }, "#"),
      h("th", { scope: "col" }, t("Player")),
      h("th", { class: "num", scope: "col" }, t("Points")),
      h("th", { class: "num wide-only", scope: "col" }, t("Games")),
      h("th", { class: "num wide-only", scope: "col" }, t("Wins")),
      ...breaks.map((name) => h("th", { class: "num wide-only", scope: "col" }, name)),
      h("th", { scope: "col" }, t("Results")));
    this.breaks = breaks;
    const table = h("table", { class: "rating-table standings-table" },
      h("caption", { class: "visually-hidden" }, t("Points by place at each table; equal standings share a place.")),
      h("thead", {}, head),
      h("tbody", {}, ...rows.map((row) => this.standingRow(row))));
    // a wide table scrolls on its own on a phone, and can be scrolled by keyboard
    card.append(h("div", { class: "table-scroll", role: "region", tabindex: "0", "aria-labelledby": "standings-title" }, table),
      h("p", { class: "muted small" }, t("Points by place at each table; equal standings share a place. Choose a name to see that player's games.")));
    return card;
  }

  /** Each entrant's name as shown: our bots' labels in the page's language. */
  names() {
    return new Map(this.event.standings.map((row) => [row.entrant, shownName(row)]));
  }

  standingRow(row) {
    const mine = this.event.me?.entrant === row.entrant;
    const open = this.chosen === row.entrant;
    const name = shownName(row);
    const button = h("button", {
      type: "button", class: "link-button", "data-testid": `entrant-${row.entrant}`,
      "aria-expanded": open ? "true" : "false", "aria-controls": "entrant-games",
      onclick: () => this.choose(open ? null : row.entrant),
    }, name);
    return h("tr", { class: mine ? "you" : null, "aria-current": mine ? "true" : null, "data-testid": `standing-${row.entrant}` },
      h("td", { class: "num" }, ordinal(row.place)),
      h("td", {},
        button,
        row.kind !== "human" ? [" ", row.kind === "bot" ? h("span", { class: "bot-badge" }, t("our bot")) : botBadge()] : null,
        mine ? [" ", h("span", { class: "chip you-chip" }, t("you"))] : null,
        row.withdrawn ? [" ", h("span", { class: "chip" }, t("withdrawn"))] : null,
        row.playing ? [" ", h("a", { class: "chip playing-chip", href: `/g/${encodeURIComponent(row.playing)}`, "data-testid": `playing-${row.entrant}` }, t("playing"))] : null,
        h("span", { class: "standing-more" }, this.moreWords(row))),
      h("td", { class: "num", "data-testid": `points-${row.entrant}` }, formatNumber(row.points)),
      h("td", { class: "num wide-only" }, formatNumber(row.games)),
      h("td", { class: "num wide-only" }, formatNumber(row.wins)),
      ...row.tiebreaks.map((value) => h("td", { class: "num wide-only" }, tiebreakText(value))),
      h("td", { class: "results" }, row.results.map((points) => formatNumber(points)).join(" ")));
  }

  /** A phone's line under the name: the columns it has no room for. */
  moreWords(row) {
    const games = tn("{n} game", "{n} games", row.games);
    const wins = tn("{n} win", "{n} wins", row.wins);
    const breaks = row.tiebreaks.map((value, i) => t("{name} {value}", { name: this.breaks[i], value: tiebreakText(value) }));
    return [games, wins, ...breaks].join(" · ");
  }

  choose(entrant) {
    this.chosen = entrant;
    this.chosenGames = null;
    this.render();
    if (entrant !== null) this.loadGames(entrant);
  }

  /** The chosen entrant's games, finished and running. */
  entrantGames() {
    const row = this.event.standings.find((r) => r.entrant === this.chosen);
    const name = row ? shownName(row) : "";
    const card = h("section", { class: "card", id: "entrant-games", "data-testid": "entrant-games", "aria-labelledby": "entrant-games-title" },
      h("div", { class: "row tournament-card-head" },
        h("h2", { id: "entrant-games-title" }, t("Games of {name}", { name })),
        h("button", { class: "btn ghost small", type: "button", "data-testid": "entrant-games-close", onclick: () => this.choose(null) }, t("Close"))));
    if (this.chosenGames === null) card.append(h("p", { class: "muted" }, t("Loading…")));
    else if (!this.chosenGames.length) card.append(h("p", { class: "muted" }, t("No games yet.")));
    else card.append(gameList(this.chosenGames, this.event.kind, this.names(), "entrant-game"));
    return card;
  }

  /** The running games to watch, then the latest finished ones. */
  games() {
    const all = this.event.games;
    const running = all.filter((game) => !game.ranks);
    const finished = all.filter((game) => game.ranks);
    return h("section", { class: "card tournament-games", "data-testid": "tournament-games", "aria-labelledby": "tournament-games-title" },
      h("h2", { id: "tournament-games-title" }, t("Games")),
      h("h3", {}, t("Running now")),
      running.length ? gameList(running, this.event.kind, this.names(), "running-game") : h("p", { class: "muted" }, t("No game is running.")),
      finished.length ? [h("h3", {}, t("Latest results")), gameList(finished, this.event.kind, this.names(), "finished-game")] : null);
  }
}

/** A tie-break's value: whole, or with two decimals (an arena's points per game). */
function tiebreakText(value) {
  return formatNumber(value, Number.isInteger(value) ? 0 : 2);
}

/** A standings row's name: our bot's label in the page's language, else as chosen. */
function shownName(row) {
  return row.kind === "bot" ? botName(row.name) : row.name;
}

/** Our bot ``spec``'s label (a msgid) among the game's bots, else the spec itself. */
function botLabel(types, typeName, spec) {
  const type = types.find((ty) => ty.name === typeName);
  for (const bots of Object.values(type?.bots || {})) {
    const found = bots.find((bot) => bot.spec === spec);
    if (found) return found.label;
  }
  return spec;
}

/** Games as a list: each its round (Swiss), its players with their places and points
 * once over, and a link (to watch, or to replay). ``names``: each entrant's name as the
 * standings show it (our bots' in the page's language). */
function gameList(games, kind, names, testid) {
  return h("ul", { class: "tournament-game-list" }, ...games.map((game) => {
    const players = game.names.map((name, seat) => {
      const shown = names.get(game.entrants[seat]) ?? name;
      if (!game.ranks) return shown;
      const points = tn("{n} point", "{n} points", game.points[seat]);
      return t("{name} {place} ({points})", { name: shown, place: ordinal(game.ranks[seat]), points });
    });
    return h("li", { "data-testid": testid },
      kind === "swiss" && game.round ? h("span", { class: "chip" }, t("Round {n}", { n: game.round })) : null,
      h("span", { class: "tournament-game-players" }, players.join(" · ")),
      h("a", { class: "btn small", href: game.ranks ? `/replay/${encodeURIComponent(game.id)}` : game.url },
        game.ranks ? t("Replay") : t("Watch")));
  }));
}
