// The analysis's evaluation graph (SVG): one line per seat, marks on costly moves, a
// line at the replay's current frame.
import { t } from "./i18n.js";
import { isShare, MARK_WORDS, moveLabel, moveWords, seatFill } from "./analysis_values.js";
import { s } from "./util.js";

/** The evaluation graph: each seat's value after each of its moves, marks on costly moves. */
export function graph(analysis, mod, steps, frameOf, go) {
  const W = 600, H = 140, pad = 8;
  const values = analysis.seats.flatMap((seat) => seat.moves.flatMap((m) => [m.value_played, m.value_best]));
  let lo = Math.min(...values), hi = Math.max(...values);
  if (isShare(analysis.scale)) { lo = 0; hi = 1; }
  if (hi - lo < 1e-9) hi = lo + 1;
  const x = (frame) => pad + (W - 2 * pad) * (frame / Math.max(1, steps));
  const y = (v) => H - pad - (H - 2 * pad) * ((v - lo) / (hi - lo));
  const better = analysis.scale.higher_is_better !== false;
  const svg = s("svg", { viewBox: `0 0 ${W} ${H}`, class: "analysis-graph", role: "img", "data-testid": "analysis-graph",
    "aria-label": t("Evaluation graph: each player's value after each of their moves") });
  svg.append(s("rect", { x: 0, y: 0, width: W, height: H, class: "graph-bg" }));
  analysis.seats.forEach((seat) => {
    const colour = seatFill(mod, seat.seat, analysis.seats.length);
    const points = seat.moves.map((m) => `${x(frameOf(m)).toFixed(1)},${y(m.value_played).toFixed(1)}`).join(" ");
    svg.append(s("polyline", { points, fill: "none", stroke: colour, "stroke-width": 2.5, "data-seat": String(seat.seat) }));
    for (const m of seat.moves.filter((move) => move.mark)) {
      const dot = s("circle", { cx: x(frameOf(m)), cy: y(m.value_played), r: m.mark === "blunder" ? 6 : m.mark === "mistake" ? 5 : 4,
        class: `graph-mark mark-${m.mark}`, stroke: colour, "data-testid": "graph-mark" });
      dot.addEventListener("click", () => go(frameOf(m)));
      dot.append(s("title", {}, `${MARK_WORDS()[m.mark]}, ${moveLabel(m)}: ${moveWords(m, "played")}`));
      svg.append(dot);
    }
  });
  if (!better) svg.classList.add("lower-is-better");
  const now = s("line", { x1: x(0), x2: x(0), y1: 0, y2: H, class: "graph-now" });
  svg.append(now);
  svg.moveTo = (frame) => { now.setAttribute("x1", x(frame)); now.setAttribute("x2", x(frame)); };
  return svg;
}
