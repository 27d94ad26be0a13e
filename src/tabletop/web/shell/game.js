// The game page: connection, turn banner, hint/undo, log, end screen. The board itself
// (and everything specific to one game) comes from the game module.
import { formatNumber, listNames, seatLabel, t, tn } from "./i18n.js";
import { claimOffer, timeLeft, timeText } from "./account.js";
import { announce } from "./announce.js";
import { api, capitalise, errorText, gameTypes, partsText } from "./api.js";
import { ChatPanel } from "./chat.js";
import { ClockPanel } from "./clocks.js";
import { CoachPanel } from "./coach.js";
import { dailyChip, dailyNote, dailyResultsLink } from "./daily_game.js";
import { Connection } from "./connection.js";
import { gameModule } from "./games.js";
import { storeCreated } from "./lobby.js";
import { fragmentTokens, gameLink, getGame, rememberGame } from "./store.js";
import { toast } from "./toast.js";
import { clear, focusLost, focusName, focusOn, h, offerColourSymbols, trapFocus } from "./util.js";

export async function showGame(root, gameId, navigate) {
  const tokens = fragmentTokens();
  const types = await gameTypes();
  const loading = h("section", { class: "card narrow center loading" }, h("div", { class: "spinner" }), h("p", {}, t("Connecting to the game…")));
  root.append(loading);
  let screen = null;
  let fatal = false;
  const connStatus = document.getElementById("conn");

  // While connecting, fetch the board of the only game this server hosts (with several,
  // the first state says which); a failure shows when the state arrives.
  if (types.length === 1) gameModule(types[0].name, types[0]).catch(() => {});

  function fail(title, message, status) {
    if (fatal) return;
    fatal = true;
    loading.remove();
    if (screen) screen.destroy();
    clear(root);
    const spectate = status === 403 || status === 401;
    root.append(h("section", { class: "card narrow center", "data-testid": "fatal" },
      h("h1", {}, title),
      h("p", { class: "lead" }, capitalise(message)),
      h("div", { class: "row center" },
        spectate ? h("a", { class: "btn", href: `/g/${gameId}`, "data-testid": "spectate-instead" }, t("Watch as a spectator")) : null,
        h("a", { class: "btn primary", href: "/" }, t("Go to the lobby")))));
    toast(message, "error");
  }

  const chat = new ChatPanel(gameId); // the shell's, under every game's log
  const conn = new Connection(gameId, tokens, {
    onChat: (msg) => chat.receive(msg),
    onState: async (state) => {
      if (fatal) return;
      if (!screen) {
        const type = types.find((ty) => ty.name === state.game.type) || types[0];
        let mod;
        try {
          mod = await gameModule(type.name, type);
          offerColourSymbols(mod);
        } catch (err) {
          conn.close();
          return fail(t("Cannot show this game"), err.message);
        }
        if (screen) return screen.update(state);
        loading.remove();
        screen = new GameScreen(root, mod, { conn, type, navigate, tokens });
        screen.el.querySelector(".col-right").append(chat.el);
        claimOffer(gameId, state, tokens).then((button) => { if (button) screen.claimBox.append(button); });
        if (tokens.length) {
          rememberGame(gameId, { type: type.name, title: type.title, created: state.game.created, seats: mergeSeats(gameId, state), tokens, played: tokens, you: state.you });
        }
      }
      screen.update(state);
      chat.update(state);
    },
    onStatus: (status) => {
      connStatus.hidden = status === "online";
      connStatus.className = `conn conn-${status}`;
      connStatus.textContent = { connecting: t("connecting…"), reconnecting: t("reconnecting…"), offline: t("offline — reconnecting…"), closed: t("disconnected") }[status] || "";
      if (screen) screen.setOnline(status === "online");
    },
    onPresence: (presence) => { if (screen && !fatal) screen.presence(presence); },
    onFatal: (message, status) => fail(status === 404 ? t("No such game") : t("Cannot open this seat"), message, status),
  });
  return {
    destroy() {
      conn.close();
      if (screen && !fatal) screen.destroy();
    },
  };
}

function mergeSeats(gameId, state) {
  const known = getGame(gameId);
  if (known && known.seats) return known.seats;
  return state.game.seats.map((s) => ({ seat: s.seat, name: s.name, kind: s.kind, bot: s.bot }));
}

