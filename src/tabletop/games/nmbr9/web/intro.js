// NMBR 9 in the lobby: the tagline, the rules in short, seat colours and some tiles as
// art. Kept apart from the board (index.js) so that the lobby never downloads the
// board's code (page.py's ``modules`` names both parts with
// their stylesheets; shell/games.js loads them).
import { t, withNodes } from "../../shell/i18n.js";
import { h, s } from "../../shell/util.js";

// Seat colours, apart from the level shades of the tiles. (The names are msgids, shown
// with t(); this line lets pybabel find the one Nova Luna lacks.)
t("amber");
const SEAT_COLORS = [
  { name: "amber", fill: "#f2b84b", ink: "#1b1f3a" },
  { name: "violet", fill: "#a77ce6", ink: "#fff" },
  { name: "lime", fill: "#9ad24f", ink: "#1b1f3a" },
  { name: "rose", fill: "#ff7fae", ink: "#1b1f3a" },
];

export function seatColor(seat) {
  return SEAT_COLORS[seat % SEAT_COLORS.length];
}

// The digits as drawn in the server's tiles.json (rows top to bottom, "#" a square);
// the lobby's type description carries them (setup()).
let drawn = {};

/** The squares [dx, dy] of ``digit`` turned ``rotation`` quarter turns clockwise, the
 * bounding box's top-left at 0,0 (as the server's rules/tiles.py turns them). */
export function shapeCells(digit, rotation) {
  const rows = drawn[String(digit)] || ["#"];
  let cells = [];
  rows.forEach((row, y) => [...row].forEach((ch, x) => { if (ch === "#") cells.push([x, y]); }));
  for (let r = 0; r < rotation; r++) {
    const height = 1 + Math.max(...cells.map((c) => c[1]));
    cells = cells.map(([x, y]) => [height - 1 - y, x]);
  }
  return cells.sort((a, b) => a[1] - b[1] || a[0] - b[0]);
}

/** The lowest rotation with the same squares (the server names a placement by it). */
export function canonicalRotation(digit, rotation) {
  const key = (r) => shapeCells(digit, r).map((c) => c.join(",")).join(" ");
  const mine = key(rotation);
  for (let r = 0; r < rotation; r++) if (key(r) === mine) return r;
  return rotation;
}

/** A tile as SVG squares (for the lobby's art and the card): ``size`` pixels a square. */
export function tileArt(digit, rotation, size, cls = "") {
  const g = s("g", { class: `n9-art ${cls}` });
  for (const [x, y] of shapeCells(digit, rotation)) {
    g.append(s("rect", { x: x * size, y: y * size, width: size, height: size, class: "n9-art-sq" }));
  }
  return g;
}

const intro = {
  name: "nmbr9",
  get tagline() {
    return t("Everyone places the same number tile at once — build up in levels: a tile scores its digit times its level, so stack the big ones high.");
  },

  setup(type) {
    drawn = type.tiles || {};
  },

  seatColor,

  modeFor() {
    return "standard";
  },

  modeNote(seats) {
    if (seats === 1) return t("One seat: the solo game. Score as many points as you can in 20 rounds.");
    return t("{n} players place each card's tile at the same time; the highest score after 20 rounds wins.", { n: seats });
  },

  heroArt() {
    const svg = s("svg", { class: "hero-art n9-hero", viewBox: "0 0 340 220", "aria-hidden": "true" });
    // a staircase of four tiles, one per level (the shades of the board)
    const layers = [[6, 0, 16, 110, 0], [8, 0, 98, 80, 1], [0, 0, 180, 50, 2], [9, 0, 262, 20, 3]];
    for (const [digit, rot, x, y, level] of layers) {
      const g = tileArt(digit, rot, 24, `lv-${level}`);
      g.setAttribute("transform", `translate(${x} ${y})`);
      svg.append(g);
    }
    return svg;
  },

  howToPlay() {
    // Each rule is one sentence; a {placeholder} in it is a word drawn in bold.
    const li = (text, nodes = {}) => h("li", {}, ...withNodes(text, nodes));
    const b = (text) => h("strong", {}, text);
    return h("ol", { class: "how-list" },
      li(t("{turned} each round: everyone places that number tile on their own board at the same time."), { turned: b(t("A card is turned")) }),
      li(t("{place}: move the ghost tile over your board (pointer, tap or arrow keys), turn it (button, R or the mouse wheel) and press {confirm}. Until everyone has placed you may take it back."), { place: b(t("Place it")), confirm: h("em", {}, t("Confirm")) }),
      li(t("{level0} is the table: a tile there must touch one of your tiles on the table (the first goes anywhere)."), { level0: b(t("Level 0")) }),
      li(t("{higher}: a tile must lie flat on tiles below, no overhang, resting on at least two tiles."), { higher: b(t("Higher levels")) }),
      li(t("After 20 rounds each tile scores its digit × its level. The highest total wins.")));
  },
};

export default intro;
