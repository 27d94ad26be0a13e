// "Learn from your mistakes": after an analysis, a player's marked moves one by one, in
// the game's order. Each position is drawn as the player saw it (the server sends the
// seat's own view and its legal moves: GET …/analysis/{index}/position), on the game's
// own board with its normal controls; a move tried there is judged by the analyser on
// the server (POST …/analysis/{index}/try). Within the search's noise of the best: solved;
// after two tries that are not, the best move is shown on the board the analysis's
// "Show both boards" draws. A summary at the end. Progress survives a reload (this
// browser's storage, and ?learn=<seat> in the address); leaving returns to the analysis.
import { t, tn } from "./i18n.js";
import { accountInfo } from "./account.js";
import { announce } from "./announce.js";
import { api, capitalise } from "./api.js";
import { fmt, MARK_WORDS, moveLabel, moveWords, partWords, unitName } from "./analysis_values.js";
import { getGame } from "./store.js";
import { toast } from "./toast.js";
import { clear, focusOn, h } from "./util.js";

const KEY = "boardgames.learn.v1";
/** Tries that are not solved before the best move is shown. */
export const TRIES = 2;

/** The seats of ``gameId`` this browser played: by a seat link (stored with the game) or
 * by the signed-in account. */
export async function yourSeats(gameId) {
  const seats = new Set();
  const stored = getGame(gameId);
  for (const seat of stored?.you || []) seats.add(seat);
  const played = new Set(stored?.played || []);
  for (const seat of stored?.seats || []) {
    if (seat.token && played.has(seat.token)) seats.add(seat.seat);
  }
  const info = await accountInfo();
  for (const game of info.games || []) {
    if (game.id === gameId && Number.isInteger(game.seat)) seats.add(game.seat);
  }
  return seats;
}

/** The seat whose mistakes the address asks to go through (``?learn=1``), or null. */
export function askedSeat() {
  const asked = new URLSearchParams(location.search).get("learn");
  return asked !== null && /^\d{1,2}$/.test(asked) ? Number(asked) : null;
}

function setAsked(seat) {
  const url = new URL(location.href);
  if (seat === null) url.searchParams.delete("learn");
  else url.searchParams.set("learn", String(seat));
  history.replaceState(history.state, "", url);
}

function loadAll() {
  try {
    const data = JSON.parse(localStorage.getItem(KEY) || "{}");
    return data && typeof data === "object" ? data : {};
  } catch {
    return {};
  }
}

function saved(key) {
  const found = loadAll()[key];
  return found && Number.isInteger(found.at) && Array.isArray(found.solved) ? found : null;
}

function save(key, progress) {
  const data = loadAll();
  if (progress === null) delete data[key];
  else data[key] = progress;
  try {
    localStorage.setItem(KEY, JSON.stringify(data));
  } catch {
    /* private mode: the walk-through still works, it just does not survive a reload */
  }
}

/** A seat's marked moves, in the game's order. */
export function markedMoves(analysis, seat) {
  const found = analysis.seats.find((s) => s.seat === seat);
  return found ? found.moves.filter((m) => m.mark).sort((a, b) => a.index - b.index) : [];
}

/** The walk-through of ``seat``'s marked moves, drawn in place of the replay page's
 * ``parts`` (hidden meanwhile: ``hold(true)`` stops the replay's keys too); ``onLeave``
 * after it is closed. */
export class Lesson {
  constructor({ gameId, mod, players, analysis, seat, host, parts, hold, reveal, onLeave }) {
    this.gameId = gameId;
    this.mod = mod;
    this.players = players;
    this.analysis = analysis;
    this.seat = seat;
    this.scale = analysis.scale;
    this.moves = markedMoves(analysis, seat);
    this.parts = parts;
    this.hold = hold;
    this.reveal = reveal; // brings an element into view (on a phone: to the top)
    this.onLeave = onLeave;
    this.url = `/api/games/${encodeURIComponent(gameId)}/analysis`;
    this.key = `${gameId}/${seat}`;
    const progress = saved(this.key);
    this.at = progress ? Math.min(progress.at, this.moves.length) : 0;
    this.solved = new Set(progress ? progress.solved : []);
    this.shown = new Set(progress && Array.isArray(progress.shown) ? progress.shown : []); // the best move was shown
    this.board = null;
    this.attempt = 0;
    this.step = 0; // counts the positions shown: an answer for an earlier one is dropped
    this.judging = false;
    this.build();
    host.append(this.el);
    for (const part of parts) part.classList.add("learning-away");
    hold(true);
    setAsked(seat);
    this.show();
  }

