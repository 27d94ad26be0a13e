// Sealed Bids' board: this round's prize, your cards to bid, each seat's prizes, spent
// cards and whether it has bid (never what: the view does not hold it), and the result.
// The log, take-back (the shell's Undo button) and replay are the shell's defaults.
import { t } from "../../shell/i18n.js";
import { clear, focusOn, h } from "../../shell/util.js";
import intro, { seatColor } from "./intro.js";

const sealed = {
  ...intro,

  seatCount(view) {
    return view.players;
  },

  turnPrompt() {
    return t("Bid one of your cards for the prize.");
  },

  waitPrompt(state) {
    return state.view.pending ? t("You bid {card}: Undo takes it back until the round resolves.", { card: state.view.pending }) : "";
  },

  undoLabel(state) {
    return state.view.pending ? t("Take back") : "";
  },

  describeAction(state, action) {
    const card = Number(/^bid (\d+)$/.exec(action)?.[1]);
    return card ? t("bid {card}", { card }) : action;
  },

  resultHeadline(state, name) {
    const r = state.result || state.view.result;
    if (!r) return t("Game over");
    const first = r.ranks.flatMap((rank, seat) => (rank === 1 ? [seat] : []));
    return first.length > 1 ? t("A shared win") : t("{name} wins!", { name: name(first[0]) });
  },

  resultView(state, name) {
    const r = state.result || state.view.result;
    if (!r) return h("p", {}, t("The game is over."));
    return h("table", { class: "ranking", "data-testid": "result" },
      h("tbody", {}, r.scores.map((total, seat) => h("tr", { "data-testid": `rank-${seat}` },
        h("td", {}, String(r.ranks[seat])),
        h("td", {}, name(seat)),
        h("td", { class: "num" }, String(total))))));
  },

  createBoard(slots, ctx) {
    return new Board(slots, ctx);
  },
};

class Board {
  constructor(slots, ctx) {
    this.ctx = ctx;
    this.state = null;
    this.choices = [];
    this.hinted = null;
    this.prize = h("p", { class: "sealed-prize", "data-testid": "prize" });
    this.hand = h("div", { class: "sealed-hand", "data-testid": "hand" });
    this.seats = h("section", { class: "card sealed-seats", "data-testid": "players" });
    slots.main.append(h("section", { class: "card sealed-board" }, h("h2", {}, t("Prize")), this.prize, this.hand));
    slots.players.append(this.seats);
  }

  update(state) {
    this.state = state;
    if (state.choices !== null) this.choices = state.choices || [];
    this.render();
  }

  render() {
    const { view } = this.state;
    const live = !this.ctx.readOnly && this.state.acting !== null;
    this.prize.textContent = view.prize === null ? t("No prize left") : String(view.prize);
    const mine = view.viewer === null ? [] : view.cards[view.viewer];
    this.renderHand(view, mine, live);
    this.renderSeats(view);
  }

  /** The hand's buttons, rebuilt only when what they show changed: a presence message
   * re-renders the board, and a button replaced under a player's finger (or a test's
   * click, under load) misses the tap. */
  renderHand(view, mine, live) {
    const key = JSON.stringify([mine, live && this.choices.map((c) => c.card), view.pending, this.hinted]);
    if (key === this.handKey) return;
    this.handKey = key;
    clear(this.hand);
    mine.forEach((card) => {
      const choice = live ? this.choices.find((c) => c.card === card) : null;
      const pending = view.pending === card;
      this.hand.append(h("button", {
        type: "button",
        class: `sealed-card${pending ? " pending" : ""}${this.hinted === card ? " hinted" : ""}`,
        "data-testid": `card-${card}`,
        disabled: !choice,
        "aria-label": pending ? t("Card {card}, your bid", { card }) : t("Card {card}", { card }),
        onclick: () => choice && this.ctx.act(choice.action),
      }, String(card)));
    });
  }

  renderSeats(view) {
    clear(this.seats);
    this.seats.append(h("h2", {}, t("Players")));
    view.scores.forEach((total, seat) => {
      const c = seatColor(seat);
      this.seats.append(h("div", { class: "sealed-seat", "data-testid": `seat-${seat}` },
        h("span", { class: "disc small", style: { "--disc": c.fill, "--ink": c.ink } }),
        h("strong", {}, this.ctx.seatName(seat)),
        h("span", { class: "muted" }, view.acted[seat] ? t("has bid") : t("to bid")),
        h("span", { class: "num", "data-testid": `total-${seat}` }, String(total))));
    });
  }

  focusTurn() {
    return focusOn(this.hand.querySelector("button:not([disabled])"));
  }

  showHint(hint) {
    this.hinted = hint ? Number(/^bid (\d+)$/.exec(hint.action)?.[1]) : null;
    if (this.state) this.render();
  }

  destroy() {}
}

export default sealed;
