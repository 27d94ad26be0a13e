// NMBR 9 for the shell: your board (a grid that pans and zooms, the tile to place as a
// ghost that snaps to it), the cards, the other boards, move descriptions and the result;
// the lobby's part comes from intro.js. Styles: intro.css and board.css.
//
// Every seat places the same tile at once: the server's choices are the legal
// placements ("r<rotation>@x,y", x,y the top-left of the turned tile's bounding box);
// a small check of the rules here says why a spot is not among them.
import { announce } from "../../shell/announce.js";
import { capitalise } from "../../shell/api.js";
import { durationWords, listNames, t, tn, tp } from "../../shell/i18n.js";
import { botBadge, clear, focusLost, focusName, focusOn, h, ordinal, refocus, rove, s, touchScreen } from "../../shell/util.js";
import intro, { canonicalRotation, seatColor, shapeCells } from "./intro.js";

const NEIGHBOURS = [[1, 0], [-1, 0], [0, 1], [0, -1]];
const MIN_SCALE = 12; // pixels a square
const MAX_SCALE = 96; // zoomed in: a finger's pinch lands well inside a square
const FIT_SCALE = 43; // the largest square a fit gives (a new board's few tiles)
const FINGER_SCALE = 28; // the smallest square a fit gives on a touch screen: a finger can aim at it

function parseAction(action) {
  const m = /^r(\d)@(-?\d+),(-?\d+)$/.exec(action || "");
  return m ? { rot: Number(m[1]), x: Number(m[2]), y: Number(m[3]) } : null;
}

/** The squares of the tile a move laid (a state's ``highlight``: {seat, action}) on the
 * seat's board, the newest tile there that the placement names; null if none is. */
function placedCells(tiles, highlight) {
  const p = highlight ? parseAction(highlight.action) : null;
  if (!p) return null;
  const laid = tiles.filter((t) => t.x === p.x && t.y === p.y && canonicalRotation(t.digit, t.rotation) === canonicalRotation(t.digit, p.rot));
  const tile = laid[laid.length - 1];
  return tile ? shapeCells(tile.digit, tile.rotation).map(([dx, dy]) => [tile.x + dx, tile.y + dy]) : null;
}

/** Squares of a board: "x,y" -> {h: level + 1, tile: index} of the top tile there. */
function heights(tiles) {
  const map = new Map();
  tiles.forEach((t, i) => {
    for (const [dx, dy] of shapeCells(t.digit, t.rotation)) map.set(`${t.x + dx},${t.y + dy}`, { h: t.level + 1, tile: i });
  });
  return map;
}

/** Why the tile ``digit`` turned ``rot`` at ``x,y`` may not go on ``tiles`` (null: it
 * may, as far as this check goes), and the level it would lie on — the rules of
 * RULES.md as the server's Board.check applies them. */
export function checkSpot(tiles, digit, rot, x, y) {
  if (!tiles.length) return { level: 0, why: null };
  const squares = heights(tiles);
  const cells = shapeCells(digit, rot).map(([dx, dy]) => [x + dx, y + dy]);
  const under = cells.map(([cx, cy]) => squares.get(`${cx},${cy}`) || { h: 0, tile: -1 });
  const level = Math.max(...under.map((u) => u.h));
  if (under.some((u) => u.h !== level)) {
    if (under.some((u) => u.h === 0)) return { level, why: t("overhangs: a square has nothing under it") };
    return { level, why: t("not flat: its squares lie on different levels") };
  }
  if (level > 0 && new Set(under.map((u) => u.tile)).size === 1) {
    return { level, why: t("rests on one tile: a tile above the table must rest on at least two") };
  }
  const levels = Math.max(0, ...[...squares.values()].map((u) => u.h));
  if (level < levels) {
    const own = new Set(cells.map((c) => c.join(",")));
    const touching = cells.some(([cx, cy]) => NEIGHBOURS.some(([dx, dy]) => {
      const key = `${cx + dx},${cy + dy}`;
      return !own.has(key) && (squares.get(key)?.h || 0) > level;
    }));
    if (!touching) return { level, why: t("does not touch level {level}: it must share an edge with one of your tiles there", { level }) };
  }
  return { level, why: null };
}

/** The box around squares [[x, y], …]: {x0, y0, x1, y1}, x1 and y1 beyond the last. */
function cellBounds(cells) {
  const xs = cells.map((c) => c[0]);
  const ys = cells.map((c) => c[1]);
  return { x0: Math.min(...xs), y0: Math.min(...ys), x1: Math.max(...xs) + 1, y1: Math.max(...ys) + 1 };
}

function bounds(tiles) {
  if (!tiles.length) return { x0: 0, y0: 0, x1: 4, y1: 4 };
  let x0 = Infinity; let y0 = Infinity; let x1 = -Infinity; let y1 = -Infinity;
  for (const t of tiles) {
    for (const [dx, dy] of shapeCells(t.digit, t.rotation)) {
      x0 = Math.min(x0, t.x + dx); y0 = Math.min(y0, t.y + dy);
      x1 = Math.max(x1, t.x + dx + 1); y1 = Math.max(y1, t.y + dy + 1);
    }
  }
  return { x0, y0, x1, y1 };
}

/** The outline of a set of squares (edges with no square of the set beyond), as a path. */
function outline(cells) {
  const own = new Set(cells.map((c) => c.join(",")));
  let d = "";
  for (const [x, y] of cells) {
    if (!own.has(`${x},${y - 1}`)) d += `M${x} ${y}h1`;
    if (!own.has(`${x + 1},${y}`)) d += `M${x + 1} ${y}v1`;
    if (!own.has(`${x},${y + 1}`)) d += `M${x} ${y + 1}h1`;
    if (!own.has(`${x - 1},${y}`)) d += `M${x} ${y}v1`;
  }
  return d;
}

/** The square of a tile its digit is written on: the one nearest the middle. */
function labelCell(cells) {
  const mx = cells.reduce((a, c) => a + c[0], 0) / cells.length;
  const my = cells.reduce((a, c) => a + c[1], 0) / cells.length;
  let best = cells[0];
  let bestD = Infinity;
  for (const c of cells) {
    const d = (c[0] + 0.5 - mx - 0.5) ** 2 + (c[1] + 0.5 - my - 0.5) ** 2;
    if (d < bestD - 1e-9) { best = c; bestD = d; }
  }
  return best;
}

/** One tile drawn in square units: its shadow (deeper the higher it lies), its squares
 * shaded by level, its outline, the digit and (above the table) the level number. */
function drawTile(t, cls = "") {
  const cells = shapeCells(t.digit, t.rotation).map(([dx, dy]) => [t.x + dx, t.y + dy]);
  const g = s("g", { class: `n9-tile lv-${Math.min(t.level, 4)} ${cls}` });
  const lift = 0.06 + 0.07 * t.level;
  const shadow = s("g", { class: "n9-shadow", transform: `translate(${lift} ${lift})` });
  const face = s("g", { class: "n9-face" });
  for (const [x, y] of cells) {
    shadow.append(s("rect", { x, y, width: 1, height: 1 }));
    face.append(s("rect", { x, y, width: 1, height: 1 }));
  }
  const [lx, ly] = labelCell(cells);
  g.append(shadow, face, s("path", { class: "n9-edge", d: outline(cells) }),
    s("text", { class: "n9-digit", x: lx + 0.5, y: ly + 0.56 }, String(t.digit)));
  if (t.level > 0) {
    // the level in another square of the tile (the digit has its own)
    const [bx, by] = cells.find(([x, y]) => x !== lx || y !== ly) || [lx, ly];
    g.append(s("text", { class: "n9-level", x: bx + 0.5, y: by + 0.56 }, levelMark(t.level)));
  }
  return g;
}