  build() {
    this.heading = h("h1", { class: "learn-title", tabindex: "-1", "data-testid": "learn-title" }, t("Learn from your mistakes"));
    this.counter = h("p", { class: "learn-counter muted", "data-testid": "learn-counter" });
    this.prompt = h("p", { class: "learn-prompt", "data-testid": "learn-prompt" });
    // what a try earned: read out as it comes
    this.feedback = h("p", { class: "learn-feedback", "data-testid": "learn-feedback", "aria-live": "polite" });
    this.actions = h("div", { class: "learn-actions" });
    this.leaveBtn = h("button", { class: "btn small ghost", type: "button", "data-testid": "learn-leave", onclick: () => this.leave() }, t("Back to the analysis"));
    this.head = h("section", { class: "card learn-head", "aria-labelledby": "learn-heading-text" },
      h("div", { class: "learn-head-top" }, this.heading, this.counter), this.prompt, this.feedback, h("div", { class: "learn-buttons" }, this.actions, this.leaveBtn));
    this.heading.id = "learn-heading-text";
    this.game = h("div", { class: "game learn-game", "data-testid": "game" });
    this.el = h("section", { class: "learn", "data-testid": "learn" }, this.head, this.game);
  }

  seatName(seat) {
    return this.players[seat] || t("Seat {n}", { n: seat + 1 });
  }

  /** A fresh board of the game's own drawing in the page's columns. */
  newBoard(readOnly) {
    this.board?.destroy?.();
    clear(this.game);
    const slots = { side: h("div", { class: "side-board" }), main: h("div", { class: "main-board" }), players: h("div", { class: "players-slot" }), controls: h("div", { class: "controls" }), notices: h("div", { class: "notices" }) };
    this.game.append(
      h("div", { class: "col col-left" }, h("section", { class: "card wheel-card" }, slots.side, slots.controls, slots.notices)),
      h("div", { class: "col col-main" }, slots.main),
      h("div", { class: "col col-right" }, slots.players));
    this.board = this.mod.createBoard(slots, { readOnly, act: (action) => this.tryMove(action), seatName: (seat) => this.seatName(seat) });
  }

  /** The state message a live game's board is fed: the seat to act, its legal moves. */
  stateOf(view, choices, acting, highlight = null) {
    const count = this.mod.seatCount ? this.mod.seatCount(view) : view.seats.length;
    const seats = Array.from({ length: count }, (_, seat) => ({ seat, name: this.seatName(seat), kind: "human", bot: null, online: true }));
    return { type: "state", game: { id: null, type: this.mod.name, title: "", seats }, ply: this.attempt, to_move: this.seat, active: acting ? [this.seat] : [],
      over: false, you: [this.seat], acting: acting ? this.seat : null, thinking: null, view, choices: acting ? choices : [], log: [], result: null, undo: false, record: null,
      ...(highlight ? { highlight } : {}) };
  }

  async show() {
    save(this.key, { at: this.at, solved: [...this.solved], shown: [...this.shown] });
    if (this.at >= this.moves.length) {
      this.summary();
      return;
    }
    const move = this.moves[this.at];
    const step = ++this.step;
    this.move = move;
    this.prompt.dataset.testid = "learn-prompt";
    this.tries = 0;
    this.attempt = 0;
    this.done = false;
    this.counter.textContent = t("Position {i} of {n}", { i: this.at + 1, n: this.moves.length });
    this.prompt.textContent = t("{label}: you played {played}, a costly move ({mark}, −{loss} {unit}). Find a better move.",
      { label: capitalise(moveLabel(move)), played: moveWords(move, "played"), mark: MARK_WORDS()[move.mark], loss: fmt(move.loss, this.scale), unit: unitName(this.scale) });
    this.feedback.textContent = "";
    this.setActions([this.button(t("Skip this position"), "learn-skip", () => this.next())]);
    let found;
    try {
      found = await api(`${this.url}/${move.index}/position`);
    } catch (err) {
      toast(err.message, "error");
      return;
    }
    if (step !== this.step) return; // skipped on meanwhile
    this.position = found;
    this.newBoard(false);
    this.board.update(this.stateOf(this.position.view, this.position.choices, true));
    this.reveal(this.head);
    focusOn(this.heading);
    announce(`${this.counter.textContent}. ${this.prompt.textContent}`);
  }

