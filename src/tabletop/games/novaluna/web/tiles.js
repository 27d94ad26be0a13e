// Drawing Nova Luna tiles as SVG: colour, cost (top left), tasks as groups of dots,
// covered tasks under the owner's disc colour, previewed tasks glowing. For colour-blind
// play every tile also carries its colour's shape (top right) and every task dot has a
// shaped twin; colours.css shows them, instead of the plain dots, under <html class="cb">.
import { t } from "../../shell/i18n.js";
import { s } from "../../shell/util.js";

export const TILE = 100; // a tile is drawn in a 100×100 box
export const COLORS = {
  red: { fill: "#d0563f", dark: "#8e2f22", name: "red" },
  blue: { fill: "#3c6cc9", dark: "#203f80", name: "blue" },
  cyan: { fill: "#2fb0a5", dark: "#17675f", name: "cyan" },
  yellow: { fill: "#e9b93f", dark: "#94701a", name: "yellow" },
};
export const COLOR_ORDER = ["red", "blue", "cyan", "yellow"];

/** A tile colour's name in the page's language (the word that goes before a cost). */
export function colourName(colour) {
  const names = { red: t("red"), blue: t("blue"), cyan: t("cyan"), yellow: t("yellow") };
  return names[colour] || colour;
}
// One shape per colour, as far apart as shapes go; the pairs that colour-blind eyes mix up
// most (red/yellow, blue/cyan) get the most different outlines. colours.css and the top
// bar's icon use the same four.
export const SHAPES = {
  red: { name: "triangle", glyph: "▲" },
  blue: { name: "square", glyph: "■" },
  cyan: { name: "plus", glyph: "✚" },
  yellow: { name: "circle", glyph: "●" },
};

const f = (n) => +n.toFixed(2);

/** The outline of ``colour``'s shape centred on (cx, cy), about 2r across, as path data. */
export function shapePath(colour, cx, cy, r) {
  switch (SHAPES[colour]?.name) {
    case "triangle": { // a triangle looks smaller than a square of the same width: a little larger
      const w = r * 1.06;
      const ht = w * Math.sqrt(3);
      const top = cy - ht * 0.56;
      return `M${f(cx)} ${f(top)}L${f(cx + w)} ${f(top + ht)}L${f(cx - w)} ${f(top + ht)}Z`;
    }
    case "square": {
      const a = r * 0.92;
      return `M${f(cx - a)} ${f(cy - a)}H${f(cx + a)}V${f(cy + a)}H${f(cx - a)}Z`;
    }
    case "plus": {
      const a = r; // arm reach
      const b = r * 0.42; // half an arm's width
      return `M${f(cx - b)} ${f(cy - a)}H${f(cx + b)}V${f(cy - b)}H${f(cx + a)}V${f(cy + b)}H${f(cx + b)}V${f(cy + a)}`
        + `H${f(cx - b)}V${f(cy + b)}H${f(cx - a)}V${f(cy - b)}H${f(cx - b)}Z`;
    }
    default: { // circle
      const c = r * 0.98;
      return `M${f(cx - c)} ${f(cy)}a${f(c)} ${f(c)} 0 1 0 ${f(2 * c)} 0a${f(c)} ${f(c)} 0 1 0 ${f(-2 * c)} 0Z`;
    }
  }
}

function shape(colour, cls, cx, cy, r, attrs = {}) {
  return s("path", { class: cls, "data-color": colour, "data-shape": SHAPES[colour]?.name || "circle", d: shapePath(colour, cx, cy, r), ...attrs });
}

let TILES = new Map();

export function setTiles(list) {
  TILES = new Map(list.map((t) => [t.id, t]));
}

export function tileInfo(id) {
  return TILES.get(id);
}

export function taskText(task) {
  return COLOR_ORDER.filter((c) => task[c]).map((c) => t("{n} {colour}", { n: task[c], colour: colourName(c) })).join(" + ");
}

export function tileText(id) {
  const info = TILES.get(id);
  return info ? t("{colour} {cost}", { colour: colourName(info.color), cost: info.cost }) : t("tile {id}", { id });
}

const ROWS = { 1: [58], 2: [44, 74], 3: [38, 62, 86] };

/**
 * A tile as an SVG group in a 100×100 box at the origin.
 * opts: covered (flags), owner (player colour), cell ([x, y], names the tasks), preview
 * (set of task indexes to glow), mini (no task detail).
 */