/** One game on screen, fed with state messages (live) or replay frames (read only). */
export class GameScreen {
  constructor(root, mod, { conn = null, type = null, navigate = null, tokens = [], replay = false, lesson = false } = {}) {
    this.mod = mod;
    this.lesson = lesson; // a tutorial's game (tutorial.js): no hints, undo, ratings or end screen
    this.conn = conn;
    this.type = type;
    this.navigate = navigate;
    this.tokens = tokens;
    this.replay = replay;
    this.state = null;
    this.hint = null;
    this.endShownFor = null;
    this.el = h("div", { class: `game ${replay ? "is-replay" : ""}`, "data-testid": "game" });
    root.append(this.el);
    // Not a live region (its redraws would all be read out): announce() says what matters.
    this.banner = h("section", { class: "banner", "data-testid": "turn-banner", tabindex: "-1" });
    this.controls = h("div", { class: "controls", "data-testid": "controls" });
    this.gameControls = h("div", { class: "controls-game" });
    this.shellControls = h("div", { class: "controls-shell" });
    this.controls.append(this.gameControls, this.shellControls);
    this.notices = h("div", { class: "notices" });
    this.side = h("div", { class: "side-board" });
    this.main = h("div", { class: "main-board" });
    this.players = h("div", { class: "players-slot" });
    // the log scrolls: focusable, so a keyboard can scroll it too
    this.logList = h("ol", { class: "log-list", "data-testid": "log", tabindex: "0", "aria-label": t("Game log") });
    this.logCard = h("section", { class: "card log-card" }, h("h2", {}, t("Game log")), this.logList);
    // the page's heading, for screen readers (the banner says the rest)
    this.heading = h("h1", { class: "visually-hidden", "data-testid": "page-heading" });
    this.el.append(
      this.heading,
      this.banner,
      h("div", { class: "col col-left" }, h("section", { class: "card wheel-card" }, this.side, this.controls, this.notices)),
      h("div", { class: "col col-main" }, this.main),
      h("div", { class: "col col-right" }, this.players, this.logCard));
    this.board = mod.createBoard({ side: this.side, main: this.main, players: this.players, controls: this.gameControls, notices: this.notices }, {
      readOnly: replay,
      tutorial: lesson, // a try the rules refuse still goes to the server, which explains it
      act: (action) => this.act(action),
      seatName: (seat) => this.seatName(seat),
    });
    this.hintBtn = h("button", { class: "btn", "data-testid": "hint", onclick: () => this.askHint() }, t("Hint"));
    this.undoBtn = h("button", { class: "btn ghost", "data-testid": "undo", onclick: () => this.undo() }, t("Undo"));
    this.resultBtn = h("button", { class: "btn", "data-testid": "show-result", onclick: () => this.showEnd(true) }, t("Show result"));
    this.hintBox = h("div", { class: "hint-box", "data-testid": "hint-box", hidden: true });
    this.seedNote = h("p", { class: "seed-note", id: "seed-note", "data-testid": "fixed-seed-note", hidden: true });
    // whether the game counts for the ratings, and why not
    this.ratedNote = h("p", { class: "muted rated-note", "data-testid": "rated-note", hidden: true });
    this.shellControls.append(this.hintBtn, this.undoBtn, this.resultBtn);
    this.claimBox = h("div", { class: "claim-box" }); // "claim this seat" for a signed-in player
    this.coach = new CoachPanel(this); // a casual game's coach: its notes on your moves
    this.clockPanel = new ClockPanel((seat) => this.seatName(seat)); // a real-time game's clocks
    this.notices.append(this.seedNote, this.ratedNote, this.claimBox, this.hintBox, this.coach.el);
    this.onKey = (e) => {
      if (e.key === "Escape") {
        if (this.overlay?.isConnected) this.closeEnd();
        else this.board.cancel?.();
      }
    };
    document.addEventListener("keydown", this.onKey);
  }

  destroy() {
    document.removeEventListener("keydown", this.onKey);
    this.coach.destroy();
    this.clockPanel.stop();
    this.board.destroy?.();
    this.removeEnd();
    this.el.remove();
  }

  /** What changes when a new turn begins: the move number, or the game's own (NMBR 9:
   * the round, as the other seats' placements do not begin a turn). */
  turnKey(state) {
    return this.mod.turnKey ? this.mod.turnKey(state) : state.ply;
  }

  seatName(seat) {
    const s = this.state?.game.seats[seat];
    if (!s) return t("Seat {n}", { n: seat + 1 });
    return seatLabel(s); // a bot's name is its label: translated
  }

