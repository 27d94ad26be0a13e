// Toy Draft in the lobby: the tagline, the rules in short, the seat colours. The board
// (index.js) adds the rest; the server names both, with toy.css, in its type description
// ("modules"), and the shell (shell/games.js) loads them from /static/games/toy/.
import { t } from "../../shell/i18n.js";
import { h } from "../../shell/util.js";

const SEAT_COLORS = [
  { name: "amber", fill: "#f2b84b", ink: "#1b1f3a" },
  { name: "violet", fill: "#a77ce6", ink: "#fff" },
];

export function seatColor(seat) {
  return SEAT_COLORS[seat % SEAT_COLORS.length];
}

const intro = {
  name: "toy",
  get tagline() {
    return t("Three tiles lie face up: take one a turn; the pile refills the gap. The highest sum after four turns each wins.");
  },
  seatColor,
  modeFor() {
    return "standard";
  },
  modeNote(seats) {
    return seats === 1 ? t("One seat: the solo game. A sum of 40 or more is good.") : t("{n} players take turns; ties share the win.", { n: seats });
  },
  howToPlay() {
    return h("ol", { class: "how-list" },
      h("li", {}, t("On your turn take one of the three face-up tiles.")),
      h("li", {}, t("Its place is refilled from the pile: nobody knows its order.")),
      h("li", {}, t("After four turns each, the highest sum wins.")));
  },
};

export default intro;
