// Sealed Bids in the lobby: the tagline, the rules in short, the seat colours. The board
// (index.js) adds the rest; the server names both, with sealed.css, in its type description
// ("modules"), and the shell (shell/games.js) loads them from /static/games/sealed-bids/.
import { t } from "../../shell/i18n.js";
import { h } from "../../shell/util.js";

const SEAT_COLORS = [
  { name: "amber", fill: "#f2b84b", ink: "#1b1f3a" },
  { name: "violet", fill: "#a77ce6", ink: "#fff" },
  { name: "teal", fill: "#3fb6a8", ink: "#1b1f3a" },
];

export function seatColor(seat) {
  return SEAT_COLORS[seat % SEAT_COLORS.length];
}

const intro = {
  name: "sealed-bids",
  get tagline() {
    return t("A prize is turned each round; everybody bids one card at once, in secret. The highest bid takes it.");
  },
  seatColor,
  modeFor() {
    return "standard";
  },
  modeNote(seats) {
    return t("{n} players bid at once; a tie for the highest bid takes nothing.", { n: seats });
  },
  howToPlay() {
    return h("ol", { class: "how-list" },
      h("li", {}, t("Each round the next prize (1 to 6, in an order nobody knows) is turned.")),
      h("li", {}, t("Bid one of your cards 1 to 6; until the last bid you may take yours back.")),
      h("li", {}, t("The highest bid takes the prize; every bid card is spent. The highest total wins.")));
  },
};

export default intro;