  /** Who is connected (a ``presence`` message): the seats' marks and the watchers' count. */
  presence({ online, spectators }) {
    if (!this.state) return;
    const seats = this.state.game.seats.map((s) => ({ ...s, online: online.includes(s.seat) }));
    this.state = { ...this.state, game: { ...this.state.game, seats, spectators } };
    const had = focusName(this.el);
    this.renderBanner(this.state);
    this.board.update(this.state); // the players' "connected" marks
    if (had && focusLost()) focusOn(this.el.querySelector(`[data-testid="${had}"]`));
  }

  setOnline(online) {
    this.el.classList.toggle("offline", !online);
  }

  update(state) {
    const previous = this.state;
    this.state = state;
    if (this.hint && (!previous || this.turnKey(previous) !== this.turnKey(state) || state.acting === null)) this.clearHint();
    // "Your turn · Nova Luna · Tabletop"; a replay's: "Replay · Tabletop" (its state's title)
    const title = this.replay ? state.game.title
      : this.lesson ? t("Learn to play {game}", { game: state.game.title })
      : state.over ? t("Game over · {game}", { game: state.game.title })
        : state.acting !== null ? t("Your turn · {game}", { game: state.game.title }) : state.game.title;
    document.title = `${title} · Tabletop`;
    this.heading.textContent = this.replay ? state.game.title : t("{game} game", { game: state.game.title });
    this.el.classList.toggle("spectator", !this.replay && state.you.length === 0);
    this.el.classList.toggle("acting", state.acting !== null);
    this.el.dataset.ply = state.ply;
    if (!this.replay) this.clockPanel.update(state);
    this.renderBanner(state);
    this.renderSeedNote(state);
    this.renderRatedNote(state);
    if (state.acting !== null && previous && (previous.acting !== state.acting) && state.you.length > 1) {
      this.banner.classList.add("flash");
    }
    const had = focusName(this.el);
    this.board.update(state);
    this.renderLog(state);
    const live = !this.replay;
    if (live) this.coach.update(state);
    const turnBegins = previous && state.acting !== null && (previous.acting !== state.acting || this.turnKey(previous) !== this.turnKey(state));
    if (live && turnBegins && !state.over) this.bringTurnIntoView();
    // a rated game has no hints (fair play): the button is not offered at all
    this.hintBtn.hidden = !(live && state.acting !== null && !state.over && state.unrated !== null);
    this.undoBtn.hidden = !(live && state.undo && !state.over);
    this.undoBtn.textContent = this.mod.undoLabel?.(state) || t("Undo"); // NMBR 9: "Take back"
    this.resultBtn.hidden = !(live && state.over && (!state.abandoned || lostOnTime(state)));
    if (live) this.announceChange(previous, state);
    if (live && state.over && !this.lesson && this.endShownFor !== state.game.id) {
      this.endShownFor = state.game.id;
      this.showEnd(false);
    } else if (live) {
      this.placeFocus(previous, state, had);
    }
  }

  /** Focus after a state: on the wheel when your turn begins (or the page opens on it),
   * else where it was (the board gives it back to the same control), else the banner. */
  placeFocus(previous, state, had) {
    const begins = state.acting !== null && !state.over && (!previous || previous.acting !== state.acting || this.turnKey(previous) !== this.turnKey(state));
    const typing = document.activeElement?.closest?.("input, textarea, select, [role=dialog]");
    if (begins && !typing && (previous || focusLost()) && this.board.focusTurn?.()) return;
    if (!focusLost()) return;
    if (had && focusOn(this.el.querySelector(`[data-testid="${CSS.escape(had)}"]`))) return;
    if (!(state.acting !== null && this.board.focusTurn?.())) focusOn(this.banner);
  }