  button(text, testid, onclick, primary = false) {
    return h("button", { class: `btn small${primary ? " primary" : ""}`, type: "button", "data-testid": testid, onclick }, text);
  }

  setActions(buttons) {
    clear(this.actions);
    this.actions.append(...buttons);
  }

  /** The board's move: judged on the server. Always "not sent" for the board (false), so
   * it takes another try at once; the state is drawn afresh after each answer. */
  async tryMove(action) {
    if (this.done || this.judging) return false;
    const step = this.step;
    this.judging = true;
    this.feedback.textContent = t("Judging your move…");
    let answer;
    try {
      answer = await api(`${this.url}/${this.move.index}/try`, { method: "POST", body: { action } });
    } catch (err) {
      this.feedback.textContent = "";
      toast(err.message, "error");
      return false;
    } finally {
      this.judging = false;
    }
    if (step !== this.step) return false; // skipped on meanwhile
    this.tries += 1;
    this.attempt += 1;
    const tried = answer.words ? partWords(answer.words) : answer.action;
    if (answer.solved) {
      this.solved.add(this.move.index);
      this.finish(t("Solved: {move} is as good as the best move found.", { move: tried }));
      return false;
    }
    const args = { move: capitalise(tried), loss: fmt(answer.loss, this.scale), unit: unitName(this.scale) };
    if (this.tries >= TRIES) {
      await this.showBest(t("{move} costs {loss} {unit} against the best move.", args));
      return false;
    }
    this.feedback.textContent = t("{move} costs {loss} {unit} against the best move. Try again.", args);
    this.board.update(this.stateOf(this.position.view, this.position.choices, true));
    return false;
  }

  /** Solved or answered: the position's story is told; on to the next. */
  finish(text) {
    this.done = true;
    this.feedback.textContent = text;
    save(this.key, { at: this.at + 1, solved: [...this.solved], shown: [...this.shown] });
    const last = this.at + 1 >= this.moves.length;
    const next = this.button(last ? t("See the summary") : t("Next position"), "learn-next", () => this.next(), true);
    this.setActions([next]);
    this.board.update(this.stateOf(this.position.view, this.position.choices, false));
    focusOn(next);
  }

  /** After the last try: the board after the best move, the move marked on it. */
  async showBest(cost) {
    const step = this.step;
    let data = null;
    try {
      data = await api(`${this.url}/${this.move.index}`);
    } catch (err) {
      toast(err.message, "error");
    }
    if (step !== this.step) return; // skipped on meanwhile
    this.shown.add(this.move.index);
    const best = t("The best move was {best} ({value}).", { best: moveWords(this.move, "best"), value: fmt(this.move.value_best, this.scale) });
    this.finish(`${cost} ${best}`);
    if (!data) return;
    this.newBoard(true);
    this.board.update(this.stateOf(data.best.view, [], false, { seat: data.seat, action: data.best.action }));
  }

  next() {
    this.at += 1;
    this.show();
  }

  summary() {
    this.step += 1;
    this.board?.destroy?.();
    this.board = null;
    clear(this.game);
    const n = this.moves.length;
    this.counter.textContent = "";
    this.prompt.textContent = tn("You found a better move in {solved} of {n} position.", "You found a better move in {solved} of {n} positions.", n, { solved: this.solved.size });
    this.feedback.textContent = "";
    const again = this.button(t("Go through them again"), "learn-again", () => {
      this.at = 0;
      this.solved = new Set();
      this.shown = new Set();
      this.show();
    });
    this.setActions([again]);
    this.prompt.dataset.testid = "learn-summary";
    // each position and how it went, in the game's order
    const found = t("better move found");
    const shown = t("best move shown");
    const skipped = t("skipped");
    const result = (m) => (this.solved.has(m.index) ? found : this.shown.has(m.index) ? shown : skipped);
    const line = (m) => t("{label}: {result}", { label: capitalise(moveLabel(m)), result: result(m) });
    this.game.append(h("section", { class: "card learn-results", "data-testid": "learn-results" },
      h("ul", {}, ...this.moves.map((m) => h("li", { class: this.solved.has(m.index) ? "found" : "missed" }, line(m))))));
    focusOn(this.heading);
    announce(this.prompt.textContent);
  }

  /** Gone from the page (it is left, or the page is); the replay shows again. */
  close() {
    this.board?.destroy?.();
    this.el.remove();
    for (const part of this.parts) part.classList.remove("learning-away");
    this.hold(false);
  }

  leave() {
    this.close();
    setAsked(null);
    this.onLeave();
  }
}