/** The level printed on a tile above the table: "L2" (German "E2", Dutch "N2"). */
function levelMark(level) {
  return t("L{level}", { level });
}

/** A whole board, fitted into its own box (minis and the end screen). */
function boardPicture(tiles, label, testid) {
  const b = bounds(tiles);
  const pad = 0.5;
  const svg = s("svg", {
    class: testid.startsWith("end-") ? "n9-mini-svg n9-end-svg" : "n9-mini-svg", role: "img", "aria-label": label, "data-testid": testid,
    viewBox: `${b.x0 - pad} ${b.y0 - pad} ${b.x1 - b.x0 + 2 * pad} ${b.y1 - b.y0 + 2 * pad}`,
  });
  [...tiles].sort((a, c) => a.level - c.level).forEach((t) => svg.append(drawTile(t)));
  if (!tiles.length) svg.append(s("text", { class: "n9-empty", x: 2, y: 2.2 }, t("no tiles")));
  return svg;
}

const signed = (n) => (n < 0 ? `−${-n}` : String(n));

/** A spot as the page names it to keyboard users: the column and row of the top-left
 * corner of the tile's box, counted from your first tile's (the server's x, y). */
export function spotName(x, y) {
  return t("column {x}, row {y}", { x: signed(x), y: signed(y) });
}

/** "Round 5, the 7: you placed it at column 3, row −2, on level 2, turned 90°; Greedy
 * placed it at …": a resolved round, for the log and the screen reader alike (``isYou``:
 * the seat is the reader's, said to them; ``total``: the replay's "Round 5 of 20"). */
function roundSentence(r, name, isYou = () => false, total = null) {
  const parts = (r.placements || []).map((p, seat) => {
    if (!p) return null;
    const args = { name: name(seat), spot: spotName(p.x, p.y), level: p.level };
    const placed = isYou(seat) ? tp("you", "you placed it at {spot}, on level {level}", args) : t("{name} placed it at {spot}, on level {level}", args);
    return p.rotation ? t("{placed}, turned {degrees}°", { placed, degrees: p.rotation * 90 }) : placed;
  });
  const args = { n: r.round + 1, total, card: r.card, placements: parts.filter(Boolean).join("; ") };
  return total ? t("Round {n} of {total}, the {card}: {placements}", args) : t("Round {n}, the {card}: {placements}", args);
}

function levelRows(tiles) {
  const rows = new Map();
  for (const t of tiles) {
    const r = rows.get(t.level) || { tiles: 0, points: 0 };
    r.tiles += 1;
    r.points += t.digit * t.level;
    rows.set(t.level, r);
  }
  return [...rows.entries()].sort((a, b) => a[0] - b[0]);
}

function describeBoard(tiles) {
  if (!tiles.length) return t("no tiles yet");
  return levelRows(tiles).map(([level, r]) => (level
    ? tn("level {level}: {n} tile, {points} points", "level {level}: {n} tiles, {points} points", r.tiles, { level, points: r.points })
    : tn("level {level}: {n} tile", "level {level}: {n} tiles", r.tiles, { level }))).join("; ");
}