  /** A short sentence for a screen reader: the moves since the last state (the log's own
   * words), then whose turn it is, or the result. */
  announceChange(previous, state) {
    const said = [];
    if (previous && previous.game.id === state.game.id && state.log.length > previous.log.length) {
      const mine = (seat) => state.you.length === 1 && seat === state.you[0];
      for (const entry of state.log.slice(previous.log.length)) {
        const you = mine(entry.seat);
        if (this.mod.announceEntry) { // the game's own sentence (NMBR 9: a resolved round's)
          said.push(this.mod.announceEntry(entry, (i) => this.seatName(i), mine));
          continue;
        }
        // A sentence names its seat; one of every seat (a round) says who itself.
        const sentence = this.mod.moveSentence ? this.mod.moveSentence(entry, (i) => this.seatName(i), you) : partsText(entry.parts, entry.text);
        if (entry.seat === undefined || entry.seat === null) said.push(sentence);
        else {
          const who = you ? t("You") : this.seatName(entry.seat);
          said.push(t("{name} {action}", { name: who, action: sentence }));
        }
      }
    }
    const whose = (p) => (p && !p.over ? `${p.acting}/${p.to_move}/${this.turnKey(p)}` : null);
    if (state.abandoned && !previous?.abandoned) {
      said.push(abandonedText(state, (i) => this.seatName(i)));
    } else if (state.over && !previous?.over) {
      said.push(t("Game over: {result}", { result: this.mod.resultHeadline(state, (i) => this.seatName(i)) }));
    } else if (!state.over && whose(previous) !== whose(state)) {
      const seat = state.to_move;
      const info = seat !== null && seat !== undefined ? state.game.seats[seat] : null;
      if (state.acting !== null) said.push(state.you.length > 1 ? t("{name}, your turn", { name: this.seatName(state.acting) }) : t("Your turn"));
      else if (info && info.kind !== "bot" && previous?.to_move !== seat) said.push(t("Waiting for {name}", { name: this.seatName(seat) }));
      else if (seat === null && this.mod.waitSentence) said.push(this.mod.waitSentence(state, (i) => this.seatName(i)));
    }
    announce(said.map((text) => (/[.!?]$/.test(text) ? text : `${text}.`)).join(" "));
  }

  /** On a phone the player is often down at a display when their turn comes: scroll
   * back to the banner (the wheel follows it), unless it is already in view. */
  bringTurnIntoView() {
    const bar = document.querySelector(".topbar");
    // below the top bar where it stays on screen (a phone's NMBR 9 page lets it scroll away)
    const top = bar && getComputedStyle(bar).position === "sticky" ? bar.getBoundingClientRect().bottom : 0;
    const r = this.banner.getBoundingClientRect();
    if (r.top >= top - 1 && r.bottom <= window.innerHeight * 0.5) return;
    window.scrollBy(0, r.top - top - 8); // instant: a tap during a smooth scroll would count as a drag
  }

