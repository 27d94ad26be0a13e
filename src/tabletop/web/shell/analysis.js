// The analysis of a finished game beside its replay: ask for it, follow its progress,
// then an evaluation graph (SVG, one line per seat), each seat's summary and its
// marked moves; choosing a move steps the replay there and names the best move.
import { formatNumber, t, tn } from "./i18n.js";
import { api, capitalise } from "./api.js";
import { graph } from "./analysis_graph.js";
import { askedSeat, Lesson, markedMoves, yourSeats } from "./analysis_learn.js";
import { fmt, markCounts, MARK_SIGNS, MARK_WORDS, moveLabel, moveWords, seatFill, unitName } from "./analysis_values.js";
import { toast } from "./toast.js";
import { clear, focusOn, h } from "./util.js";
const POLL_MS = 1500;

/** The panel: `go(frame)` steps the replay; `frameOf(move)` is the replay frame after a move;
 * `hold(on)` pauses the replay's keys while "learn from your mistakes" is open. */
export function analysisPanel({ gameId, mod, players, frames, go, besides, hold = () => {} }) {
  // not a live region: while the analysis runs its graph is redrawn every poll; the
  // progress line and the graph's readout speak for themselves
  const body = h("div", { class: "analysis-body" });
  const el = h("section", { class: "card analysis", "data-testid": "analysis", "aria-labelledby": "analysis-title" },
    h("h2", { id: "analysis-title" }, t("Analysis")), body);
  let timer = null;
  let shown = null; // the finished analysis
  let detail = null;
  let progress = null; // while running: the progress line and bar, kept across polls
  let plot = null; // the graph, kept across polls (and into the finished analysis) so that focus and pointer stay on it
  const url = `/api/games/${encodeURIComponent(gameId)}/analysis`;
  const yours = yourSeats(gameId); // the seats whose mistakes this viewer may learn from
  let lesson = null;

  function offer() {
    clear(body);
    body.append(h("p", { class: "muted" }, t("Our strongest bot judges every move from what its player knew then: the best move, what each cost, and the game's turning points.")),
      h("button", { class: "btn primary", "data-testid": "analyse", onclick: start }, t("Analyse")));
  }

  async function start() {
    try {
      follow(await api(url, { method: "POST" }));
    } catch (err) {
      toast(err.message, "error");
    }
  }

  async function poll() {
    let state;
    try {
      state = await api(url);
    } catch (err) {
      toast(err.message, "error");
      return;
    }
    // nobody asked yet: the end screen's "Analyse" opens the replay with ?analyse (start
    // at once), else offer it
    if (state.status !== "none") follow(state);
    else if (new URLSearchParams(location.search).has("analyse")) start();
    else offer();
  }

  function follow(state) {
    clearTimeout(timer);
    if (state.status === "running") {
      showProgress(state);
      timer = setTimeout(poll, POLL_MS);
    } else if (state.status === "failed") {
      progress = null;
      plot = null;
      clear(body);
      body.append(h("p", { role: "alert" }, t("The analysis could not be worked out.")),
        h("button", { class: "btn", onclick: start }, t("Try again")));
    } else {
      shown = state.analysis;
      yours.then((seats) => {
        render(seats);
        const asked = askedSeat(); // a reload in the middle of a walk-through
        if (asked !== null && seats.has(asked) && !lesson) learn(asked);
      });
    }
  }

  /** The analysis so far: how many moves are judged, and the graph of those (the
   * server sends them in the game's order, so the first costly moves show first). */
  function showProgress(state) {
    if (!progress) {
      clear(body);
      progress = { line: h("p", { "data-testid": "analysis-progress", "aria-live": "polite" }),
        bar: h("progress", { "aria-label": t("Analysis progress"), "data-testid": "analysis-progress-bar" }) };
      body.append(progress.line, progress.bar);
    }
    const total = state.total || 0;
    progress.line.textContent = total ? tn("Analysing… {done} of {n} move judged", "Analysing… {done} of {n} moves judged", total, { done: state.done }) : t("Analysing…");
    progress.bar.max = total || 1;
    progress.bar.value = state.done || 0;
    const judged = state.partial && state.partial.seats.some((seat) => seat.moves.length);
    if (!judged) return;
    if (plot) plot.update(state.partial, true);
    else body.append(plotOf(state.partial, true));
  }

  function plotOf(analysis, partial) {
    plot = graph({ analysis, mod, names: players, steps: frames.length - 1, frameOf: moveFrame, go, choose, partial });
    plot.moveTo(currentFrame);
    return plot;
  }

  function moveFrame(move) {
    return move.frame ?? move.index + 1;
  }

  function render(seats) {
    const focused = plot?.contains(document.activeElement);
    progress = null;
    clear(body);
    const scale = shown.scale;
    detail = h("p", { class: "analysis-detail", "data-testid": "analysis-detail" });
    if (plot) plot.update(shown, false);
    body.append(plot || plotOf(shown, false),
      h("div", { class: "analysis-seats" }, ...shown.seats.map((seat) => seatCard(seat, scale, seats.has(seat.seat)))),
      ...[hindsightLine(shown, besides)].filter(Boolean), detail);
    if (focused) plot.focusGraph(); // it was stepped through by keyboard while the analysis ran
    showFrame(currentFrame);
  }

  function seatCard(seat, scale, mine) {
    const marked = seat.moves.filter((m) => m.mark);
    const name = players[seat.seat] || t("Seat {n}", { n: seat.seat + 1 });
    const dot = h("span", { class: "dot", "aria-hidden": "true" });
    dot.style.background = seatFill(mod, seat.seat, shown.seats.length); // CSSOM: the page's CSP allows no inline style
    return h("div", { class: "analysis-seat", "data-testid": `analysis-seat-${seat.seat}` },
      h("h3", {}, dot, name),
      h("p", {}, t("Accuracy {accuracy} % · average loss {loss} {unit}", { accuracy: formatNumber(seat.accuracy, 1), loss: fmt(seat.average_loss, scale), unit: unitName(scale) })),
      h("p", { class: "muted", "data-testid": `analysis-counts-${seat.seat}` }, markCounts(seat)),
      mine && marked.length ? h("button", { class: "btn primary learn-start", "data-testid": `learn-${seat.seat}`, onclick: () => learn(seat.seat) }, t("Learn from your mistakes")) : null,
      ...moveLists(seat, marked, scale));
  }

  /** Walk through ``seat``'s marked moves in place of the replay (analysis_learn.js). */
  function learn(seat) {
    if (lesson || !markedMoves(shown, seat).length) return;
    closeCompare();
    const host = el.parentElement;
    const parts = [...host.children];
    lesson = new Lesson({ gameId, mod, players, analysis: shown, seat, host, parts, hold, reveal: bringIntoView, onLeave: () => {
      lesson = null;
      const button = el.querySelector(`[data-testid="learn-${seat}"]`);
      bringIntoView(button || el);
      focusOn(button);
    } });
  }

  /** The seat's costliest moves, then (folded away: a phone's screen is short) every
   * other marked one. */
  function moveLists(seat, marked, scale) {
    const costliest = seat.costliest.map((index) => seat.moves.find((m) => m.index === index)).filter((m) => m && m.mark);
    const rest = marked.filter((m) => !costliest.includes(m));
    const list = (moves) => h("ul", { class: "analysis-moves" }, ...moves.map((move) => h("li", {},
      h("button", { class: `btn small ghost mark-${move.mark}`, "data-testid": `analysis-move-${move.index}`, onclick: () => choose(moveFrame(move)) },
        `${MARK_SIGNS[move.mark]} ${capitalise(moveLabel(move))}: ${moveWords(move, "played")} (−${fmt(move.loss, scale)})`))));
    return [
      costliest.length ? list(costliest) : null,
      rest.length ? h("details", { class: "analysis-more" }, h("summary", {}, tn("{n} more marked move", "{n} more marked moves", rest.length)), list(rest)) : null,
    ].filter(Boolean);
  }

  let currentFrame = 0;
  function showFrame(frame) {
    currentFrame = frame;
    plot?.moveTo(frame); // the partial graph too
    if (!shown || !detail) return;
    const scale = shown.scale;
    const moves = shown.seats.flatMap((seat) => seat.moves.map((m) => ({ ...m, seat: seat.seat }))).filter((m) => moveFrame(m) === frame);
    clear(detail);
    closeCompare();
    for (const move of moves) {
      const name = players[move.seat] || t("Seat {n}", { n: move.seat + 1 });
      const played = moveWords(move, "played");
      const words = move.played === move.best
        ? t("{name} played {played} ({value}): the best move found.", { name, played, value: fmt(move.value_played, scale) })
        : t("{name} played {played} ({value}); best was {best} ({bestValue}).", { name, played, value: fmt(move.value_played, scale), best: moveWords(move, "best"), bestValue: fmt(move.value_best, scale) });
      detail.append(h("span", { class: move.mark ? `mark-${move.mark}` : "" }, move.mark ? `${MARK_WORDS()[move.mark]}: ${words} ` : `${words} `));
      if (move.played !== move.best) {
        detail.append(h("button", { class: "btn small", "data-testid": `show-best-${move.index}`, onclick: () => showBoth(move) }, t("Show both boards")));
      }
    }
  }

  let compare = null; // the open comparison: {el, close}
  function closeCompare() {
    compare?.close();
    compare = null;
  }

  /** The board after the move played beside the board after the best move, each with
   * the move's tile marked (``comparison``); it opens in view. */
  async function showBoth(move) {
    let data;
    try {
      data = await api(`${url}/${move.index}`);
    } catch (err) {
      toast(err.message, "error");
      return;
    }
    closeCompare();
    compare = comparison(mod, data, move, players, closeCompare);
    detail.after(compare.el);
    bringIntoView(compare.el);
  }

  /** A mark chosen (in a seat's list or on the graph): the replay steps there and the
   * detail comes into view, at the top of a phone's screen with the board under it. */
  function choose(frame) {
    go(frame);
    if (detail) bringIntoView(detail);
  }

  poll();
  return { el, showFrame, destroy: () => { clearTimeout(timer); closeCompare(); lesson?.close(); } };
}