const nmbr9 = {
  ...intro,
  /** Your pending tile of this round, or (against bots) your tile of the last round. */
  undoLabel(state) {
    return state.undo_unrates === false ? t("Take back") : t("Take back last tile");
  },
  get undoDone() {
    return t("Your tile was taken back");
  },

  optionsFromState() {
    return {};
  },

  turnKey(state) {
    return state.view.over ? "over" : state.view.round;
  },

  /** Worded for the input the player has: taps on a touch screen, keys elsewhere. */
  turnPrompt(state) {
    const card = state.view.card;
    if (touchScreen()) return t("Place the {card}: tap your board where it goes, turn it with ⟳ Turn, then Confirm.", { card });
    return t("Place the {card}: move the ghost tile over your board, turn it (R), then Confirm (Enter).", { card });
  },

  waitPrompt(state) {
    const v = state.view;
    if (v.pending) return t("You placed your {card}: you may take it back until everyone has placed.", { card: v.card });
    return "";
  },

  waitSentence(state, name) {
    const others = state.active.map(name);
    return t("Waiting for {name}", { name: listNames(others) });
  },

  describeAction(state, action) {
    const p = parseAction(action);
    if (!p) return action;
    const card = state.view.card;
    const seat = state.acting ?? state.you[0];
    const tiles = seat === undefined || seat === null ? null : state.view.boards[seat].tiles;
    const spot = spotName(p.x, p.y); // the board outlines it too
    if (!tiles) return t("place the {card} at {spot}", { card, spot });
    // the level as the rules give it (a socket's state may leave the choices out)
    const { level } = checkSpot(tiles, card, p.rot, p.x, p.y);
    return t("place the {card} at {spot}, on level {level} ({points} points)", { card, spot, level, points: card * level });
  },

  seatCount(view) {
    return view.players;
  },

  bannerTitle(state) {
    const v = state.view;
    return v.over ? t("Game over") : t("{i} of {n} rounds played", { i: v.round, n: v.rounds });
  },

  /** The log's rows for one entry: the placement that resolved a round, then the round
   * (every seat's placement) as a row of its own, which also says when the game ended. */
  logRows(entry) {
    if (!entry.resolved) return [entry];
    const { resolved, over, ...placed } = entry;
    return [{ ...placed, text: "" }, { ...resolved, over: over || (entry.text || "").endsWith("the game is over") }];
  },

  logText(entry, name) {
    return h("span", {}, ...this.logWords(entry, name).map((w) => {
      const text = w.sep ? ` · ${w.text}` : w.text;
      return w.cls ? h("span", { class: w.cls }, text) : text;
    }));
  },

  /** The log's words for a screen reader ("placed the 7; round 3 complete"; the shell
   * puts the player's name, or "You", before it: ``you``, words said to that player). */
  moveSentence(entry, name, you = false) {
    return this.logWords(entry, name, you).map((w) => (w.sep ? t("; {part}", { part: w.text }) : w.text)).join("");
  },

  logWords(entry, name = (seat) => t("Seat {n}", { n: seat + 1 }), you = false) {
    if (entry.kind === "round") { // a resolved round (``logRows``), or a replay's step
      const words = [{ text: roundSentence(entry, name), cls: "log-where" }];
      if (entry.over) words.push({ text: t("game over"), cls: "muted", sep: true });
      return words;
    }
    const card = entry.card;
    if (entry.kind === "take-back") return [{ text: you ? tp("you", "took back the {card}", { card }) : t("took back the {card}", { card }) }];
    let placed;
    if (entry.by === "clock") placed = you ? tp("you", "ran out of time: the {card} was placed for them", { card }) : t("ran out of time: the {card} was placed for them", { card });
    else placed = you ? tp("you", "placed the {card}", { card }) : t("placed the {card}", { card });
    const words = [{ text: placed }];
    if (entry.resolved) words.push({ text: roundSentence(entry.resolved, name), cls: "log-where", sep: true });
    if (entry.over || (entry.text || "").endsWith("the game is over")) words.push({ text: t("game over"), cls: "muted", sep: true });
    return words;
  },

  /** What a screen reader hears of a log entry (``isYou``: the reader's own seat): the
   * round's sentence of the log when the entry resolves a round, once, short. */
  announceEntry(entry, name, isYou) {
    const you = isYou(entry.seat);
    const who = you ? t("You") : name(entry.seat);
    if (!entry.resolved) return t("{name} {action}", { name: who, action: this.moveSentence(entry, name, you) });
    const card = entry.card;
    let clock = "";
    if (entry.by === "clock") clock = you ? tp("you", "You ran out of time: the {card} was placed for you.", { card }) : t("{name} ran out of time: the {card} was placed for them.", { name: who, card });
    const round = roundSentence(entry.resolved, name, isYou);
    return clock ? `${clock} ${round}` : round;
  },

  /** The replay's words for one step (a round): "Round 3 of 20, the 7: Ann placed it …". */
  replaySentence(entry, name, total) {
    return entry.kind === "round" ? roundSentence(entry, name, () => false, total) : null;
  },

  resultHeadline(state, name) {
    const r = state.result || state.view.result;
    if (!r) return t("Game over");
    if (r.scores.length === 1) return t("Score: {score}", { score: r.scores[0] });
    const best = r.ranking.filter((seat) => r.ranks[seat] === r.ranks[r.ranking[0]]);
    if (best.length > 1) return t("{names} share first place", { names: listNames(best.map(name)) });
    return t("{name} wins with {score}", { name: name(best[0]), score: r.scores[best[0]] });
  },

  /** The end screen's body: by how much the winner won, each player's points level by
   * level and in all (the ranking), and every board large enough to read. */
  resultView(state, name) {
    const r = state.result || state.view.result;
    if (!r) return h("p", {}, t("The game is over."));
    const boards = state.view.boards;
    const points = boards.map((board) => new Map(levelRows(board.tiles)));
    const top = Math.max(0, ...boards.flatMap((board) => board.tiles.map((tile) => tile.level)));
    const levels = Array.from({ length: top }, (_, i) => i + 1);
    const rows = r.ranking.map((seat, i) => {
      const c = seatColor(seat);
      return h("tr", { "data-testid": `rank-${i + 1}` },
        h("td", { class: "rank" }, r.ranks[seat] === 1 ? h("span", { class: "star" }, "★") : ordinal(r.ranks[seat])),
        h("td", { class: "rank-name" }, h("span", { class: "disc small", style: { "--disc": c.fill, "--ink": c.ink } }), " ", h("strong", { title: name(seat) }, name(seat))),
        ...levels.map((level) => h("td", { class: "num n9-level-points", "data-testid": `end-level-${seat}-${level}` }, String(points[seat].get(level)?.points ?? 0))),
        h("td", { class: "num n9-total", "data-testid": `end-total-${seat}` }, String(r.scores[seat])));
    });
    return h("div", { class: "result n9-result", "data-testid": "result" },
      marginLine(r, name),
      h("div", { class: "n9-ranking-wrap" }, h("table", { class: "ranking n9-ranking" },
        h("caption", { class: "visually-hidden" }, t("Points by level")),
        h("thead", {}, h("tr", {}, h("th", {}, h("span", { class: "visually-hidden" }, t("Rank"))), h("th", {}, t("Player")),
          ...levels.map((level) => h("th", { class: "num" }, h("abbr", { title: t("Level {level}", { level }) }, levelMark(level)))),
          h("th", { class: "num" }, t("Score")))),
        h("tbody", {}, rows))),
      h("div", { class: "n9-end-boards" }, ...r.ranking.map((seat) => h("figure", { class: "n9-end-board", "data-testid": `end-board-${seat}` },
        boardPicture(boards[seat].tiles, t("{name}'s board: {tiles}", { name: name(seat), tiles: describeBoard(boards[seat].tiles) }), `end-board-svg-${seat}`),
        h("figcaption", {}, h("strong", {}, name(seat)), ` · ${r.scores[seat]}`)))));
  },

  /** The result to share, after the headline: a line a player, "1. Ann: 87 (L1 23 · L2 40)". */
  shareLines(state, name) {
    const r = state.result || state.view.result;
    if (!r) return [];
    return r.ranking.map((seat) => {
      const levels = levelRows(state.view.boards[seat].tiles).filter(([level]) => level > 0)
        .map(([level, row]) => `${levelMark(level)} ${row.points}`).join(" · ");
      const line = t("{rank}. {name}: {score}", { rank: r.ranks[seat], name: name(seat), score: r.scores[seat] });
      return levels ? `${line} (${levels})` : line;
    });
  },

  createBoard(slots, ctx) {
    return new Board(slots, ctx);
  },

  /** The board marks a state's ``highlight`` (the tile a move laid): the analysis's
   * comparison needs no players panel beside it. */
  marksMoves: true,
};

/** How far the winner is ahead of the next player: "Ann wins by 12 points (87 to 75)";
 * nothing for a solo game or a shared first place. */
function marginLine(r, name) {
  if (r.ranking.length < 2) return null;
  const [first, second] = r.ranking;
  const margin = r.scores[first] - r.scores[second];
  if (margin <= 0 || r.ranks[second] === r.ranks[first]) return null;
  return h("p", { class: "n9-margin", "data-testid": "margin" }, tn("{name} wins by {n} point ({score} to {other})", "{name} wins by {n} points ({score} to {other})", margin,
    { name: name(first), score: r.scores[first], other: r.scores[second] }));
}

let boardsMade = 0; // each board's ids its own (the analysis draws two beside the replay's)

