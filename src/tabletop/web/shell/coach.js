// The coach of a casual game (docs/web.md, "The coach"): the notes the server sends
// with each state (``state.coach``) beside the board, newest first, each with what the
// move cost in the game's unit and, on request, the board after the move played beside
// the board after the better one (the analysis's comparison).
import { api } from "./api.js";
import { comparison } from "./analysis.js";
import { MARK_WORDS, fmt, moveWords, unitName } from "./analysis_values.js";
import { announce } from "./announce.js";
import { t, tn } from "./i18n.js";
import { toast } from "./toast.js";
import { h } from "./util.js";

export class CoachPanel {
  constructor(screen) {
    this.screen = screen;
    this.shown = new Set(); // the plies of the notes on screen (a new one is announced)
    this.compare = null; // the open comparison: {el, close, ply}
    // not a live region: it changes with every judged move; a new note is announced instead
    this.status = h("p", { class: "muted coach-status", "data-testid": "coach-status" });
    this.list = h("ol", { class: "coach-notes", "data-testid": "coach-notes", reversed: true });
    this.el = h("section", { class: "coach-box", "data-testid": "coach", "aria-labelledby": "coach-title", hidden: true },
      h("h2", { id: "coach-title" }, t("Coach")), this.status, this.list);
  }

  update(state) {
    const coach = state.coach;
    this.el.hidden = !coach || !coach.scale;
    if (this.el.hidden) return;
    this.status.textContent = statusText(coach);
    this.el.dataset.judged = String(coach.judged);
    this.el.dataset.waiting = String(coach.waiting.length);
    const fresh = coach.notes.filter((note) => !this.shown.has(note.ply));
    if (!fresh.length) return;
    const first = this.shown.size === 0;
    for (const note of fresh) {
      this.shown.add(note.ply);
      this.list.prepend(this.noteItem(note, coach.scale));
      // a note that arrives while you play is read out; those of a reload are not
      if (!first && !state.over) announce(noteText(note, coach.scale));
    }
  }

  noteItem(note, scale) {
    const show = h("button", { class: "btn small", "data-testid": `coach-show-${note.ply}`, onclick: () => this.showBetter(note) },
      t("Show the better move"));
    return h("li", { class: `coach-note mark-${note.mark}`, "data-testid": `coach-note-${note.ply}`, "data-mark": note.mark },
      h("span", {}, noteText(note, scale), " "), show);
  }

  /** The board after the move played and the board after the better one, under the
   * notes (one at a time, the better one first: the column is narrow). */
  async showBetter(note) {
    const state = this.screen.state;
    const token = this.screen.tokens[0];
    let data;
    try {
      data = await api(`/api/games/${encodeURIComponent(state.game.id)}/coach/${note.ply}`, { token });
    } catch (err) {
      toast(err.message, "error");
      return;
    }
    this.close();
    if (!this.el.isConnected) return;
    if (!data.best.view) { // playing it would have shown what was hidden: words only
      const words = h("p", { class: "coach-better", "data-testid": "coach-better-words" }, t("Better: {best}.", { best: moveWords(note, "best") }));
      this.list.after(words);
      this.compare = { el: words, close: () => words.remove(), ply: note.ply };
      return;
    }
    const players = state.game.seats.map((s) => this.screen.seatName(s.seat));
    this.compare = { ...comparison(this.screen.mod, data, note, players, () => this.close()), ply: note.ply };
    this.list.after(this.compare.el);
    this.compare.el.querySelector("[data-testid=compare-show-best]")?.click();
    this.compare.el.scrollIntoView({ block: "nearest" });
  }

  close() {
    this.compare?.close();
    this.compare = null;
  }

  destroy() {
    this.close();
  }
}

/** "Mistake: the 9 at column 3, row 2, level 0 cost you 8.7 points." */
function noteText(note, scale) {
  return t("{mark}: {played} cost you {loss} {unit}.", {
    mark: MARK_WORDS()[note.mark],
    played: moveWords(note, "played"),
    loss: fmt(note.loss, scale),
    unit: unitName(scale),
  });
}

/** What the coach is doing: looking at a move, or how many it has looked at (and how
 * many it skipped on a busy server). */
function statusText(coach) {
  if (coach.waiting.length) return t("The coach is looking at your move…");
  const said = [coach.judged
    ? tn("The coach has looked at {n} move of yours.", "The coach has looked at {n} moves of yours.", coach.judged)
    : t("The coach notes each of your moves that costs more than a little.")];
  if (coach.busy.length) {
    said.push(tn("The server was busy: {n} move was not looked at.", "The server was busy: {n} moves were not looked at.", coach.busy.length));
  }
  return said.join(" ");
}