/** The best game with hindsight: its score and, where the analysis kept the game (its
 * record), a button that shows it under your board, stepped with your game. */
function hindsightLine(analysis, besides) {
  const best = analysis.hindsight;
  if (!best) return null;
  const replay = best.record && besides
    ? h("button", { class: "btn small", "data-testid": "replay-hindsight", onclick: () => besides("hindsight") }, t("Replay the hindsight game"))
    : null;
  return h("p", { class: "analysis-hindsight", "data-testid": "analysis-hindsight" },
    t("With hindsight, the best this deal allowed: {score}.", { score: best.score }), " ", replay);
}

/** Whether the page lays out in one column (a phone): the comparison shows one board at a time. */
function narrow() {
  return window.matchMedia("(max-width: 900px)").matches;
}

/** ``el`` in view: on a phone at the top of the screen, under the sticky top bar (what
 * follows it below); on a wide screen scrolled the least. */
function bringIntoView(el) {
  if (!narrow()) {
    el.scrollIntoView({ block: "nearest" });
    return;
  }
  const bar = document.querySelector(".topbar");
  // below the top bar where it stays on screen (a phone's NMBR 9 page lets it scroll away)
  const top = bar && getComputedStyle(bar).position === "sticky" ? bar.getBoundingClientRect().bottom : 0;
  window.scrollBy(0, el.getBoundingClientRect().top - top - 8); // instant: a tap during a smooth scroll would count as a drag
}