class Board {
  constructor(slots, ctx) {
    this.slots = slots;
    this.ctx = ctx;
    this.statusId = `n9-status-${++boardsMade}`;
    this.state = null;
    this.choices = new Map(); // action -> level
    this.choicesRound = null;
    this.ghost = null; // {rot, x, y}
    this.pinned = false;
    this.hint = null;
    this.highlight = null; // a move to mark: {seat, action} (the analysis's boards)
    this.viewSeat = null; // whose board the main view shows (null: your own)
    this.view = null; // {cx, cy, scale}
    this.pointers = new Map();

    // the card and the cards to come
    this.cardBox = h("div", { class: "n9-cards", "data-testid": "cards" });
    slots.side.append(this.cardBox);

    // controls: rotate, confirm; zoom
    this.rotateBtn = h("button", { class: "btn", type: "button", "data-testid": "rotate", "aria-label": t("Turn the tile (R)"), title: t("Turn the tile (R)"), onclick: () => this.rotate(1) }, t("⟳ Turn"));
    this.confirmBtn = h("button", { class: "btn primary", type: "button", "data-testid": "confirm", onclick: () => this.confirm() }, t("Confirm"));
    this.placeControls = h("div", { class: "row n9-place-controls", hidden: true }, this.rotateBtn, this.confirmBtn);

    // the main board
    this.heading = h("h2", { class: "n9-board-title", "data-testid": "board-title" });
    this.backBtn = h("button", { class: "btn small ghost", type: "button", "data-testid": "own-board", hidden: true, onclick: () => this.showSeat(null) }, t("Back to your board"));
    this.status = h("p", { class: "n9-status", id: this.statusId, "data-testid": "ghost-status" });
    this.svg = s("svg", { class: "n9-board-svg", "aria-hidden": "true" });
    this.surface = h("div", {
      class: "n9-surface", tabindex: "0", role: "group", "data-testid": "board",
      "aria-describedby": this.statusId,
    }, this.svg);
    const zoom = (label, testid, f, text) => h("button", { class: "btn small icon", type: "button", "data-testid": testid, title: label, "aria-label": label, onclick: f }, text);
    this.zoomBar = h("div", { class: "n9-zoom" },
      zoom(t("Zoom in (+)"), "zoom-in", () => this.zoomBy(1.25), "+"),
      zoom(t("Zoom out (−)"), "zoom-out", () => this.zoomBy(0.8), "−"),
      zoom(t("Fit the board (0)"), "zoom-fit", () => this.fit(true), "⤢"));
    this.levelBox = h("div", { class: "n9-levels", "data-testid": "level-scores" });
    // on a narrow screen (the cards below the board) the card to place, with the board
    this.strip = h("div", { class: "n9-strip", "data-testid": "card-strip", hidden: true });
    this.card = h("section", { class: "card n9-board-card" },
      h("div", { class: "n9-board-head" }, this.strip, this.heading, this.backBtn),
      h("div", { class: "n9-surface-wrap" }, this.surface, this.zoomBar),
      this.status, this.placeControls, this.levelBox);
    slots.main.append(this.card);

    this.playersBox = h("section", { class: "card n9-players", "data-testid": "players" });
    slots.players.append(this.playersBox);

    // on a narrow screen the board comes first, its buttons (in the card panel) next
    slots.main.closest(".game")?.classList.add("n9-game");
    this.bindSurface();
    this.resizer = new ResizeObserver(() => {
      // fitted while hidden (no size): fitted again now that the board is shown
      if (this.fittedBlind && !this.userView && this.surface.clientWidth) this.view = null;
      this.drawBoard();
    });
    this.resizer.observe(this.surface);
  }

  destroy() {
    clearInterval(this.ticker);
    this.resizer.disconnect();
  }

  mySeat() {
    const st = this.state;
    if (!st || this.ctx.readOnly) return null;
    if (st.acting !== null && st.acting !== undefined) return st.acting;
    return st.you.length ? st.you[0] : null;
  }

  shownSeat() {
    const mine = this.mySeat();
    if (this.viewSeat !== null) return this.viewSeat;
    return mine !== null ? mine : 0;
  }

  placing() {
    return this.myTurn() && this.viewSeat === null;
  }

  /** A tile of yours to place this round, whichever board is shown. */
  myTurn() {
    const st = this.state;
    return !!st && !this.ctx.readOnly && st.acting !== null && st.acting !== undefined && !st.over;
  }

  update(state) {
    const previous = this.state;
    this.state = state;
    // a move to mark: its seat's board, fitted afresh around it
    this.highlight = state.highlight || null;
    if (this.highlight && this.viewSeat !== this.highlight.seat) {
      this.viewSeat = this.highlight.seat;
      this.view = null;
    }
    const round = state.view.round;
    if (state.choices !== null && state.choices !== undefined) {
      this.choices = new Map(state.choices.map((c) => [c.action, c.level]));
      this.choicesRound = `${round}/${state.acting}`;
    }
    // a new round brings your own board back (another one was only looked at)
    if (previous && previous.view.round !== round && !this.ctx.readOnly && this.mySeat() !== null) this.viewSeat = null;
    // looking at another board keeps your ghost: a state arriving meanwhile (another
    // seat placed) dropped it, and your own board came back without it until next round
    if (!this.myTurn()) {
      this.ghost = null;
      this.pinned = false;
    } else if (!this.ghost || !previous || previous.view.round !== round || previous.acting !== state.acting) {
      // placing again in the round after a take-back: the tile comes back where it was
      const back = this.placed && this.placed.round === round && this.placed.seat === state.acting ? this.placed : null;
      this.ghost = back ? { rot: back.rot, x: back.x, y: back.y } : this.startGhost();
      this.pinned = back !== null;
      this.hint = null;
    }
    // refit to the grown board, unless the player panned or zoomed
    if (previous && previous.view.round !== round && this.viewSeat === null && !this.userView) this.view = null;
    this.render();
  }

  myTiles() {
    const seat = this.mySeat();
    return seat === null ? [] : this.state.view.boards[seat].tiles;
  }

  /** ``g`` moved back to a square off your board at most (no legal spot lies further):
   * arrow keys and the pointer cannot lose the ghost in empty space. */
  nearBoard(g) {
    const tiles = this.myTiles();
    if (!tiles.length) return g;
    const b = bounds(tiles);
    const cells = shapeCells(this.state.view.card, g.rot);
    const w = 1 + Math.max(...cells.map((c) => c[0]));
    const hh = 1 + Math.max(...cells.map((c) => c[1]));
    const x = Math.min(Math.max(g.x, b.x0 - w - 1), b.x1 + 1);
    const y = Math.min(Math.max(g.y, b.y0 - hh - 1), b.y1 + 1);
    return { ...g, x, y };
  }

  /** Where the ghost begins: a legal spot near the middle of your board, turned 0. */
  startGhost() {
    const tiles = this.myTiles();
    const b = bounds(tiles);
    const mx = (b.x0 + b.x1) / 2;
    const my = (b.y0 + b.y1) / 2;
    let best = null;
    let bestD = Infinity;
    for (const action of this.choices.keys()) {
      const p = parseAction(action);
      if (!p) continue;
      const d = (p.x - mx) ** 2 + (p.y - my) ** 2 + p.rot * 0.01;
      if (d < bestD) { best = p; bestD = d; }
    }
    return best || { rot: 0, x: Math.round(mx) - 1, y: Math.round(my) - 2 };
  }

  /** Where the ghost is and whether it may go there, short: "Column 3, row −2: level 1". */
  spotSentence() {
    const j = this.judge();
    const why = j.legal ? "" : j.why.split(":")[0];
    if (!this.myTiles().length) return j.legal ? t("Level {level}", { level: j.level }) : t("Not here: {why}", { why });
    const spot = capitalise(spotName(this.ghost.x, this.ghost.y));
    return j.legal ? t("{spot}: level {level}", { spot, level: j.level }) : t("{spot}: not here, {why}", { spot, why });
  }

  /** The ghost's legality: {legal, level, why, action}. */
  judge(g = this.ghost) {
    const st = this.state;
    const digit = st.view.card;
    const tiles = this.myTiles();
    const rot = canonicalRotation(digit, g.rot);
    if (!tiles.length) {
      // the first tile goes anywhere: the board is where it lies (the server names it 0,0)
      const action = `r${rot}@0,0`;
      return { legal: this.choices.has(action), level: 0, why: null, action };
    }
    const action = `r${rot}@${g.x},${g.y}`;
    if (this.choices.has(action)) return { legal: true, level: this.choices.get(action), why: null, action };
    const check = checkSpot(tiles, digit, g.rot, g.x, g.y);
    return { legal: false, level: check.level, why: check.why || t("not a legal spot"), action };
  }

  // -- drawing ---------------------------------------------------------------------