  renderBanner(state) {
    const mod = this.mod;
    clear(this.banner);
    this.banner.className = "banner";
    let title;
    let sub = "";
    let seat = null;
    if (state.abandoned) {
      title = abandonedText(state, (i) => this.seatName(i));
      this.banner.classList.add("banner-over");
    } else if (state.game.waiting) {
      title = t("Waiting for players to take the open seats");
      const invited = state.game.seats.filter((s) => s.open && s.invited).map((s) => s.name);
      sub = invited.length
        ? t("Invited: {names}. The game starts when every seat is taken.", { names: invited.join(", ") })
        : t("The game starts when every seat is taken.");
    } else if (state.over) {
      title = mod.resultHeadline(state, (i) => this.seatName(i));
      this.banner.classList.add("banner-over");
    } else if (state.acting !== null) {
      seat = state.acting;
      const hotSeat = state.you.length > 1;
      title = hotSeat ? t("{name}, your turn", { name: this.seatName(seat) }) : t("Your turn");
      sub = mod.turnPrompt(state);
      this.banner.classList.add("banner-act");
      if (hotSeat) this.banner.classList.add("banner-hotseat");
    } else if (state.to_move !== null) {
      seat = state.to_move;
      const name = this.seatName(seat);
      const info = state.game.seats[seat];
      if (this.replay) {
        title = t("{name} to move", { name });
      } else if (state.thinking === seat) {
        title = t("{name} is thinking", { name });
        this.banner.classList.add("banner-thinking");
      } else if (info.kind === "bot") {
        title = t("{name} is about to move", { name });
        this.banner.classList.add("banner-thinking");
      } else {
        title = t("Waiting for {name}", { name });
        sub = info.online ? "" : t("{name} is not connected right now", { name });
      }
    } else if (state.active && state.active.length) {
      // several seats act at once (a simultaneous game)
      title = t("Waiting for {name}", { name: listNames(state.active.map((i) => this.seatName(i))) });
      if (state.thinking_seats && state.thinking_seats.length) this.banner.classList.add("banner-thinking");
    }
    if (title === undefined && this.lesson) title = t("Learn to play {game}", { game: state.game.title });
    if (title === undefined) title = mod.bannerTitle ? mod.bannerTitle(state) : "";
    // while others act: what the game has to say to you (NMBR 9: your placement may be taken back)
    if (!sub && !this.replay && !state.over && state.acting === null && mod.waitPrompt) sub = mod.waitPrompt(state);
    if (seat !== null) {
      const color = mod.seatColor(seat, state.game.seats.length);
      this.banner.style.setProperty("--seat", color.fill);
      this.banner.append(h("span", { class: "disc big", style: { "--disc": color.fill, "--ink": color.ink } }));
    }
    this.banner.append(h("div", { class: "banner-text" },
      h("strong", { "data-testid": "banner-title", title }, title),
      sub ? h("span", { class: "banner-sub" }, sub) : null));
    if (this.banner.classList.contains("banner-thinking")) this.banner.append(h("span", { class: "dots", "data-testid": "thinking" }, h("i"), h("i"), h("i")));
    if (!this.replay && state.you.length === 0) {
      this.banner.append(h("span", { class: "chip", "data-testid": "spectator-chip" }, t("Spectating · read only")));
    } else if (!this.replay && state.you.length > 1) {
      const names = t("Hot-seat: {names}", { names: state.you.map((i) => this.seatName(i)).join(" & ") });
      this.banner.append(h("span", { class: "chip", title: names }, names));
    }
    if (!this.replay && state.game.spectators) {
      const watching = tn("{n} spectator", "{n} spectators", state.game.spectators);
      this.banner.append(h("span", { class: "chip", "data-testid": "spectators-chip" }, watching));
    }
    if (!this.replay && state.game.time_limit) {
      this.banner.append(h("span", { class: "chip", "data-testid": "time-limit-chip" }, timeText(state.game.time_limit, state.game.on_timeout)));
    }
    // the seats to act and their time left ("Ann: 2 days 4 h left"), its deadline as its
    // title; from ``left``, not the deadline, so a skewed clock here does not matter
    if (!this.replay && state.time_left && !state.over && state.active && state.active.length) {
      const deadline = Date.now() + (state.time_left.left ?? 0) * 1000;
      const names = listNames(state.active.map((i) => this.seatName(i)));
      this.banner.append(timeLeft(deadline, "seat-time-left", names));
    }
    if (!this.replay && state.clocks) this.banner.append(this.clockPanel.el); // kept: it ticks
    const seed = state.game.fixed_seed;
    if (!this.replay && state.game.daily) {
      this.banner.append(dailyChip(state.game.daily));
    } else if (!this.replay && seed !== null && seed !== undefined) {
      this.banner.append(h("span", { class: "chip chip-seed", "data-testid": "fixed-seed", title: t("The creator chose the seed: they can know the hidden order of the deal") }, t("Fixed seed {seed}", { seed })));
    }
  }

  // A seed the creator chose lets them know the hidden order of the deal (a game's pile,
  // deck, ...): say so to every seat.
  renderSeedNote(state) {
    const seed = state.game.fixed_seed;
    this.seedNote.hidden = this.replay || seed === null || seed === undefined;
    this.seedNote.classList.toggle("daily-note", Boolean(state.game.daily));
    // a counted daily's hint and take-back mark it "with help": their buttons say so first
    for (const button of [this.hintBtn, this.undoBtn]) {
      if (state.game.daily?.counted && !this.seedNote.hidden) button.setAttribute("aria-describedby", "seed-note");
      else button.removeAttribute("aria-describedby");
    }
    if (!this.seedNote.hidden && state.game.daily) {
      this.seedNote.textContent = dailyNote(state); // the day's deal: nobody chose it
    } else if (!this.seedNote.hidden) {
      this.seedNote.textContent = t("The creator chose this game's seed ({seed}): they can know the hidden order of the deal.", { seed });
    }
  }

  /** Whether the game counts for the ratings: said while it is played with accounts
   * ("Rated game") and once a hint, an undo or a fixed seed made it unrated. */
  renderRatedNote(state) {
    // a daily game's note says whether it counts (on the day's board, not for ratings)
    const text = this.replay || this.lesson || state.game.daily ? null : ratedText(state);
    this.ratedNote.hidden = !text;
    this.ratedNote.textContent = text || "";
  }