export function drawTile(id, opts = {}) {
  const info = TILES.get(id);
  const g = s("g", { class: "tile", "data-tile": id });
  if (!info) return g;
  const col = COLORS[info.color];
  g.append(
    s("rect", { class: "tile-shadow", x: 2, y: 4, width: TILE, height: TILE, rx: 11 }),
    s("rect", { class: "tile-body", x: 0, y: 0, width: TILE, height: TILE, rx: 11, fill: col.fill }),
    s("rect", { class: "tile-sheen", x: 0, y: 0, width: TILE, height: TILE, rx: 11, fill: "url(#nl-sheen)" }),
    s("rect", { class: "tile-edge", x: 1.5, y: 1.5, width: TILE - 3, height: TILE - 3, rx: 10, stroke: col.dark }),
  );
  const tasks = info.tasks.map(taskText).join("; ");
  const title = info.tasks.length ? t("{tile}, cost {cost} — tasks: {tasks}", { tile: tileText(id), cost: info.cost, tasks }) : t("{tile}, cost {cost} — no tasks", { tile: tileText(id), cost: info.cost });
  g.append(s("title", {}, title));
  // cost: a little moon-clock in the corner
  g.append(
    s("circle", { class: "cost-bg", cx: 17, cy: 17, r: 12.5 }),
    s("text", { class: "cost", x: 17, y: 17.5, "text-anchor": "middle", "dominant-baseline": "central" }, String(info.cost)),
  );
  // the colour's shape, top right (shown in colour-symbol mode)
  g.append(shape(info.color, "tile-symbol", 82.5, 16.5, 9));
  if (opts.mini) return g;
  const rows = ROWS[info.tasks.length] || [];
  info.tasks.forEach((task, i) => {
    const colours = COLOR_ORDER.flatMap((c) => Array(task[c] || 0).fill(c));
    const width = colours.length * 15 + 11;
    const cx = info.tasks.length === 1 ? 50 : 58;
    const x0 = cx - width / 2;
    const y = rows[i];
    const covered = opts.covered && opts.covered[i];
    const tg = s("g", { class: `task${covered ? " covered" : ""}${opts.preview && opts.preview.has(i) ? " preview" : ""}${opts.fresh && opts.fresh.has(i) ? " fresh" : ""}` });
    if (opts.cell) {
      tg.setAttribute("data-task", `${opts.cell[0]},${opts.cell[1]},${i}`);
      tg.setAttribute("data-testid", `task-${opts.cell[0]},${opts.cell[1]},${i}`);
    }
    if (covered) tg.setAttribute("data-covered", "1");
    tg.append(s("title", {}, covered ? t("Task: {task} — fulfilled", { task: taskText(task) }) : t("Task: {task}", { task: taskText(task) })));
    tg.append(s("rect", { class: "plate", x: x0, y: y - 11, width, height: 22, rx: 11 }));
    colours.forEach((c, k) => {
      const dx = x0 + 13 + k * 15;
      tg.append(
        s("circle", { class: "dot", cx: dx, cy: y, r: 5.6, fill: COLORS[c].fill, "data-color": c }),
        shape(c, "dot-shape", dx, y, 6.1, { fill: COLORS[c].fill }));
    });
    if (covered) {
      // the owner's disc, laid on the task
      const r = 11.5;
      tg.append(
        s("circle", { class: "disc-shadow", cx: x0 + width - 4, cy: y + 2, r }),
        s("circle", { class: "disc-piece", cx: x0 + width - 4, cy: y, r, fill: opts.owner || "#fff" }),
        s("circle", { class: "disc-shine", cx: x0 + width - 7, cy: y - 3, r: 4 }));
    }
    // where a previewed placement would put a disc
    tg.append(s("circle", { class: "disc-ghost", cx: x0 + width - 4, cy: y, r: 11.5 }));
    g.append(tg);
  });
  return g;
}

/** Shared SVG defs (sheen gradient, glow filter); add once per SVG. */
export function defs() {
  return s("defs", {},
    s("linearGradient", { id: "nl-sheen", x1: 0, y1: 0, x2: 0.4, y2: 1 },
      s("stop", { offset: "0", "stop-color": "#fff", "stop-opacity": "0.28" }),
      s("stop", { offset: "0.55", "stop-color": "#fff", "stop-opacity": "0" }),
      s("stop", { offset: "1", "stop-color": "#000", "stop-opacity": "0.18" })),
    s("radialGradient", { id: "nl-moon", cx: 0.4, cy: 0.35, r: 0.7 },
      s("stop", { offset: "0", "stop-color": "#fff6d8" }),
      s("stop", { offset: "0.6", "stop-color": "#f2d58c" }),
      s("stop", { offset: "1", "stop-color": "#c99a45" })),
    s("radialGradient", { id: "nl-night", cx: 0.5, cy: 0.5, r: 0.5 },
      s("stop", { offset: "0", "stop-color": "#1f2a5c" }),
      s("stop", { offset: "0.75", "stop-color": "#141b40" }),
      s("stop", { offset: "1", "stop-color": "#0d1230" })),
    s("filter", { id: "nl-glow", x: "-50%", y: "-50%", width: "200%", height: "200%" },
      s("feGaussianBlur", { stdDeviation: "4", result: "b" }),
      s("feMerge", {}, s("feMergeNode", { in: "b" }), s("feMergeNode", { in: "SourceGraphic" }))));
}