  render() {
    const st = this.state;
    if (!st) return;
    const had = focusName(this.placeControls);
    this.renderCards(st);
    this.renderPlayers(st);
    const placing = this.placing();
    this.placeControls.hidden = !placing;
    const seat = this.shownSeat();
    const mine = this.mySeat();
    const name = this.ctx.seatName(seat);
    // hot-seat (several seats here): whose board it is, by name
    this.heading.textContent = seat === mine && mine !== null && st.you.length < 2 ? t("Your board") : t("{name}'s board", { name });
    this.backBtn.hidden = this.viewSeat === null || mine === null;
    this.surface.setAttribute("aria-label", placing
      ? t("Your board. Arrow keys move the {card}, R turns it, Enter confirms, plus and minus zoom. Columns and rows count from your first tile.", { card: st.view.card })
      : t("{board}: {tiles}. Arrow keys pan, plus and minus zoom.", { board: this.heading.textContent, tiles: describeBoard(st.view.boards[seat].tiles) }));
    this.renderLevels(st.view.boards[seat]);
    this.renderStrip(st);
    this.markLessonTarget();
    this.drawBoard();
    this.renderStatus();
    // Confirm pressed: its buttons hide; focus stays on the board
    if (had && !refocus(this.placeControls, had) && focusLost()) focusOn(this.surface);
  }

  renderStatus() {
    const st = this.state;
    if (this.ghost && this.placing()) {
      const j = this.judge();
      this.status.className = `n9-status ${j.legal ? "ok" : "bad"}`;
      this.status.textContent = j.legal
        ? (this.myTiles().length
          ? t("Here ({spot}): level {level}, {card} × {level} = {points} points. Confirm to place it.", { spot: spotName(this.ghost.x, this.ghost.y), level: j.level, card: st.view.card, points: st.view.card * j.level })
          : t("Here: level {level}, {card} × {level} = {points} points. Confirm to place it.", { level: j.level, card: st.view.card, points: st.view.card * j.level }))
        : t("Not here: {why}.", { why: j.why });
      // a mouse's ghost follows the pointer until a click pins it: say how to let it go
      if (this.pinned && !touchScreen()) this.status.textContent += " " + t("Pinned (solid outline): Esc lets it follow the pointer again.");
      this.confirmBtn.setAttribute("aria-disabled", j.legal || this.ctx.tutorial ? "false" : "true");
      this.confirmBtn.setAttribute("aria-describedby", this.statusId);
    } else if (st.over) {
      this.status.className = "n9-status";
      this.status.textContent = t("The game is over.");
    } else if (!this.ctx.readOnly && st.view.pending && this.viewSeat === null) {
      this.status.className = "n9-status";
      this.status.textContent = t("Your {card} is placed (dashed outline); the others do not see it until everyone has placed.", { card: st.view.card });
    } else {
      this.status.className = "n9-status";
      this.status.textContent = t("Drag to pan; the buttons or + and − zoom.");
    }
  }

  renderLevels(board) {
    clear(this.levelBox);
    const rows = levelRows(board.tiles);
    this.levelBox.append(h("table", { class: "n9-level-table" },
      h("thead", {}, h("tr", {}, h("th", {}, t("Level")), h("th", { class: "num" }, t("Tiles")), h("th", { class: "num" }, t("Points")))),
      h("tbody", {}, ...rows.map(([level, r]) => h("tr", {},
        h("td", {}, h("span", { class: `n9-swatch lv-${Math.min(level, 4)}`, "aria-hidden": "true" }), " ", level === 0 ? t("{level} (table)", { level }) : String(level)),
        h("td", { class: "num" }, String(r.tiles)),
        h("td", { class: "num" }, String(r.points))))),
      h("tfoot", {}, h("tr", {}, h("th", {}, t("Score")), h("td", {}), h("td", { class: "num", "data-testid": "board-score" }, String(board.score))))));
  }

  fit(user) {
    const tiles = this.state ? this.state.view.boards[this.shownSeat()].tiles : [];
    const b = bounds(this.withOutline(tiles));
    const { w, hgt } = this.viewSize();
    // the tiles and room for the next one around them; on a touch screen never a square
    // too small for a finger (what does not fit is panned to); a marked move is only
    // looked at: its whole board, as small as that takes
    const touch = touchScreen();
    const margin = touch ? 2 : 5;
    const least = touch && !this.highlight ? FINGER_SCALE : MIN_SCALE;
    const scale = Math.max(least, Math.min(FIT_SCALE, w / (b.x1 - b.x0 + 2 * margin), hgt / (b.y1 - b.y0 + 2 * margin)));
    this.view = { cx: (b.x0 + b.x1) / 2, cy: (b.y0 + b.y1) / 2, scale };
    this.fittedBlind = !this.surface.clientWidth;
    if (this.placing()) this.follow(); // the board larger than the view: the tile to place in it
    const marked = this.markedCells();
    if (marked) this.keepInView(cellBounds(marked)); // larger still: the marked tile in it
    if (user) {
      this.userView = false;
      this.drawBoard();
    }
  }

  /** The board's drawing area in pixels (inside the surface's border: the SVG's own size). */
  viewSize() {
    return { w: Math.max(this.surface.clientWidth, 100), hgt: Math.max(this.surface.clientHeight, 100) };
  }

  zoomBy(factor) {
    if (!this.view) this.fit(false);
    this.userView = true;
    this.view.scale = Math.max(MIN_SCALE, Math.min(MAX_SCALE, this.view.scale * factor));
    this.drawBoard();
  }

  viewBox() {
    const { w, hgt } = this.viewSize();
    if (!this.view) this.fit(false);
    this.clampView(w, hgt);
    const { cx, cy, scale } = this.view;
    return { x: cx - w / 2 / scale, y: cy - hgt / 2 / scale, w: w / scale, h: hgt / scale };
  }

  /** The squares the view must not lose: the shown board's, and the ghost's. */
  extent() {
    const tiles = this.state ? this.state.view.boards[this.shownSeat()].tiles : [];
    const b = bounds(this.withOutline(tiles));
    if (!this.ghost || !this.placing()) return b;
    const g = bounds([{ digit: this.state.view.card, rotation: this.ghost.rot, x: this.ghost.x, y: this.ghost.y }]);
    return { x0: Math.min(b.x0, g.x0), y0: Math.min(b.y0, g.y0), x1: Math.max(b.x1, g.x1), y1: Math.max(b.y1, g.y1) };
  }

  /** However far it is panned, two squares of the board's extent stay on screen. */
  clampView(w, hgt) {
    const b = this.extent();
    const v = this.view;
    const mx = Math.max(0, w / 2 / v.scale - 2);
    const my = Math.max(0, hgt / 2 / v.scale - 2);
    v.cx = Math.min(Math.max(v.cx, b.x0 - mx), b.x1 + mx);
    v.cy = Math.min(Math.max(v.cy, b.y0 - my), b.y1 + my);
  }

  /** Keep the ghost in view (after a keyboard move). */
  follow() {
    if (!this.ghost || !this.view) return;
    this.keepInView(cellBounds(shapeCells(this.state.view.card, this.ghost.rot).map(([dx, dy]) => [this.ghost.x + dx, this.ghost.y + dy])));
  }

  /** Pan the least that brings the squares of ``box`` ({x0, y0, x1, y1}) into the view. */
  keepInView(box) {
    const vb = this.viewBox();
    if (box.x0 < vb.x + 0.5) this.view.cx -= vb.x + 0.5 - box.x0;
    if (box.x1 > vb.x + vb.w - 0.5) this.view.cx += box.x1 - (vb.x + vb.w - 0.5);
    if (box.y0 < vb.y + 0.5) this.view.cy -= vb.y + 0.5 - box.y0;
    if (box.y1 > vb.y + vb.h - 0.5) this.view.cy += box.y1 - (vb.y + vb.h - 0.5);
  }

