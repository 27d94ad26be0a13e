// The tutorial's marks on Nova Luna's board (the steps: ../tutorial.py). A step's
// highlight names wheel spaces, moon-track spaces, a display cell, a task and a button;
// the board draws each key it finds. In a lesson the learner may also *try* what the rules
// forbid (a tile that is not one of the next three), so that the server explains why.
import { s } from "../../shell/util.js";

/** The choices offered for the tile on ``space``: the server's, or in a lesson, for a tile
 * that is not takeable, the same cells (all tiles go on the same cells) as tries the
 * server will refuse and explain. */
export function choicesFor(state, space, lesson) {
  const own = state.choices.filter((c) => c.space === space && c.cell);
  if (own.length || !lesson || !state.view.wheel[space]) return own;
  const seen = new Set();
  const tries = [];
  for (const c of state.choices) {
    const key = c.cell ? `${c.cell[0]},${c.cell[1]}` : null;
    if (key && !seen.has(key)) {
      seen.add(key);
      tries.push({ action: `${space}@${key}`, space, cell: c.cell, covers: [] });
    }
  }
  return tries;
}

/** The display cell a step points at, as the display's key ("x,y"), or null. */
export function markedCell(state) {
  const cell = state.tutorial?.highlight?.cell;
  return Array.isArray(cell) ? `${cell[0]},${cell[1]}` : null;
}

/** Mark what the step names on the drawn board (after each render; the wheel and the
 * display are drawn afresh, the two buttons are kept and so unmarked first). */
export function markBoard(board, highlight) {
  for (const btn of [board.refillBtn, board.endBtn]) btn.classList.remove("tut-mark");
  if (!highlight) return;
  const mark = (el) => el?.classList.add("tut-mark");
  for (const space of highlight.spaces || []) {
    const g = board.wheelBox.querySelector(`.space[data-space="${space}"]`);
    mark(g);
    g?.append(s("circle", { class: "tut-ring", r: 43 })); // round the tile, over its own ring
  }
  for (const pos of highlight.track || []) mark(board.wheelBox.querySelector(`[data-track="${pos}"]`));
  if (Array.isArray(highlight.task)) {
    mark(board.display.svg.querySelector(`[data-task="${highlight.task.join(",")}"]`));
  }
  if (highlight.button === "refill") mark(board.refillBtn);
  if (highlight.button === "end-phase") mark(board.endBtn);
}