  renderLog(state) {
    const list = this.logList;
    const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 30;
    clear(list);
    if (!state.log.length) {
      list.append(h("li", { class: "muted empty" }, t("No moves yet.")));
    }
    // one row per event: a game may split an entry (NMBR 9: a placement, then the round it resolved)
    const rows = this.mod.logRows ? state.log.flatMap((entry) => this.mod.logRows(entry)) : state.log;
    rows.forEach((entry, i) => {
      const text = this.mod.logText ? this.mod.logText(entry, (seat) => this.seatName(seat)) : partsText(entry.parts, entry.text);
      const cls = i === rows.length - 1 ? "last" : "";
      if (entry.seat === undefined || entry.seat === null) { // an entry of every seat (a round)
        list.append(h("li", { class: `${cls} log-all`, "data-testid": "log-entry" }, h("span", { class: "log-num" }, String(i + 1)), h("span", { class: "log-text" }, text)));
        return;
      }
      const color = this.mod.seatColor(entry.seat, state.game.seats.length);
      list.append(h("li", { class: cls, "data-testid": "log-entry" },
        h("span", { class: "log-num" }, String(i + 1)),
        h("span", { class: "disc small", style: { "--disc": color.fill, "--ink": color.ink } }),
        h("span", { class: "log-text" }, h("strong", { title: this.seatName(entry.seat) }, this.seatName(entry.seat)), " ", text)));
    });
    for (const seat of state.timed_out || []) { // the game ended there: the clock's entry
      list.append(h("li", { class: "log-all log-timeout", "data-testid": "log-timeout" },
        h("span", { class: "log-num" }, ""), h("span", { class: "log-text" }, state.resigned ? t("{name} resigned", { name: this.seatName(seat) }) : t("{name} ran out of time", { name: this.seatName(seat) }))));
    }
    if (atBottom || this.replay || !this.logSeen) list.scrollTop = list.scrollHeight;
    this.logSeen = true;
  }

  async act(action) {
    if (!this.conn || !this.state) return false;
    try {
      await this.conn.request("act", { action, ply: this.state.ply });
      return true;
    } catch (err) {
      toast(err.message, "error");
      return false;
    }
  }

  // Hint and Undo are not disabled while they wait (a disabled button loses focus):
  // aria-disabled says so, and a second press is ignored.
  async undo() {
    if (this.undoBtn.getAttribute("aria-disabled") === "true") return;
    this.undoBtn.setAttribute("aria-disabled", "true");
    try {
      await this.conn.request("undo", { ply: this.state.ply });
      toast(this.mod.undoDone || t("Your last move was taken back"), "ok");
    } catch (err) {
      toast(err.message, "error");
    } finally {
      this.undoBtn.removeAttribute("aria-disabled");
    }
  }

  async askHint() {
    const ply = this.state.ply;
    const turn = this.turnKey(this.state);
    if (this.hintBtn.getAttribute("aria-disabled") === "true") return;
    this.hintBtn.setAttribute("aria-disabled", "true");
    this.hintBtn.textContent = t("Thinking…");
    try {
      const hint = await this.conn.request("hint", { ply });
      if (this.turnKey(this.state) !== turn || this.state.acting === null) return;
      this.hint = hint;
      this.board.showHint?.(hint);
      clear(this.hintBox);
      this.hintBox.hidden = false;
      this.hintBox.append(
        h("div", { class: "hint-head", id: "hint-text" }, h("strong", {}, t("Suggestion:"), " "), this.mod.describeAction(this.state, hint.action)),
        hint.reason ? h("p", { class: "hint-reason", "data-testid": "hint-reason", id: "hint-reason" }, capitalise(hintReason(hint))) : null,
        h("div", { class: "row" },
          h("button", { class: "btn small primary", "data-testid": "play-hint", "aria-describedby": hint.reason ? "hint-text hint-reason" : "hint-text", onclick: () => this.act(hint.action) }, t("Play it")),
          h("button", { class: "btn small ghost", "data-testid": "dismiss-hint", onclick: () => { this.clearHint(); focusOn(this.hintBtn); } }, t("Dismiss"))));
      if (this.hintBtn.contains(document.activeElement) || focusLost()) focusOn(this.hintBox.querySelector("[data-testid=play-hint]"));
    } catch (err) {
      toast(err.message, "error");
    } finally {
      this.hintBtn.removeAttribute("aria-disabled");
      this.hintBtn.textContent = t("Hint");
    }
  }

  clearHint() {
    this.hint = null;
    this.hintBox.hidden = true;
    this.board.showHint?.(null);
  }