  /** The squares of the marked move's tile when its board is the one shown (else null). */
  markedCells() {
    const seat = this.shownSeat();
    if (!this.highlight || this.highlight.seat !== seat) return null;
    return placedCells(this.state.view.boards[seat].tiles, this.highlight);
  }

  drawBoard() {
    const st = this.state;
    if (!st || !this.surface.isConnected) return;
    const seat = this.shownSeat();
    const tiles = st.view.boards[seat].tiles;
    const vb = this.viewBox();
    const svg = this.svg;
    clear(svg);
    this.drawnBox = `${vb.x} ${vb.y} ${vb.w} ${vb.h}`;
    svg.setAttribute("viewBox", this.drawnBox);
    svg.append(s("defs", {}, s("pattern", { id: "n9-grid", width: 1, height: 1, patternUnits: "userSpaceOnUse" },
      s("path", { class: "n9-gridline", d: "M1 0H0V1" }))));
    // the grid exactly as large as the view: nothing drawn beyond it lies over the page's text
    svg.append(s("rect", { class: "n9-grid", x: vb.x, y: vb.y, width: vb.w, height: vb.h, fill: "url(#n9-grid)" }));
    const pendingIndex = !this.ctx.readOnly && st.view.pending && seat === this.mySeat() ? tiles.length - 1 : -1;
    tiles.map((t, i) => [t, i]).sort((a, b) => a[0].level - b[0].level || a[1] - b[1])
      .forEach(([t, i]) => svg.append(drawTile(t, i === pendingIndex ? "pending" : "")));
    const marked = this.markedCells();
    if (marked) {
      svg.append(s("g", { class: "n9-marked", "data-testid": "move-highlight", "data-cells": marked.map((c) => c.join(",")).join(" ") },
        ...marked.map(([x, y]) => s("rect", { x, y, width: 1, height: 1 })),
        s("path", { class: "n9-marked-halo", d: outline(marked) }), s("path", { class: "n9-marked-edge", d: outline(marked) })));
    }
    const asked = this.lessonOutline();
    if (asked) {
      const cells = shapeCells(st.view.card, asked.rot).map(([dx, dy]) => [asked.x + dx, asked.y + dy]);
      svg.append(s("path", { class: "n9-lesson", d: outline(cells), "data-testid": "lesson-outline", "data-rot": asked.rot, "data-at": `${asked.x},${asked.y}` }));
    }
    if (this.hint && this.placing()) {
      const cells = shapeCells(st.view.card, this.hint.rot).map(([dx, dy]) => [this.hint.x + dx, this.hint.y + dy]);
      svg.append(s("path", { class: "n9-hint", d: outline(cells), "data-testid": "hint-outline" }));
    }
    this.ghostLayer = s("g", { class: "n9-ghost-layer" });
    this.fillGhostLayer();
    svg.append(this.ghostLayer);
    if (!tiles.length && !this.ghost) {
      svg.append(s("text", { class: "n9-empty", x: vb.x + vb.w / 2, y: vb.y + vb.h / 2 }, t("no tiles yet")));
    }
  }

  /** The ghost (the tile being placed) into its own layer, over the board. */
  fillGhostLayer() {
    clear(this.ghostLayer);
    const st = this.state;
    if (!this.ghost || !this.placing()) return;
    const j = this.judge();
    const g = s("g", { class: `n9-ghost ${j.legal ? "legal" : "illegal"}${this.pinned ? " pinned" : ""}`, "data-testid": "ghost", "data-legal": j.legal ? "true" : "false", "data-pinned": this.pinned ? "true" : "false", "data-rot": this.ghost.rot, "data-at": `${this.ghost.x},${this.ghost.y}` });
    const cells = shapeCells(st.view.card, this.ghost.rot).map(([dx, dy]) => [this.ghost.x + dx, this.ghost.y + dy]);
    for (const [x, y] of cells) g.append(s("rect", { x, y, width: 1, height: 1 }));
    const [lx, ly] = labelCell(cells);
    g.append(s("path", { class: "n9-edge", d: outline(cells) }), s("text", { class: "n9-digit", x: lx + 0.5, y: ly + 0.56 }, String(st.view.card)));
    if (!j.legal) g.append(s("text", { class: "n9-cross", x: lx + 0.5, y: ly + 0.2 }, "✕"));
    this.ghostLayer.append(g);
  }

  /** After the ghost moved, turned or was pinned: redraw only its layer where the view
   * stayed where it was (the board's squares and tiles are not drawn again; a keyboard
   * game redrew the whole board on every arrow key), else the whole board. */
  drawGhost() {
    const vb = this.viewBox();
    if (this.ghostLayer?.isConnected && `${vb.x} ${vb.y} ${vb.w} ${vb.h}` === this.drawnBox) this.fillGhostLayer();
    else this.drawBoard();
  }

  /** A tutorial step's asked placement, to outline (its highlight is "placement"), or null. */
  lessonOutline() {
    const lesson = this.state?.tutorial;
    if (!lesson || lesson.highlight?.target !== "placement" || !lesson.ask || !this.placing()) return null;
    return parseAction(lesson.ask);
  }

  /** ``tiles`` and a tutorial step's outlined placement, which the view must show too. */
  withOutline(tiles) {
    const asked = this.lessonOutline();
    return asked ? [...tiles, { digit: this.state.view.card, rotation: asked.rot, x: asked.x, y: asked.y }] : tiles;
  }

  /** What a tutorial step points at (its highlight's target): that panel stands out. */
  markLessonTarget() {
    const target = this.state?.tutorial?.highlight?.target || null;
    const panels = { card: [this.cardBox, this.strip], players: [this.playersBox], board: [this.card], levels: [this.levelBox], placement: [this.surface] };
    for (const [name, elements] of Object.entries(panels)) {
      for (const el of elements) {
        el.classList.toggle("lesson-focus", name === target);
        if (name === target) el.dataset.lessonTarget = name;
        else delete el.dataset.lessonTarget;
      }
    }
  }

  /** The card strip: the card's digit and shape, and the round (the card panel says the
   * same; on a phone it lies below the board, out of sight). */
  renderStrip(st) {
    const v = st.view;
    clear(this.strip);
    this.strip.hidden = v.over || v.card === null || v.card === undefined;
    if (this.strip.hidden) return;
    this.strip.dataset.card = String(v.card);
    const cells = shapeCells(v.card, 0);
    const w = 1 + Math.max(...cells.map((c) => c[0]));
    const hh = 1 + Math.max(...cells.map((c) => c[1]));
    const shape = s("svg", { class: "n9-strip-shape", viewBox: `-0.1 -0.1 ${w + 0.2} ${hh + 0.2}`, "aria-hidden": "true", "data-testid": "card-strip-shape" },
      ...cells.map(([x, y]) => s("rect", { x, y, width: 1, height: 1 })),
      s("path", { class: "n9-edge", d: outline(cells) }));
    this.strip.append(
      h("span", { class: "n9-card-digit", "aria-hidden": "true" }, String(v.card)), shape,
      h("span", { class: "n9-strip-text" },
        h("strong", {}, this.ctx.readOnly ? t("Next: the {card}", { card: v.card }) : t("This round: the {card}", { card: v.card })),
        h("small", {}, this.ctx.readOnly ? t("{i} of {n} rounds played", { i: v.round, n: v.rounds }) : t("Round {i} of {n}", { i: v.round + 1, n: v.rounds }))));
  }

