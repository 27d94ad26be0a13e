// Toy Draft's board: the market (three tiles to take), each seat's hand and sum, and the
// result. What the shell asks of a game module beyond intro.js: turnPrompt, describeAction,
// resultHeadline, resultView, createBoard (update, focusTurn, showHint, destroy).
import { t } from "../../shell/i18n.js";
import { clear, focusOn, h } from "../../shell/util.js";
import intro, { seatColor } from "./intro.js";

const toy = {
  ...intro,

  /** Seats in a replay frame's view (the shell's default reads view.seats). */
  seatCount(view) {
    return view.players;
  },

  turnPrompt() {
    return t("Take one of the three face-up tiles.");
  },

  describeAction(state, action) {
    const slot = Number(/^take (\d)$/.exec(action)?.[1]) - 1;
    const tile = state.view.market[slot];
    return tile === undefined ? action : t("take the {tile}", { tile });
  },

  resultHeadline(state, name) {
    const r = state.result || state.view.result;
    if (!r) return t("Game over");
    if (r.scores.length === 1) return t("Solo sum: {sum}", { sum: r.scores[0] });
    const first = r.ranks.flatMap((rank, seat) => (rank === 1 ? [seat] : []));
    return first.length > 1 ? t("A shared win") : t("{name} wins!", { name: name(first[0]) });
  },

  resultView(state, name) {
    const r = state.result || state.view.result;
    if (!r) return h("p", {}, t("The game is over."));
    return h("table", { class: "ranking", "data-testid": "result" },
      h("tbody", {}, r.scores.map((sum, seat) => h("tr", { "data-testid": `rank-${seat}` },
        h("td", {}, String(r.ranks[seat])),
        h("td", {}, name(seat)),
        h("td", { class: "num" }, String(sum))))));
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
    this.market = h("div", { class: "toy-market", "data-testid": "market" });
    this.pile = h("p", { class: "muted", "data-testid": "pile" });
    this.hands = h("section", { class: "card toy-hands", "data-testid": "players" });
    slots.main.append(h("section", { class: "card toy-board" }, h("h2", {}, t("Face-up tiles")), this.market, this.pile));
    slots.players.append(this.hands);
  }

  update(state) {
    this.state = state;
    if (state.choices !== null) this.choices = state.choices || [];
    this.render();
  }

  render() {
    const { view } = this.state;
    const live = !this.ctx.readOnly && this.state.acting !== null;
    clear(this.market);
    view.market.forEach((tile, slot) => {
      const choice = live ? this.choices.find((c) => c.slot === slot) : null;
      this.market.append(h("button", {
        type: "button",
        class: `toy-tile${this.hinted === slot ? " hinted" : ""}`,
        "data-testid": `market-${slot}`,
        disabled: !choice,
        "aria-label": t("Tile {tile}", { tile }),
        onclick: () => choice && this.ctx.act(choice.action),
      }, String(tile)));
    });
    this.pile.textContent = t("{n} tiles in the pile", { n: view.pile_count });
    clear(this.hands);
    this.hands.append(h("h2", {}, t("Hands")));
    view.hands.forEach((hand, seat) => {
      const c = seatColor(seat);
      this.hands.append(h("div", { class: "toy-hand", "data-testid": `hand-${seat}` },
        h("span", { class: "disc small", style: { "--disc": c.fill, "--ink": c.ink } }),
        h("strong", {}, this.ctx.seatName(seat)),
        h("span", { class: "toy-tiles" }, hand.map((tile) => h("span", { class: "toy-chip" }, String(tile)))),
        h("span", { class: "num", "data-testid": `sum-${seat}` }, String(view.scores[seat]))));
    });
  }

  focusTurn() {
    return focusOn(this.market.querySelector("button:not([disabled])"));
  }

  showHint(hint) {
    this.hinted = hint ? Number(/^take (\d)$/.exec(hint.action)?.[1]) - 1 : null;
    if (this.state) this.render();
  }

  destroy() {}
}

export default toy;