  showEnd(force) {
    const state = this.state;
    if (!state || !state.over || (state.abandoned && !lostOnTime(state))) return;
    const played = !state.abandoned; // a game ended by the clock has no record or replay
    // Opened by a button ("Show result"): focus goes back to it on closing. Opened by the
    // game's end, it goes to that button too (removeEnd's fallback), not to the board.
    const opener = force && !this.overlay?.contains(document.activeElement) ? document.activeElement : this.opener;
    this.removeEnd();
    this.opener = opener;
    const close = () => this.closeEnd();
    const again = h("button", { class: "btn primary", "data-testid": "play-again", onclick: () => this.playAgain(again) }, t("Play again"));
    const dialog = h("div", { class: "end-dialog card", role: "dialog", "aria-modal": "true", "aria-labelledby": "end-title", "data-testid": "end-screen" },
      h("h1", { id: "end-title", tabindex: "-1" }, played ? this.mod.resultHeadline(state, (i) => this.seatName(i)) : abandonedText(state, (i) => this.seatName(i))),
      played ? this.mod.resultView(state, (i) => this.seatName(i)) : null,
      this.ratingChanges(state),
      h("div", { class: "row center wrap" },
        state.record ? h("a", { class: "btn", href: state.record, download: `${state.game.type}-${state.game.id}.json`, "data-testid": "download-record" }, t("Download record")) : null,
        played ? h("a", { class: "btn ghost", href: `/replay/${state.game.id}`, "data-testid": "end-replay" }, t("Watch the replay")) : null,
        played && this.type?.analysable ? h("a", { class: "btn ghost", href: `/replay/${state.game.id}?analyse`, "data-testid": "end-analyse" }, t("Analyse")) : null,
        played ? h("button", { class: "btn", "data-testid": "share-result", onclick: () => this.shareResult() }, t("Share the result")) : null,
        state.game.daily ? dailyResultsLink(state.game.daily) : null,
        again,
        h("button", { class: "btn ghost", "data-testid": "close-end", onclick: close }, t("Look at the board"))),
      this.shareBox = h("pre", { class: "daily-share", "data-testid": "share-text", tabindex: "0", "aria-label": t("Your result to share"), hidden: true }));
    this.overlay = h("div", { class: "overlay", onclick: (e) => { if (e.target === this.overlay) close(); } }, dialog);
    document.body.append(this.overlay);
    this.releaseEnd = trapFocus(this.overlay, dialog);
    // A modal dialog takes focus: its first button when asked for, else its headline.
    if (force) focusOn(dialog.querySelector("button"));
    else focusOn(dialog.querySelector("#end-title"));
  }

  /** The result in words, with the replay's address: "NMBR 9: Ann wins with 87", the
   * game's lines (a player each), "Replay: https://…". */
  shareText(state) {
    const name = (i) => this.seatName(i);
    const url = new URL(`/replay/${state.game.id}`, window.location.href).href;
    return [
      t("{game}: {result}", { game: state.game.title, result: this.mod.resultHeadline(state, name) }),
      ...(this.mod.shareLines ? this.mod.shareLines(state, name) : []),
      t("Replay: {url}", { url }),
    ].join("\n");
  }

  /** Share the result: the device's share sheet (the Web Share API) where there is one,
   * else the clipboard, else the text shown and selected to copy by hand. */
  async shareResult() {
    const text = this.shareText(this.state);
    if (typeof navigator.share === "function") {
      try {
        await navigator.share({ title: this.state.game.title, text });
        return;
      } catch (err) {
        if (err && err.name === "AbortError") return; // the player closed the share sheet
      }
    }
    try {
      await navigator.clipboard.writeText(text);
      toast(t("Copied: paste it anywhere"), "ok");
    } catch {
      const shown = this.shareBox;
      shown.textContent = text;
      shown.hidden = false;
      const range = document.createRange();
      range.selectNodeContents(shown);
      const selection = window.getSelection();
      selection.removeAllRanges();
      selection.addRange(range);
      shown.focus();
      toast(t("The text is selected: copy it with Ctrl+C (or your device's Copy)"), "info");
    }
  }