  renderCards(st) {
    const v = st.view;
    clear(this.cardBox);
    const counts = new Map();
    for (const c of v.unturned) counts.set(c, (counts.get(c) || 0) + 1);
    const current = !v.over && v.card !== null && v.card !== undefined;
    // a replay's step shows the rounds played: the card turned for the next one is "Next", not played
    const turned = this.ctx.readOnly && current ? v.turned.slice(0, -1) : v.turned;
    this.cardBox.append(...[
      h("div", { class: "n9-round", "data-testid": "round" }, v.over ? t("All {n} rounds played", { n: v.rounds })
        : this.ctx.readOnly ? t("{i} of {n} rounds played", { i: v.round, n: v.rounds }) : t("Round {i} of {n}", { i: v.round + 1, n: v.rounds })),
      current ? h("div", { class: "n9-card-now", "data-testid": "current-card" },
        h("span", { class: "n9-card-digit", "aria-hidden": "true" }, String(v.card)),
        h("span", {}, h("strong", {}, this.ctx.readOnly ? t("Next: the {card}", { card: v.card }) : t("This round: the {card}", { card: v.card })), h("small", { class: "muted" }, t("worth {card} a level", { card: v.card })))) : null,
      this.clockLine(st),
      h("h2", { class: "n9-sub" }, t("Cards turned")),
      h("p", { class: "n9-chips", "data-testid": "turned" }, turned.length ? turned.map((c, i) => h("span", { class: `n9-chip ${current && i === v.turned.length - 1 ? "now" : ""}` }, String(c))) : h("span", { class: "muted" }, t("none yet"))),
      h("h2", { class: "n9-sub" }, v.removed
        ? tn("Still to come ({left}, {n} card of them removed unseen)", "Still to come ({left}, {n} cards of them removed unseen)", v.removed, { left: v.unturned.length })
        : t("Still to come ({left})", { left: v.unturned.length })),
      h("p", { class: "n9-chips", "data-testid": "unturned" }, v.unturned.length
        ? [...counts.entries()].map(([c, n]) => h("span", { class: "n9-chip", title: `${n} × ${c}` }, n > 1 ? `${c} ×${n}` : String(c)))
        : h("span", { class: "muted" }, t("none"))),
    ].filter(Boolean));
  }

  /** The move clock, when the game has one: the time left this round in words, "45 s"
   * or "2 days 4 h" (a line that counts down on its own; not a live region). */
  clockLine(st) {
    clearInterval(this.ticker);
    const clock = st.time_left;
    if (!clock || !clock.deadline || st.over || this.ctx.readOnly) return null;
    const line = h("p", { class: "n9-clock", "data-testid": "clock" });
    const ends = Date.now() + (clock.left ?? 0) * 1000;
    const tick = () => {
      const left = Math.max(0, Math.round((ends - Date.now()) / 1000));
      line.textContent = t("Clock: {time} left this round", { time: durationWords(left) });
      line.classList.toggle("low", left <= 10);
    };
    tick();
    this.ticker = setInterval(tick, 1000);
    return line;
  }

  renderPlayers(st) {
    const had = focusName(this.playersBox);
    clear(this.playersBox);
    this.playersBox.append(h("h2", {}, t("Players")));
    const list = h("ul", { class: "n9-player-list" });
    const mine = this.mySeat();
    const buttons = [];
    st.view.boards.forEach((board, seat) => {
      const c = seatColor(seat);
      const name = this.ctx.seatName(seat);
      const thinking = (st.thinking_seats || []).includes(seat);
      let status = "";
      if (!st.over) {
        if (st.view.has_placed[seat]) status = "placed";
        else if (thinking) status = "thinking";
        else if ((st.active || []).includes(seat)) status = "placing";
      }
      const shown = this.shownSeat() === seat;
      const btn = h("button", {
        type: "button", class: `n9-mini ${shown ? "shown" : ""}`, "data-testid": `mini-board-${seat}`,
        "aria-pressed": shown ? "true" : "false",
        onclick: () => this.showSeat(seat === mine ? null : seat),
      }, boardPicture(board.tiles, "", `mini-svg-${seat}`),
      h("span", { class: "visually-hidden" }, seat === mine
        ? t("Show your board large ({tiles})", { tiles: describeBoard(board.tiles) })
        : t("Show {name}'s board large ({tiles})", { name, tiles: describeBoard(board.tiles) })));
      btn.querySelector("svg").setAttribute("aria-hidden", "true");
      btn.querySelector("svg").removeAttribute("role");
      btn.querySelector("svg").removeAttribute("aria-label");
      buttons.push(btn);
      list.append(h("li", { class: "n9-player", "data-testid": `player-${seat}` },
        h("div", { class: "n9-player-head" },
          h("span", { class: "disc small", style: { "--disc": c.fill, "--ink": c.ink } }),
          h("strong", { class: "n9-player-name", title: name }, name, seat === mine && name !== t("You") ? " " + t("(you)") : "",
            st.game.seats[seat]?.bot_account ? [" ", botBadge()] : null),
          h("span", { class: "n9-score", "data-testid": `score-${seat}` }, String(board.score))),
        status ? h("span", { class: `n9-placed ${status === "placed" ? "done" : ""}`, "data-testid": `placed-${seat}` }, { placed: t("placed"), thinking: t("thinking…"), placing: t("placing…") }[status]) : null,
        btn));
    });
    rove(buttons, { current: buttons[this.shownSeat()] });
    this.playersBox.append(list, h("p", { class: "muted small-note" }, t("Other boards show the last completed round.")));
    refocus(this.playersBox, had);
  }

  showSeat(seat) {
    this.viewSeat = seat;
    this.view = null;
    this.render();
    focusOn(this.surface);
  }

  // -- acting ----------------------------------------------------------------------

  rotate(step) {
    if (!this.ghost || !this.placing()) return;
    const digit = this.state.view.card;
    const before = shapeCells(digit, this.ghost.rot);
    const rot = (this.ghost.rot + step + 4) % 4;
    const after = shapeCells(digit, rot);
    const size = (cells) => [1 + Math.max(...cells.map((c) => c[0])), 1 + Math.max(...cells.map((c) => c[1]))];
    const [bw, bh] = size(before);
    const [aw, ah] = size(after);
    // turn about the middle
    this.ghost = this.nearBoard({ rot, x: this.ghost.x + Math.round((bw - aw) / 2), y: this.ghost.y + Math.round((bh - ah) / 2) });
    this.drawGhost();
    this.renderStatus();
  }

  moveGhost(dx, dy) {
    this.ghost = this.nearBoard({ ...this.ghost, x: this.ghost.x + dx, y: this.ghost.y + dy });
    this.follow();
    this.drawGhost();
    this.renderStatus();
  }

