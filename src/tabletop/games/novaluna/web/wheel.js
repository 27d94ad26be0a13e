// The moon wheel: 12 selection spaces with their tiles and the meeple, the three takeable
// tiles marked, and the 24-space moon track with the players' markers in stacking order.
import { t, tn } from "../../shell/i18n.js";
import { rove, s } from "../../shell/util.js";
import { defs, drawTile, tileText } from "./tiles.js";

const R_SPACE = 150;
const TILE_SCALE = 0.64;
const R_TRACK = 94;

function polar(r, index, count) {
  const a = (index / count) * 2 * Math.PI;
  return [r * Math.sin(a), -r * Math.cos(a)];
}

/**
 * opts: view, seatColor(seat), selectable (bool), tryAny (a lesson: every tile may be tried),
 * selected (space|null), hinted (space|null),
 * lastSpace, onSpace(space), current (the space in the tab order: the arrow keys move
 * between the selectable tiles, in their marked order), onFocusSpace(space).
 */
export function drawWheel(opts) {
  const { view } = opts;
  const svg = s("svg", { class: "wheel", viewBox: "-205 -205 410 410", "data-testid": "wheel", role: "group", "aria-label": t("Moon wheel") });
  svg.append(defs());
  // the board
  svg.append(
    s("circle", { class: "wheel-rim", r: 200 }),
    s("circle", { class: "wheel-ring", r: 186 }),
    s("circle", { class: "wheel-inner", r: 118 }),
    s("circle", { class: "track-band", r: R_TRACK, }),
  );
  // the moon track
  const solo = view.mode === "solo";
  const track = s("g", { class: `track${solo ? " track-solo" : ""}` });
  for (let k = 0; k < 24; k++) {
    const [x, y] = polar(R_TRACK, k, 24);
    track.append(
      s("circle", { class: k === 0 ? "track-space track-zero" : "track-space", cx: x, cy: y, r: 10.5, "data-track": k }),
      s("text", { class: "track-num", x, y, "text-anchor": "middle", "dominant-baseline": "central", "data-testid": `track-num-${k}` }, String(k)));
  }
  svg.append(track);
  // the centre: the moon and the pile
  const centre = s("g", { class: "centre" });
  centre.append(
    s("mask", { id: "nl-crescent", maskUnits: "userSpaceOnUse", x: -90, y: -90, width: 180, height: 180 }, s("rect", { x: -90, y: -90, width: 180, height: 180, fill: "#fff" }), s("circle", { cx: 17, cy: -16, r: 36, fill: "#000" })),
    s("circle", { class: "moon-dark", cx: 0, cy: -6, r: 40 }),
    s("circle", { class: "moon", cx: 0, cy: -6, r: 40, fill: "url(#nl-moon)", mask: "url(#nl-crescent)" }),
  );
  const pileLabel = tn("tile in the pile", "tiles in the pile", view.pile_count);
  centre.append(
    s("text", { class: "pile-count", x: 0, y: 44, "text-anchor": "middle", "data-testid": "pile-count" }, String(view.pile_count)),
    s("text", { class: "pile-label", x: 0, y: 58, "text-anchor": "middle" }, pileLabel));
  if (solo) {
    centre.append(s("text", { class: "phase-label", x: 0, y: -56, "text-anchor": "middle" }, view.over ? t("finished") : t("Phase {n}", { n: view.phase })));
  }
  svg.append(centre);
  // markers: by position, bottom of each stack first
  if (!solo) {
    const byPos = new Map();
    view.seats.forEach((seat, i) => {
      const pos = ((seat.time % 24) + 24) % 24;
      if (!byPos.has(pos)) byPos.set(pos, []);
      byPos.get(pos).push(i);
    });
    const next = view.over ? null : view.turn_order[0];
    for (const [pos, seats] of byPos) {
      seats.sort((a, b) => view.seats[a].stack_height - view.seats[b].stack_height);
      seats.forEach((seat, level) => {
        const [x, y] = polar(R_TRACK - level * 5.5, pos, 24);
        const c = opts.seatColor(seat);
        const g = s("g", { class: `marker${seat === next ? " marker-next" : ""}`, "data-testid": `marker-${seat}`, transform: `translate(${x} ${y - level * 2.5})` },
          s("title", {}, markerTitle(opts.seatName(seat), pos, view.seats[seat].time, level === seats.length - 1 && seats.length > 1)),
          s("ellipse", { class: "marker-side", cx: 0, cy: 2.6, rx: 9, ry: 6.5, fill: c.fill }),
          s("ellipse", { class: "marker-top", cx: 0, cy: 0, rx: 9, ry: 6.5, fill: c.fill }));
        svg.append(g);
      });
    }
  }
  // the selection track
  const takeable = view.takeable || [];
  const buttons = [];
  for (let space = 0; space < 12; space++) {
    const [x, y] = polar(R_SPACE, space, 12);
    const tile = view.wheel[space];
    const order = takeable.indexOf(space);
    const classes = ["space"];
    if (space === 0) classes.push("space-gold");
    if (order >= 0) classes.push("takeable");
    // a lesson lets the learner try any tile: the server explains why one may not be taken
    const pickable = opts.selectable && tile && (order >= 0 || opts.tryAny);
    if (pickable) classes.push("selectable");
    if (opts.selected === space) classes.push("selected");
    if (opts.hinted === space) classes.push("hinted");
    if (opts.lastSpace === space) classes.push("last-taken");
    const g = s("g", { class: classes.join(" "), transform: `translate(${x.toFixed(2)} ${y.toFixed(2)})`, "data-testid": `space-${space}`, "data-space": space });
    if (order >= 0) g.setAttribute("data-takeable", String(order + 1));
    g.append(s("circle", { class: "space-slot", r: 33 }));
    if (tile) {
      const drawn = drawTile(tile, {});
      const inner = s("g", { class: "space-tile", transform: `scale(${TILE_SCALE}) translate(-50 -50)` }, drawn);
      g.append(s("rect", { class: "take-ring", x: -37, y: -37, width: 74, height: 74, rx: 11 }), inner);
      const where = { tile: tileText(tile), space, mark: order + 1 };
      g.setAttribute("aria-label", order >= 0 ? t("{tile} on space {space}, takeable ({mark})", where) : t("{tile} on space {space}", where));
      if (pickable) {
        g.setAttribute("role", "button");
        buttons[order >= 0 ? order : 3 + space] = g;
        g.addEventListener("focus", () => opts.onFocusSpace?.(space));
        g.addEventListener("click", () => opts.onSpace(space));
        g.addEventListener("keydown", (e) => {
          if (e.key === "Enter" || e.key === " ") {
            e.preventDefault();
            opts.onSpace(space);
          }
        });
      }
    }
    if (space === view.meeple) g.append(meeple());
    svg.append(g);
    if (order >= 0) {
      // beside the space's group, not in it: a tile's name ("cyan 3 …") holds the one
      // number shown on it, its cost; the badge's number is in its label as "takeable (1)"
      const [bx, by] = polar(196, space, 12);
      const badge = s("g", { class: "take-badge", transform: `translate(${bx.toFixed(1)} ${by.toFixed(1)})`, "aria-hidden": "true" },
        s("circle", { r: 9 }), s("text", { "text-anchor": "middle", "dominant-baseline": "central", y: 0.5 }, String(order + 1)));
      if (opts.selectable) {
        badge.classList.add("selectable");
        badge.addEventListener("click", () => opts.onSpace(space));
      }
      svg.append(badge);
    }
  }
  const items = buttons.filter(Boolean);
  rove(items, { current: items.find((g) => Number(g.dataset.space) === opts.current) });
  return svg;
}

/** A marker's tooltip: "Ann: moon track 7 (time 31), on top of the stack". */
function markerTitle(name, pos, time, onTop) {
  const args = { name, pos, time };
  return onTop ? t("{name}: moon track {pos} (time {time}), on top of the stack", args) : t("{name}: moon track {pos} (time {time})", args);
}

function meeple() {
  return s("g", { class: "meeple", "data-testid": "meeple" },
    s("title", {}, t("The moon figure: the next three tiles clockwise from it may be taken")),
    s("ellipse", { class: "meeple-shadow", cx: 0, cy: 20, rx: 15, ry: 5 }),
    s("path", { class: "meeple-body", d: "M -13 19 Q -12 2 -6 -2 L 6 -2 Q 12 2 13 19 Z" }),
    s("circle", { class: "meeple-head", cx: 0, cy: -12, r: 11 }),
    s("circle", { class: "meeple-cut", cx: 5, cy: -16, r: 8.5 }));
}