  /** A rated game's end: each rated seat's rating before and after. */
  ratingChanges(state) {
    if (!state.ratings) {
      const why = ratedText(state);
      return why ? h("p", { class: "muted center", "data-testid": "rating-changes" }, why) : null;
    }
    const parts = state.ratings.map((r, seat) => (r ? t("{name} {before} → {after}", {
      name: this.seatName(seat), before: formatNumber(r.before, 1), after: formatNumber(r.after, 1),
    }) : null)).filter(Boolean);
    // a pair of accounts' k-th game together within the period counts 1/k, and a game
    // against an account whose rating is still uncertain counts less (fair play)
    const weight = Math.min(...state.ratings.filter(Boolean).map((r) => r.weight ?? 1));
    const counted = weight <= 0 ? t("It did not count for everyone: an opponent is still provisional.")
      : t("It counted {share} %: the same players met again within 30 days, or an opponent's rating is still uncertain.", { share: formatNumber(weight * 100, 0) });
    return h("p", { class: "muted center", "data-testid": "rating-changes" },
      t("Rated game. Ratings: {changes}", { changes: parts.join(", ") }), " ",
      weight < 1 ? counted + " " : "",
      h("a", { href: `/leaderboard/${state.game.type}` }, t("Leaderboard")));
  }

  /** Take the end dialog away, and the page's inertness with it. */
  removeEnd() {
    this.releaseEnd?.();
    this.releaseEnd = null;
    this.overlay?.remove();
    this.overlay = null;
  }

  closeEnd() {
    const opener = this.opener;
    this.opener = null;
    this.removeEnd();
    // back where the dialog was opened from, else to the button that opens it again
    if (focusLost() && !focusOn(opener)) focusOn(this.resultBtn.hidden ? this.banner : this.resultBtn);
  }

  async playAgain(button) {
    const state = this.state;
    const known = getGame(state.game.id);
    const setup = known && known.setup ? known.setup : {
      type: state.game.type,
      seats: state.game.seats.map((s) => (s.kind === "bot" ? { kind: "bot", bot: s.bot, name: s.name } : { kind: "human", name: s.name })),
      options: this.mod.optionsFromState ? this.mod.optionsFromState(state) : {},
    };
    const body = { ...setup };
    delete body.seed; // same setup, a new deal
    button.disabled = true;
    try {
      const answer = await api("/api/games", { method: "POST", body });
      const stored = storeCreated(this.type, answer, body);
      const mine = answer.seats.filter((s) => s.token && state.you.includes(s.seat)).map((s) => s.token);
      const others = answer.seats.filter((s) => s.token && !state.you.includes(s.seat));
      rememberGame(answer.id, { played: mine });
      this.removeEnd();
      if (others.length) {
        toast(t("New game created — send the other players their new seat links"), "ok");
        this.navigate(`/#created=${encodeURIComponent(stored.id)}`);
      } else {
        this.navigate(gameLink(answer.id, mine));
      }
    } catch (err) {
      toast(err.message, "error");
      button.disabled = false;
    }
  }
}

/** A hint's reason in the page's language: the server's parts (msgids and arguments),
 * joined as the bot joins them; its English text for an older server. */
function hintReason(hint) {
  if (!Array.isArray(hint.parts)) return hint.reason;
  return hint.parts.map((p) => (p.key ? errorText(p.key, p.args, p.text) : p.text)).join("; ");
}

/** A game ended by a move's time: who ran out of time, and what it meant. */
function abandonedText(state, seatName) {
  const seats = state.timed_out || [];
  if (!seats.length) return t("Abandoned: a move's time limit ran out");
  const names = listNames(seats.map(seatName));
  if (state.resigned) return t("{names} resigned", { names });
  return lostOnTime(state)
    ? t("{names} ran out of time and lost", { names })
    : t("Abandoned: {names} ran out of time", { names });
}

/** A rated game ended by the clock: its players out of time lost. */
function lostOnTime(state) {
  return Boolean(state.abandoned && state.ratings && (state.timed_out || []).length);
}

/** Whether a game counts for the ratings, in words; null where it says nothing (a game
 * of seat links without accounts, or one finished and rated: its changes say it). */
function ratedText(state) {
  const why = {
    hint: t("Unrated: a hint was used"),
    undo: t("Unrated: a move was taken back"),
    seed: t("Unrated: the seed was chosen"),
    casual: t("Unrated game: hints and undo allowed"),
  };
  if (state.unrated === null && !state.over) {
    // against bots running out of time hands the seat to the default bot (its chip says so)
    return state.game.on_timeout === "abandon"
      ? t("Rated game: no hints, no undo, and running out of time loses")
      : t("Rated game: no hints, no undo");
  }
  return why[state.unrated] || null;
}