  async confirm() {
    if (!this.ghost || !this.placing()) return;
    const j = this.judge();
    // a tutorial's try goes to the server even where the rules refuse it: it explains why
    if (!j.legal && !this.ctx.tutorial) {
      announce(t("Not here: {why}.", { why: j.why }));
      this.status.classList.add("flash");
      return;
    }
    // one placement a round and seat in flight: the answer to the last round's can come
    // after the next round has begun (its state arrives first), and a click then must
    // not be lost (a loaded test machine clicked into that gap and waited for ever)
    const turn = `${this.state.view.round}:${this.state.acting}`;
    if (this.busy === turn) return;
    this.busy = turn;
    this.confirmBtn.setAttribute("aria-disabled", "true");
    this.placed = { ...this.ghost, round: this.state.view.round, seat: this.state.acting };
    try {
      await this.ctx.act(j.action);
    } finally {
      if (this.busy === turn) this.busy = null;
    }
  }

  cancel() {
    if (this.viewSeat !== null) this.showSeat(null);
  }

  showHint(hint) {
    this.hint = hint ? parseAction(hint.action) : null;
    if (this.hint && this.placing()) {
      // the ghost goes where the hint says (the server's rotation may be the canonical one)
      this.ghost = { ...this.hint };
      this.pinned = true;
      this.follow();
    }
    this.drawBoard();
    this.renderStatus();
  }

  focusTurn() {
    if (!this.placing()) return false;
    this.bringIntoView();
    return focusOn(this.surface);
  }

  /** Your turn on a narrow screen: the board card's top (the card strip) to the top of the
   * screen, unless the strip and the buttons under the board are in view already. */
  bringIntoView() {
    if (!window.matchMedia("(max-width: 900px)").matches) return;
    const top = this.card.getBoundingClientRect().top;
    const bottom = this.placeControls.getBoundingClientRect().bottom;
    if (top >= 0 && bottom <= window.innerHeight) return;
    window.scrollBy(0, top - 4); // instant: a tap during a smooth scroll would count as a drag
  }

  // -- pointer, wheel and keys ----------------------------------------------------------

  toBoard(e) {
    const rect = this.svg.getBoundingClientRect();
    const vb = this.viewBox();
    return [vb.x + (e.clientX - rect.left) / rect.width * vb.w, vb.y + (e.clientY - rect.top) / rect.height * vb.h];
  }

  /** Pin the ghost where it is (a click, a tap) or let it follow the pointer again. */
  pin(pinned) {
    if (this.pinned === pinned) return;
    this.pinned = pinned;
    this.drawGhost();
    this.renderStatus();
  }

  ghostAt(e) {
    const [px, py] = this.toBoard(e);
    const cells = shapeCells(this.state.view.card, this.ghost.rot);
    const w = 1 + Math.max(...cells.map((c) => c[0]));
    const hh = 1 + Math.max(...cells.map((c) => c[1]));
    const { x, y } = this.nearBoard({ ...this.ghost, x: Math.round(px - w / 2), y: Math.round(py - hh / 2) });
    if (x === this.ghost.x && y === this.ghost.y) return;
    this.ghost = { ...this.ghost, x, y };
    this.drawGhost();
    this.renderStatus();
  }

  bindSurface() {
    const el = this.surface;
    el.addEventListener("pointerdown", (e) => {
      if (!this.state) return;
      try {
        el.setPointerCapture?.(e.pointerId);
      } catch { /* the pointer is already gone: nothing to capture */ }
      this.pointers.set(e.pointerId, { x: e.clientX, y: e.clientY, sx: e.clientX, sy: e.clientY, moved: false });
      if (this.pointers.size === 2) {
        const [a, b] = [...this.pointers.values()];
        if (!this.view) this.fit(false);
        this.pinch = { d: Math.hypot(a.x - b.x, a.y - b.y), scale: this.view.scale };
      }
    });
    el.addEventListener("pointermove", (e) => {
      if (!this.state) return;
      const p = this.pointers.get(e.pointerId);
      if (!p) {
        if (e.pointerType === "mouse" && this.placing() && this.ghost && !this.pinned) this.ghostAt(e);
        return;
      }
      const dx = e.clientX - p.x;
      const dy = e.clientY - p.y;
      p.x = e.clientX;
      p.y = e.clientY;
      if (Math.hypot(p.x - p.sx, p.y - p.sy) > 6) p.moved = true;
      if (this.pointers.size === 2 && this.pinch) {
        const [a, b] = [...this.pointers.values()];
        const d = Math.hypot(a.x - b.x, a.y - b.y);
        if (!this.view) this.fit(false);
        this.view.scale = Math.max(MIN_SCALE, Math.min(MAX_SCALE, this.pinch.scale * d / Math.max(this.pinch.d, 1)));
        this.userView = true;
        this.drawBoard();
      } else if (p.moved) {
        if (!this.view) this.fit(false);
        this.view.cx -= dx / this.view.scale;
        this.view.cy -= dy / this.view.scale;
        this.userView = true;
        this.drawBoard();
      }
    });
    const end = (e) => {
      const p = this.pointers.get(e.pointerId);
      this.pointers.delete(e.pointerId);
      if (this.pointers.size < 2) this.pinch = null;
      if (!p || p.moved || e.type === "pointercancel") return;
      if (this.placing() && this.ghost) {
        // a click or tap: the ghost goes there and stays (no longer following the pointer)
        this.ghostAt(e);
        this.pin(true);
      }
    };
    el.addEventListener("pointerup", end);
    el.addEventListener("pointercancel", end);
    el.addEventListener("dblclick", (e) => {
      if (!this.placing()) return;
      e.preventDefault();
      this.confirm();
    });
    el.addEventListener("wheel", (e) => {
      if (!this.state) return;
      if (!e.ctrlKey && !this.placing()) return; // the page scrolls
      if (e.ctrlKey) {
        e.preventDefault();
        this.zoomBy(e.deltaY < 0 ? 1.1 : 0.9);
        return;
      }
      e.preventDefault();
      const now = performance.now();
      if (this.lastWheel && now - this.lastWheel < 120) return; // one turn per notch
      this.lastWheel = now;
      this.rotate(e.deltaY > 0 ? 1 : -1);
    }, { passive: false });
    el.addEventListener("keydown", (e) => {
      if (e.altKey || e.ctrlKey || e.metaKey || !this.state) return;
      const arrows = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
      const placing = this.placing() && this.ghost;
      if (arrows[e.key]) {
        e.preventDefault();
        const [dx, dy] = arrows[e.key];
        if (placing) {
          this.pinned = true;
          this.moveGhost(dx, dy);
          announce(this.spotSentence(), { moment: true });
        } else {
          if (!this.view) this.fit(false);
          this.view.cx += dx * 2;
          this.view.cy += dy * 2;
          this.userView = true;
          this.drawBoard();
        }
      } else if ((e.key === "r" || e.key === "R") && placing) {
        e.preventDefault();
        this.rotate(e.shiftKey ? -1 : 1);
        announce(t("Turned {degrees}°. {said}", { degrees: this.ghost.rot * 90, said: this.spotSentence() }), { moment: true });
      } else if (e.key === "Enter" && placing) {
        e.preventDefault();
        this.confirm();
      } else if (e.key === "Escape" && placing && this.pinned) {
        e.preventDefault();
        this.pin(false);
        announce(t("The tile follows the pointer again."));
      } else if (e.key === "+" || e.key === "=") {
        e.preventDefault();
        this.zoomBy(1.25);
      } else if (e.key === "-") {
        e.preventDefault();
        this.zoomBy(0.8);
      } else if (e.key === "0") {
        e.preventDefault();
        this.fit(true);
      }
    });
  }
}

export default nmbr9;
