// A second game beside a replay, stepped by the same controls: the best game with
// hindsight (GET /api/games/{id}/hindsight) or the daily bot's game on the same deal
// (GET /api/daily/{game}/{day}/bot?game={id}). The server sends its frames as it sends a
// stored game's, its one seat a bot's (its name a msgid, translated here).
import { t, tn } from "./i18n.js";
import { api } from "./api.js";
import { announce } from "./announce.js";
import { clear, h } from "./util.js";

/** Where each kind of companion comes from, and its title. */
const KINDS = {
  hindsight: {
    url: ({ gameId }) => `/api/games/${encodeURIComponent(gameId)}/hindsight`,
    title: (data) => t("The best game with hindsight: {score}", { score: data.score }),
  },
  bot: {
    url: ({ gameId, type, day }) => `/api/daily/${encodeURIComponent(type)}/${encodeURIComponent(day)}/bot?game=${encodeURIComponent(gameId)}`,
    title: (data) => t("The strong bot's game: {bot}, {score}", { bot: t(data.players[0]), score: data.score }),
  },
};

/** Whether ``kind`` names a companion this page knows. */
export function isBesideKind(kind) {
  return Object.hasOwn(KINDS, kind);
}

/** The companion's frames from the server (an error's message for a toast). */
export async function fetchBeside(kind, where) {
  const data = await api(KINDS[kind].url(where));
  return { data, title: KINDS[kind].title(data) };
}

function stepButton(text, label, testid, onclick) {
  return h("button", { class: "btn small icon", "data-testid": testid, title: label, "aria-label": label, onclick }, text);
}

/** The replay's state message for one frame (what a live game's screen is fed). */
export function frameState(mod, frame, index, names, bots, title) {
  const view = frame.view;
  const count = mod.seatCount ? mod.seatCount(view) : view.seats.length;
  const seats = Array.from({ length: count }, (_, seat) => ({ seat, name: names[seat] || t("Seat {n}", { n: seat + 1 }), kind: bots[seat] ? "bot" : "human", bot: null, online: true }));
  return {
    type: "state",
    game: { id: null, type: mod.name, title, seats },
    ply: index,
    to_move: view.over || view.current_seat === undefined ? null : view.current_seat,
    active: [],
    over: view.over,
    you: [],
    acting: null,
    thinking: null,
    view,
    choices: [],
    log: frame.log,
    result: view.result || null,
    undo: false,
    record: null,
  };
}

/** The companion's board beside your board, in the same column: step ``i`` of the
 * replay shows its step ``i`` (its last once it has fewer: a Nova Luna bot may take
 * fewer turns). */
export class BesideBoard {
  constructor(anchor, mod, rounds, data, title, { close, step }) {
    this.mod = mod;
    this.rounds = rounds;
    this.frames = data.frames;
    this.bots = data.bots || [];
    this.names = (data.players || []).map((name, i) => (this.bots[i] ? t(name) : name));
    this.title = title;
    // the board alone: the players panel would repeat the one seat and its score
    const slots = { side: h("div"), main: h("div", { class: "main-board" }), players: h("div"), controls: h("div", { hidden: true }), notices: h("div", { hidden: true }) };
    this.board = mod.createBoard(slots, { readOnly: true, act: () => {}, seatName: (seat) => this.names[seat] || t("Seat {n}", { n: seat + 1 }) });
    this.counter = h("span", { class: "muted replay-beside-counter", "data-testid": "replay-beside-counter" });
    this.el = h("section", { class: "replay-beside", "data-testid": "replay-beside", "aria-labelledby": "replay-beside-title" },
      h("div", { class: "replay-beside-head" },
        h("h2", { id: "replay-beside-title", "data-testid": "replay-beside-title" }, title),
        h("button", { class: "btn small ghost", "data-testid": "replay-beside-close", onclick: close }, t("Close"))),
      // the replay's own step buttons, again here: on a phone the replay bar is far above
      h("div", { class: "replay-beside-steps", role: "group", "aria-label": t("Replay controls") },
        stepButton("◀", t("Previous (←)"), "replay-beside-prev", () => step(-1)),
        this.counter,
        stepButton("▶", t("Next (→)"), "replay-beside-next", () => step(1))),
      slots.main);
    anchor.after(this.el);
    // a wide screen shows the two boards side by side (shell.css), a narrow one stacks them
    this.column = anchor.parentElement;
    this.column.classList.add("with-beside");
    announce(t("{title}, beside your game: the step controls move both.", { title }));
  }

  go(index) {
    const n = this.frames.length - 1;
    const shown = Math.min(index, n);
    clear(this.counter);
    const start = this.rounds ? tn("Start · {n} round", "Start · {n} rounds", n) : tn("Start · {n} turn", "Start · {n} turns", n);
    this.counter.append(shown === 0 ? start : this.rounds ? t("Round {i} of {n}", { i: shown, n }) : t("Turn {i} of {n}", { i: shown, n }));
    this.board.update(frameState(this.mod, this.frames[shown], shown, this.names, this.bots, this.title));
  }

  /** What a screen reader hears at a step past the end of your game. */
  said() {
    return t("{title}: {step}", { title: this.title, step: this.counter.textContent });
  }

  destroy() {
    this.board.destroy?.();
    this.el.remove();
    this.column.classList.remove("with-beside");
  }
}