/** The comparison of a move ``data`` (GET …/analysis/{index}: {seat, played, best}, each
 * {action, view}): two boards of the game's own drawing, titled "Played: …" and
 * "Best: …", each given the move as ``highlight`` to mark. A game whose board marks it
 * (``mod.marksMoves``) shows the move there: no players panel (the replay below has it);
 * another keeps its players panel, where the move may show (a hand). Side by side on a
 * wide screen; on a phone one at a time behind a Played / Best switch (shell.css). */
export function comparison(mod, data, move, players, onClose) {
  const seatName = (seat) => players[seat] || t("Seat {n}", { n: seat + 1 });
  const boards = [];
  const column = (key, title, side) => {
    const slots = { side: h("div"), main: h("div"), players: h("div"), controls: h("div"), notices: h("div") };
    const board = mod.createBoard(slots, { readOnly: true, act: () => {}, seatName });
    boards.push(board);
    const view = side.view;
    const count = mod.seatCount ? mod.seatCount(view) : (view.seats || players).length;
    const seats = Array.from({ length: count }, (_, seat) => ({ seat, name: seatName(seat), kind: "human", bot: null, online: true }));
    const shown = h("div", { class: `analysis-board ${key}`, "data-testid": `compare-${key}` }, h("h3", {}, title), slots.main, mod.marksMoves ? null : slots.players);
    board.update({ type: "state", game: { id: null, type: mod.name, title: "", seats }, ply: 0, to_move: null, active: [], over: false, you: [],
      acting: null, thinking: null, view, choices: [], log: [], result: null, undo: false, record: null,
      highlight: { seat: data.seat, action: side.action } });
    return shown;
  };
  const played = column("played", t("Played: {action}", { action: moveWords(move, "played") }), data.played);
  const best = column("best", t("Best: {action}", { action: moveWords(move, "best") }), data.best);
  const el = h("div", { class: "analysis-compare", "data-testid": "analysis-compare", "data-show": "played" });
  const pick = (key) => h("button", { type: "button", class: key === "played" ? "on" : "", "data-testid": `compare-show-${key}`, "aria-pressed": key === "played" ? "true" : "false",
    onclick: (e) => {
      el.dataset.show = key;
      for (const b of e.currentTarget.parentElement.children) {
        b.setAttribute("aria-pressed", String(b === e.currentTarget));
        b.classList.toggle("on", b === e.currentTarget);
      }
    } }, key === "played" ? t("Played") : t("Best"));
  el.append(h("div", { class: "analysis-compare-head" },
    h("div", { class: "seg analysis-switch", role: "group", "aria-label": t("Board to show") }, pick("played"), pick("best")),
    h("button", { class: "btn small ghost", "data-testid": "compare-close", onclick: onClose }, t("Close"))),
  played, best);
  return {
    el,
    close() {
      for (const board of boards) board.destroy?.();
      el.remove();
    },
  };
}
