// The analysis's evaluation graph: one line per seat (its value after each of its
// moves), marks on costly moves, a line at the replay's current frame; a value axis in
// the game's unit with a few ticks (up is always better: a lower-is-better scale is
// drawn upside down and says so), a legend naming the lines, and a readout of the
// values under the pointer or at the frame the keyboard stepped to.
//
// The lines are SVG stretched over the plot (preserveAspectRatio "none", strokes that
// do not scale); marks, ticks and labels are HTML placed in percentages on top, so that
// text keeps its size and a mark's target is 24 px (44 px on a touch screen) on any
// screen, not a few SVG units shrunk with the drawing.
import { formatNumber, language, t } from "./i18n.js";
import { fmt, isShare, MARK_WORDS, moveLabel, moveWords, seatFill, unitName } from "./analysis_values.js";
import { clear, h, s } from "./util.js";

let graphs = 0; // ids for the labels' references
const TICKS = 4; // about how many steps the value axis is cut into

/** The graph of `analysis` (a finished one or, `partial`, the moves judged so far):
 * `frameOf(move)` is the replay frame after a move, `go(frame)` steps the replay there
 * (the keys), `choose(frame)` too where a press chose a mark or a step (and may scroll).
 * The element has `moveTo(frame)` (the replay moved), `update(analysis, partial)` (more
 * moves judged: redrawn in place, keeping focus and pointer) and `focusGraph()`. */
export function graph({ analysis, mod, names, steps, frameOf, go, choose = go, partial = false }) {
  const id = `analysis-graph-${++graphs}`;
  const axis = h("p", { class: "graph-axis", id: `${id}-axis`, "data-testid": "graph-axis" });
  const ticks = h("div", { class: "graph-ticks", "aria-hidden": "true", "data-testid": "graph-ticks" });
  const lines = s("svg", { class: "graph-lines", viewBox: "0 0 100 100", preserveAspectRatio: "none", "aria-hidden": "true", focusable: "false" });
  const focus = h("div", { class: "graph-focus", role: "slider", tabindex: "0", "data-testid": "graph-focus",
    "aria-label": t("Evaluation graph: each player's value after each of their moves"), "aria-describedby": `${id}-axis`,
    "aria-valuemin": "0", "aria-valuemax": String(Math.max(1, steps)) }, lines);
  const marks = h("div", { class: "graph-marks" });
  const area = h("div", { class: "graph-area" }, ticks, focus, marks);
  const legend = h("ul", { class: "graph-legend", "aria-label": t("Lines of the graph"), "data-testid": "graph-legend" });
  const readout = h("p", { class: "graph-readout", "aria-live": "polite", "data-testid": "graph-readout" });
  const el = h("figure", { class: "analysis-graph", "data-testid": "analysis-graph" },
    axis, area, h("p", { class: "graph-x", "aria-hidden": "true" }, t("Moves, in the order played →")), legend, readout);
  let drawn = null; // what draw() worked out: the seats' moves and the y of a value
  let current = 0; // the replay's frame
  let hovered = null; // the frame under the pointer, if any

  const x = (frame) => (100 * frame) / Math.max(1, steps);
  const name = (seat) => names[seat.seat] || seat.name || t("Seat {n}", { n: seat.seat + 1 });

  function draw(shown, isPartial) {
    const scale = shown.scale;
    const range = valueRange(shown);
    const y = (v) => (scale.higher_is_better === false ? 100 * (v - range.lo) / (range.hi - range.lo) : 100 - 100 * (v - range.lo) / (range.hi - range.lo));
    drawn = { shown, scale, y, isPartial, judgedTo: Math.max(0, ...shown.seats.flatMap((seat) => seat.moves.map(frameOf))) };
    axis.textContent = axisLabel(scale);
    clear(ticks); clear(lines); clear(marks); clear(legend);
    for (const value of range.ticks) {
      ticks.append(h("span", { "data-value": String(value), style: { top: `${y(value)}%` } }, tickText(value, scale, range.step)));
      lines.append(s("line", { x1: 0, x2: 100, y1: y(value), y2: y(value), class: "graph-grid", "vector-effect": "non-scaling-stroke" }));
    }
    shown.seats.forEach((seat) => {
      const colour = seatFill(mod, seat.seat, shown.seats.length);
      const points = seat.moves.map((m) => `${x(frameOf(m)).toFixed(2)},${y(m.value_played).toFixed(2)}`).join(" ");
      lines.append(s("polyline", { points, fill: "none", stroke: colour, "stroke-width": 2.5, "vector-effect": "non-scaling-stroke", "data-seat": String(seat.seat) }));
      for (const m of seat.moves.filter((move) => move.mark)) marks.append(markOf(m, seat, colour, y, scale));
      legend.append(h("li", { "data-seat": String(seat.seat) }, h("span", { class: "graph-swatch", "aria-hidden": "true", style: { background: colour } }), name(seat)));
    });
    drawn.now = s("line", { y1: 0, y2: 100, class: "graph-now", "vector-effect": "non-scaling-stroke" });
    drawn.hover = s("line", { y1: 0, y2: 100, class: "graph-hover", "vector-effect": "non-scaling-stroke" });
    lines.append(drawn.now, drawn.hover);
    show();
  }

  /** A mark on a costly move: a dot inside a larger invisible target (see the top). */
  function markOf(move, seat, colour, y, scale) {
    const lost = t("{mark}: {name}, {loss} {unit} lost", { mark: MARK_WORDS()[move.mark], name: name(seat), loss: fmt(move.loss, scale), unit: unitName(scale) });
    const words = `${lost}. ${moveLabel(move)}: ${moveWords(move, "played")}`; // which move, in the game's words
    const mark = h("span", { class: `graph-mark mark-${move.mark}`, title: words, "data-testid": "graph-mark", "data-frame": String(frameOf(move)),
      style: { left: `${x(frameOf(move))}%`, top: `${y(move.value_played)}%`, "--seat": colour } }, h("span", { class: "graph-dot" }));
    return mark;
  }

  /** The readout and the slider's value: the frame under the pointer, else the replay's. */
  function show() {
    if (!drawn) return;
    const at = (line, frame) => { line.setAttribute("x1", x(frame)); line.setAttribute("x2", x(frame)); };
    at(drawn.now, current);
    at(drawn.hover, hovered ?? current);
    drawn.hover.classList.toggle("shown", hovered !== null && hovered !== current);
    focus.setAttribute("aria-valuenow", String(current));
    focus.setAttribute("aria-valuetext", valuesAt(current));
    readout.textContent = valuesAt(hovered ?? current);
  }

  /** Each seat's value after its latest move up to `frame`, the move at `frame` marked. */
  function valuesAt(frame) {
    const { shown, scale, isPartial, judgedTo } = drawn;
    if (frame === 0) return t("Before the first move");
    const step = t("Move {i} of {n}", { i: frame, n: steps });
    if (isPartial && frame > judgedTo) return t("{step}: not judged yet", { step });
    const parts = shown.seats.map((seat) => {
      const before = seat.moves.filter((m) => frameOf(m) <= frame);
      const latest = before[before.length - 1];
      if (!latest) return null;
      const value = t("{name}: {value}", { name: name(seat), value: valueText(latest.value_played, scale) });
      if (frameOf(latest) !== frame || latest.played === latest.best) return value;
      const best = t("best {value}", { value: valueText(latest.value_best, scale) });
      return latest.mark ? `${value} (${MARK_WORDS()[latest.mark]}; ${best})` : `${value} (${best})`;
    }).filter(Boolean);
    return parts.length ? t("{step}: {values}", { step, values: parts.join(" · ") }) : t("{step}: no move judged yet", { step });
  }

  function frameAt(event) {
    const box = focus.getBoundingClientRect();
    const share = (event.clientX - box.left) / Math.max(1, box.width);
    return Math.max(0, Math.min(steps, Math.round(share * steps)));
  }

  /** The mark whose target holds the pointer, the nearest if targets overlap (44 px
   * targets a few px apart on a phone: the one on top would hide the others). */
  function markAt(event) {
    let found = null, nearest = Infinity;
    for (const mark of marks.children) {
      const box = mark.getBoundingClientRect();
      const away = Math.hypot(event.clientX - (box.left + box.width / 2), event.clientY - (box.top + box.height / 2));
      if (away <= box.width / 2 && away < nearest) { found = mark; nearest = away; }
    }
    return found;
  }

  /** The step at the pointer: a mark's, else the nearest step on the plot, else none. */
  function stepAt(event) {
    const mark = markAt(event);
    if (mark) return Number(mark.dataset.frame);
    return focus.contains(event.target) ? frameAt(event) : null;
  }

  area.addEventListener("pointermove", (e) => { hovered = stepAt(e); show(); });
  area.addEventListener("pointerleave", () => { hovered = null; show(); });
  area.addEventListener("click", (e) => {
    const step = stepAt(e);
    if (step !== null) choose(step);
  });
  focus.addEventListener("keydown", (e) => {
    const to = { ArrowRight: current + 1, ArrowUp: current + 1, ArrowLeft: current - 1, ArrowDown: current - 1, Home: 0, End: steps, PageUp: current + 10, PageDown: current - 10 }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    e.stopPropagation(); // the replay's own keys would step a second time
    hovered = null;
    go(Math.max(0, Math.min(steps, to)));
  });

  el.moveTo = (frame) => { current = frame; show(); };
  el.update = (shown, isPartial = false) => draw(shown, isPartial);
  el.focusGraph = () => focus.focus();
  draw(analysis, partial);
  return el;
}

