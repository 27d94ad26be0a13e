// Nova Luna in the lobby: what a player sees before a game — the tagline, the rules in
// short, seat colours and modes, and some tiles as art. Kept apart from the board (index.js)
// so that the lobby never downloads the board's code or styles (page.py's ``modules`` names
// both, with their stylesheets: tiles.css and colours.css here; shell/games.js loads them).
import { t, withNodes } from "../../shell/i18n.js";
import { h, s } from "../../shell/util.js";
import { drawTile, setTiles, tileInfo } from "./tiles.js";

// Player discs: chosen to stay apart from the four tile colours. (The names are msgids:
// the page shows them with t(); these calls only let pybabel find them.)
const SEAT_COLOUR_NAMES = [t("pearl"), t("violet"), t("lime"), t("rose")];
const SEAT_COLORS = [
  { name: "pearl", fill: "#f4efe2", ink: "#1b1f3a" },
  { name: "violet", fill: "#a77ce6", ink: "#fff" },
  { name: "lime", fill: "#9ad24f", ink: "#1b1f3a" },
  { name: "rose", fill: "#ff7fae", ink: "#1b1f3a" },
];

export function seatColor(seat) {
  return SEAT_COLORS[seat % SEAT_COLORS.length];
}

const intro = {
  name: "nova-luna",
  // tiles.js and colours.css draw a shape per tile colour; the top bar's switch says which
  colourSymbols: {
    get title() {
      return t("Colour symbols: a shape for each tile colour (red ▲, blue ■, cyan ✚, yellow ●)");
    },
  },
  get tagline() {
    return t("Take tiles from the moon wheel, lay them next to each other and fulfil their tasks. Place all your discs first — but every tile costs time on the moon track.");
  },

  setup(type) {
    setTiles(type.tiles || []);
  },

  seatColor,

  modeFor(seats) {
    return seats === 1 ? "solo" : "standard";
  },

  modeNote(seats) {
    if (seats === 1) return t("One seat: the solo game. Place your 21 discs while spending as little time (tile cost) as possible — under 100 points is good.");
    return t("{n} players: the first to place all their discs wins.", { n: seats });
  },

  heroArt() {
    const svg = s("svg", { class: "hero-art", viewBox: "0 0 340 220", "aria-hidden": "true" });
    const ids = [7, 26, 44, 60, 33];
    const cells = [[0, 0], [1, 0], [1, 1], [2, 1], [0, 1]];
    const g = s("g", { transform: "translate(92 22) rotate(-8) scale(0.74)" });
    ids.forEach((id, i) => {
      if (!tileInfo(id)) return;
      g.append(s("g", { transform: `translate(${cells[i][0] * 106} ${cells[i][1] * 106})` }, drawTile(id, {})));
    });
    svg.append(
      s("mask", { id: "hero-crescent" }, s("rect", { x: 0, y: 0, width: 100, height: 100, fill: "#fff" }), s("circle", { cx: 54, cy: 30, r: 26, fill: "#000" })),
      s("circle", { cx: 40, cy: 42, r: 30, class: "hero-moon", mask: "url(#hero-crescent)" }), g);
    return svg;
  },

  howToPlay() {
    // Each rule is one sentence; a {placeholder} in it is a word drawn in bold.
    const li = (text, nodes) => h("li", {}, ...withNodes(text, nodes));
    const b = (text) => h("strong", {}, text);
    return h("ol", { class: "how-list" },
      li(t("{take} one of the three tiles clockwise from the moon figure (they glow and are numbered)."), { take: b(t("Take")) }),
      li(t("{lay} next to one of your tiles. Point at a highlighted cell to preview it, click to place (on a touch screen: tap, then {place})."), { lay: b(t("Lay it")), place: h("em", {}, t("Place here")) }),
      li(t("{tasks} are the dot groups: a task is fulfilled when enough tiles of those colours touch the tile, directly or through a chain of the same colour. Fulfilled tasks get one of your discs automatically."), { tasks: b(t("Tasks")) }),
      li(t("{time}: each tile costs its number in moves on the moon track. Whoever is furthest back plays next — maybe several times in a row."), { time: b(t("Time")) }),
      li(t("The first to place all their discs wins. {solo}: place all 21 discs as cheaply as possible; under 100 points is good."), { solo: b(t("Solo")) }));
  },
};

export default intro;