/** The value axis: its bounds and ticks at round steps (shares: 0 to 100 %). */
function valueRange(analysis) {
  if (isShare(analysis.scale)) return { lo: 0, hi: 1, step: 0.25, ticks: [0, 0.25, 0.5, 0.75, 1] };
  const values = analysis.seats.flatMap((seat) => seat.moves.flatMap((m) => [m.value_played, m.value_best]));
  let lo = values.length ? Math.min(...values) : 0;
  let hi = values.length ? Math.max(...values) : 1;
  if (hi - lo < 1e-9) { lo -= 0.5; hi += 0.5; }
  const step = roundStep((hi - lo) / TICKS);
  lo = Math.floor(lo / step) * step;
  hi = Math.ceil(hi / step) * step;
  const ticks = [];
  for (let v = lo; v <= hi + step / 2; v += step) ticks.push(Math.round(v / step) * step);
  return { lo, hi, step, ticks };
}

/** 1, 2 or 5 times a power of ten, at least `rough`. */
function roundStep(rough) {
  const power = 10 ** Math.floor(Math.log10(rough));
  return [1, 2, 5, 10].map((m) => m * power).find((step) => step >= rough - 1e-12);
}

function tickText(value, scale, step) {
  if (isShare(scale)) return `${formatNumber(Math.round(value * 100))} %`;
  return formatNumber(value, step < 1 ? Math.ceil(-Math.log10(step)) : 0);
}

function valueText(value, scale) {
  return t("{value} {unit}", { value: fmt(value, scale), unit: unitName(scale) });
}

function axisLabel(scale) {
  const unit = unitName(scale);
  const named = unit.charAt(0).toLocaleUpperCase(language()) + unit.slice(1);
  return scale.higher_is_better === false
    ? t("{unit} · fewer is better, so the scale runs downward: up is better", { unit: named })
    : t("{unit} · up is better", { unit: named });
}
