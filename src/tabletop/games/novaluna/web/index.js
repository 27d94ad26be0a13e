// Nova Luna for the shell: the board (moon wheel, displays, players), its controls,
// move descriptions and the end-of-game result; the lobby's part comes from intro.js.
// Styles: tiles.css, colours.css and board.css (page.py names them, shell/games.js adds them).
import { t, tn, tp, withNodes } from "../../shell/i18n.js";
import { botBadge, focusName, focusOn, h, ordinal, refocus, rove, s, touchScreen } from "../../shell/util.js";
import { DisplayView } from "./display.js";
import intro, { seatColor } from "./intro.js";
import { COLORS, colourName, defs, drawTile, tileInfo, tileText } from "./tiles.js";
import { choicesFor, markBoard, markedCell } from "./tutorial.js";
import { drawWheel } from "./wheel.js";

function parseAction(action) {
  const m = /^(\d+)@(-?\d+),(-?\d+)$/.exec(action || "");
  return m ? { space: Number(m[1]), cell: [Number(m[2]), Number(m[3])], key: `${m[2]},${m[3]}` } : null;
}

// Where a tile lies in board terms, as the server words its log: the first neighbour
// found in this order (the neighbour at x + dx, y + dy; y grows downwards).
const SIDES = [["right", -1, 0], ["left", 1, 0], ["below", 0, -1], ["above", 0, 1]];

function besideOf(tiles, x, y) {
  for (const [side, dx, dy] of SIDES) {
    const found = tiles.find((tile) => tile.cell[0] === x + dx && tile.cell[1] === y + dy);
    if (found) return { side, tile: found.tile };
  }
  return null;
}

/** "right of your blue 3", "below the red 2", "as the first tile". */
function whereText(where, owner = "the") {
  if (!where) return t("as the first tile");
  const tile = tileText(where.tile);
  const yours = owner === "your";
  switch (where.side) {
    case "right": return yours ? t("right of your {tile}", { tile }) : t("right of the {tile}", { tile });
    case "left": return yours ? t("left of your {tile}", { tile }) : t("left of the {tile}", { tile });
    case "above": return yours ? t("above your {tile}", { tile }) : t("above the {tile}", { tile });
    default: return yours ? t("below your {tile}", { tile }) : t("below the {tile}", { tile });
  }
}

function capital(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** What the log says of an entry, in parts: {text, cls} (cls: the span the log draws it
 * in; ``{tile}`` in the text: the tile taken, a chip in the log, "the red 4" read out) and
 * {sep: true} (the part follows " · " in the log, "; " read out). The log draws them
 * (logText); a screen reader hears them (moveSentence). ``you``: the words said to the
 * player who moved (German conjugates "you took" apart from "Anna took"). */
function logWords(entry, you = false) {
  if (entry.kind === "refill") return [{ text: you ? tp("you", "refilled the wheel") : t("refilled the wheel") }];
  if (entry.kind === "end") {
    const ended = you ? tp("you", "ended phase 1") : t("ended phase 1");
    return [{ text: entry.drawn ? tn("{ended}; the wheel was refilled ({n} tile)", "{ended}; the wheel was refilled ({n} tiles)", entry.drawn, { ended }) : t("{ended}; the wheel was refilled", { ended }) }];
  }
  const n = (entry.covered || []).length;
  const refilled = (entry.text || "").startsWith("after a refill");
  const took = refilled
    ? (you ? tp("you", "refilled, then took {tile}") : t("refilled, then took {tile}"))
    : (you ? tp("you", "took {tile}") : t("took {tile}"));
  const words = [{ text: took, tile: entry.tile }];
  if ("beside" in entry) {
    const where = whereText(entry.beside);
    words.push({ text: you ? tp("you", " and laid it {where}", { where }) : t(" and laid it {where}", { where }), cls: "log-where" });
  }
  if (n) words.push({ text: tn("covered {n} task", "covered {n} tasks", n), cls: "covered-note", sep: true });
  if (entry.drawn) words.push({ text: tn("the wheel ran empty and was refilled ({n} tile)", "the wheel ran empty and was refilled ({n} tiles)", entry.drawn), cls: "muted", sep: true });
  if ((entry.text || "").endsWith("the game is over")) words.push({ text: t("game over"), cls: "muted", sep: true });
  return words;
}

function lastPlace(log) {
  for (let i = log.length - 1; i >= 0; i--) {
    if (log[i].kind === "place" || log[i].tile) return log[i];
  }
  return null;
}

const nova = {
  ...intro,

  optionsFromState(state) {
    return state.view.players > 1 ? { first_game: !!state.view.first_game } : {};
  },

  turnPrompt(state) {
    const v = state.view;
    if (v.can_refill && v.can_end_phase) return t("Take one of the marked tiles from the moon wheel and lay it next to your tiles, or refill the wheel first, or end phase 1.");
    if (v.can_refill) return t("Take one of the marked tiles from the moon wheel and lay it next to your tiles, or refill the wheel first.");
    if (v.can_end_phase) return t("Take one of the marked tiles from the moon wheel and lay it next to your tiles, or end phase 1.");
    return t("Take one of the marked tiles from the moon wheel and lay it next to your tiles.");
  },

  describeAction(state, action) {
    if (action === "refill") return t("refill the wheel");
    if (action === "end") return t("end phase 1");
    const p = parseAction(action);
    if (!p) return action;
    const tile = state.view.wheel[p.space];
    const choice = (state.choices || []).find((c) => c.action === action);
    const n = choice ? choice.covers.length : 0;
    const mark = (state.view.takeable || []).indexOf(p.space) + 1;
    const seat = state.acting ?? state.to_move;
    const where = besideOf(state.view.seats[seat].tiles, p.cell[0], p.cell[1]);
    const args = { tile: tileText(tile), mark, where: whereText(where, "your") };
    const take = mark ? t("take the {tile} (marked {mark} on the wheel) and lay it {where}", args) : t("take the {tile} and lay it {where}", args);
    return n ? tn("{move}, covering {n} task", "{move}, covering {n} tasks", n, { move: take }) : take;
  },

  logText(entry) {
    return h("span", {}, ...logWords(entry).map((w) => {
      const info = "tile" in w ? tileInfo(w.tile) : null;
      const chip = info ? [h("span", { class: `tile-chip tc-${info.color}`, title: tileText(w.tile) }, String(info.cost)), ` ${colourName(info.color)}`] : "";
      const parts = withNodes(w.sep ? ` · ${w.text}` : w.text, { tile: chip });
      return w.cls ? h("span", { class: w.cls }, ...parts) : parts;
    }));
  },

  /** The log's words for a screen reader: "took the red 4 and laid it right of the blue 3;
   * covered 1 task" (the shell puts the player's name, or "You", before it). */
  moveSentence(entry, name, you = false) {
    return logWords(entry, you).map((w) => {
      const text = "tile" in w ? w.text.replace("{tile}", t("the {tile}", { tile: tileText(w.tile) })) : w.text;
      return w.sep ? t("; {part}", { part: text }) : text;
    }).join("");
  },

  resultHeadline(state, name) {
    const r = state.result || state.view.result;
    if (!r) return t("Game over");
    if ("total" in r) return t("Solo score: {total}", { total: r.total });
    const winner = name(r.ranking[0]);
    return r.ended_by === "last disc" ? t("{name} wins!", { name: winner }) : t("{name} wins on discs left", { name: winner });
  },

  resultView(state, name) {
    const r = state.result || state.view.result;
    if (!r) return h("p", {}, t("The game is over."));
    if ("total" in r) {
      const good = r.total < 100;
      return h("div", { class: "result solo-result", "data-testid": "result" },
        h("div", { class: "score-parts" },
          scoreBox(t("Phase 1"), r.phase1, "phase1"),
          h("span", { class: "op" }, "+"),
          scoreBox(t("Phase 2"), r.phase2, "phase2"),
          h("span", { class: "op" }, "="),
          scoreBox(t("Total"), r.total, "total", true)),
        h("p", { class: `verdict ${good ? "good" : ""}`, "data-testid": "verdict" }, good
          ? t("Under 100 — the rulebook calls that a good score. Well played!")
          : t("The rulebook calls a score under 100 good. Lower is better — try again?")),
        h("p", { class: "muted" }, soloSummary(r)));
    }
    const rows = r.ranking.map((seat, i) => {
      const c = seatColor(seat);
      return h("tr", { "data-testid": `rank-${i + 1}` },
        h("td", { class: "rank" }, i === 0 ? h("span", { class: "star" }, "★") : ordinal(i + 1)),
        h("td", { class: "rank-name" }, h("span", { class: "disc small", style: { "--disc": c.fill, "--ink": c.ink } }), " ", h("strong", { title: name(seat) }, name(seat))),
        h("td", { class: "num" }, String(r.discs_left[seat])),
        h("td", { class: "num" }, String(r.tiles_taken[seat])));
    });
    return h("div", { class: "result", "data-testid": "result" },
      h("p", { class: "muted center" }, r.ended_by === "last disc"
        ? t("{name} placed their last disc.", { name: name(r.ranking[0]) })
        : t("The tiles ran out: fewest discs left wins (ties: who would have moved sooner).")),
      h("table", { class: "ranking" },
        h("thead", {}, h("tr", {}, h("th", {}, h("span", { class: "visually-hidden" }, t("Rank"))), h("th", {}, t("Player")), h("th", { class: "num" }, t("Discs left")), h("th", { class: "num" }, t("Tiles")))),
        h("tbody", {}, rows)));
  },

  createBoard(slots, ctx) {
    return new Board(slots, ctx);
  },

  /** The display marks a state's ``highlight`` (the tile a move laid): the analysis's
   * comparison needs no players panel beside it. */
  marksMoves: true,
};

// The legal cell in the tab order (see rove() in util.js): the one focus goes to.
const CELL_STOP = "[data-testid^='cell-'][tabindex='0']";

/** "8 discs placed with 14 tiles. Each score is …" */
function soloSummary(r) {
  const discs = tn("{n} disc", "{n} discs", r.discs_placed);
  const placed = tn("{discs} placed with {n} tile.", "{discs} placed with {n} tiles.", r.tiles_taken, { discs });
  const rule = t("Each score is the cost of your tiles plus 10 for every disc not placed.");
  return `${placed} ${rule}`;
}

function scoreBox(label, value, testid, main) {
  return h("div", { class: `score-box${main ? " main" : ""}`, "data-testid": `score-${testid}` }, h("span", { class: "score-value" }, String(value)), h("span", { class: "score-label" }, label));
}

let boardsMade = 0; // each board's ids its own (the analysis draws two beside the replay's)

class Board {
  constructor(slots, ctx) {
    this.slots = slots;
    this.ctx = ctx;
    this.ids = `nl-${++boardsMade}`;
    this.state = null;
    this.selected = null; // space of the chosen tile
    this.chosen = null; // a tapped cell waiting for confirmation
    this.hovered = null;
    this.hint = null;
    this.focus = null; // seat whose display is shown
    this.pinned = false; // the user picked the tab
    this.busy = false;
    // Keyboard play: the wheel tile and the legal cell in the tab order (roving tabindex),
    // and where focus goes after the next render (a selector; see placeFocus).
    this.wheelAt = null;
    this.cellAt = null;
    this.focusWant = null;
    this.root = slots.main.closest("[data-testid=game]") || document.body;
    this.wheelBox = h("div", { class: "wheel-box" });
    slots.side.append(this.wheelBox);
    // main: tabs, the display, the selection bar
    this.tabs = h("div", { class: "tabs", role: "tablist" });
    this.selectBar = h("div", { class: "select-bar", "data-testid": "select-bar", hidden: true });
    this.displayCard = h("section", { class: "card display-card" }, this.tabs);
    slots.main.append(this.displayCard);
    this.display = new DisplayView(this.displayCard, {
      onEnter: (key) => { this.hovered = key; this.preview(); },
      onLeave: (key) => { if (this.hovered === key) this.hovered = null; this.preview(); },
      onTap: (key, type) => this.tapCell(key, type),
      onFocus: (key) => { this.cellAt = key; },
    });
    this.displayCard.append(this.selectBar);
    this.playersCard = h("section", { class: "card players-card", "data-testid": "players" });
    slots.players.append(this.playersCard);
    this.soloBox = h("div", { class: "solo-box", "data-testid": "solo-scores", hidden: true });
    this.noticeBox = h("div", { class: "nl-notices" });
    slots.notices.prepend(this.noticeBox, this.soloBox);
    this.refillBtn = h("button", { class: "btn", "data-testid": "refill", hidden: true, onclick: () => this.send("refill") }, t("Refill the wheel"));
    this.endBtn = h("button", { class: "btn", "data-testid": "end-phase", hidden: true, onclick: () => this.send("end") }, t("End phase 1"));
    this.cancelBtn = h("button", { class: "btn ghost", "data-testid": "cancel-select", hidden: true, onclick: () => this.cancel() }, t("Cancel"));
    slots.controls.append(this.refillBtn, this.endBtn);
  }

  destroy() {
    this.display.destroy();
  }

  seatName(seat) {
    return this.ctx.seatName(seat);
  }

  update(state) {
    const prev = this.state;
    this.state = state;
    // the same state again: a lesson's refused try, the board as it was before it
    if (!prev || prev === state || prev.ply !== state.ply || prev.acting !== state.acting) {
      this.selected = null;
      this.chosen = null;
      this.hovered = null;
      this.busy = false;
      this.wheelAt = null;
      this.cellAt = null;
    }
    if (this.selected !== null && !state.choices.some((c) => c.space === this.selected)) this.selected = null;
    // whose display to show: the acting seat, else yours, else the seat to move
    const n = state.view.seats.length;
    if (this.focus === null || this.focus >= n) this.pinned = false;
    if (!this.pinned) {
      if (state.highlight) this.focus = state.highlight.seat; // a move to mark: its seat's display
      else if (state.acting !== null) this.focus = state.acting;
      else if (state.you.length === 1) this.focus = state.you[0];
      else if (state.to_move !== null && state.to_move !== undefined) this.focus = state.to_move;
      else if (this.focus === null) this.focus = state.you[0] ?? (state.result?.ranking?.[0] ?? 0);
    }
    if (state.acting !== null && (prev?.acting !== state.acting || prev?.ply !== state.ply)) {
      this.focus = state.acting;
      this.pinned = false;
    }
    const fresh = prev && state.log.length === prev.log.length + 1 ? state.log[state.log.length - 1] : null;
    const othersMove = fresh && fresh.kind === "place" && !state.you.includes(fresh.seat) && !this.ctx.readOnly;
    if (othersMove) this.justMoved = { seat: fresh.seat, until: Date.now() + 2500 };
    this.render();
    if (othersMove) this.flyTile(fresh);
  }

  /** Someone else's move: the tile flies from its wheel space to their display (or card). */
  flyTile(entry) {
    if (window.matchMedia("(prefers-reduced-motion: reduce)").matches) return;
    const from = this.wheelBox.querySelector(`[data-space="${entry.space}"] .space-slot`);
    const key = `${entry.cell[0]},${entry.cell[1]}`;
    const to = this.focus === entry.seat
      ? this.display.svg.querySelector(`.placed[data-cell="${key}"] .tile-body`)
      : this.playersCard.querySelector(`[data-testid=player-${entry.seat}] .mini`);
    if (!from || !to) return;
    const a = from.getBoundingClientRect();
    const b = to.getBoundingClientRect();
    const size = Math.max(24, a.width);
    const svg = s("svg", { viewBox: "-4 -4 108 108", width: size, height: size }, defs(), drawTile(entry.tile, {}));
    const flyer = h("div", { class: "flying-tile", "aria-hidden": "true", style: { left: `${a.left + a.width / 2 - size / 2}px`, top: `${a.top + a.height / 2 - size / 2}px`, width: `${size}px`, height: `${size}px` } }, svg);
    document.body.append(flyer);
    const dx = b.left + b.width / 2 - (a.left + a.width / 2);
    const dy = b.top + b.height / 2 - (a.top + a.height / 2);
    const scale = Math.max(0.3, Math.min(2, Math.max(b.width, b.height) / size));
    const flight = flyer.animate([
      { transform: "translate(0, 0) scale(1)", opacity: 1 },
      { transform: `translate(${dx}px, ${dy}px) scale(${scale})`, opacity: 0.9 },
    ], { duration: 700, easing: "cubic-bezier(.4,0,.2,1)" });
    flight.onfinish = flight.oncancel = () => flyer.remove();
  }

  movedRecently(seat) {
    return this.justMoved && this.justMoved.seat === seat && Date.now() < this.justMoved.until;
  }

  cancel() {
    if (this.selected !== null) this.focusWant = `[data-testid=space-${this.selected}]`; // back to the tile
    this.selected = null;
    this.chosen = null;
    this.render();
  }

  showHint(hint) {
    this.hint = hint;
    const p = hint ? parseAction(hint.action) : null;
    if (p && this.state.acting !== null) {
      this.focus = this.state.acting;
      this.pinned = false;
    }
    this.render();
  }

  async send(action) {
    if (this.busy) return;
    this.busy = true;
    this.render();
    const ok = await this.ctx.act(action);
    if (!ok) {
      this.busy = false;
      this.render();
    }
  }

  selectSpace(space) {
    const state = this.state;
    if (!state || state.acting === null || this.busy) return;
    this.selected = this.selected === space ? null : space;
    this.chosen = null;
    // Focus goes on to the legal cells: the one the pointer previews, else the first.
    this.cellAt = this.selected !== null && this.hovered && this.choiceFor(this.hovered) ? this.hovered : null;
    this.focusWant = this.selected !== null ? CELL_STOP : null;
    this.focus = state.acting;
    this.pinned = false;
    this.render();
    if (this.selected !== null && window.matchMedia("(max-width: 900px)").matches) {
      const r = this.displayCard.getBoundingClientRect();
      if (r.top > window.innerHeight * 0.5 || r.bottom < 0) this.displayCard.scrollIntoView({ block: "start" }); // instant: a tap during a smooth scroll would count as a drag
    }
  }

  choiceFor(key) {
    return this.spaceChoices(this.selected).find((c) => `${c.cell[0]},${c.cell[1]}` === key);
  }

  /** The placements of the tile on ``space`` (in a lesson, tries of any tile: tutorial.js). */
  spaceChoices(space) {
    return choicesFor(this.state, space, this.ctx.tutorial);
  }

  tapCell(key, pointerType) {
    const choice = this.choiceFor(key);
    if (!choice || this.busy) return;
    if (pointerType === "mouse" || this.chosen === key) {
      this.send(choice.action);
      return;
    }
    this.chosen = key;
    this.hovered = null;
    this.cellAt = key;
    this.focusWant = "[data-testid=confirm-place]"; // the next Enter places it here, nowhere else
    this.render();
  }

  /** Your turn begins: focus on the wheel's tile in the tab order (else End phase 1 or
   * Refill); false when there is none. */
  focusTurn() {
    return focusOn(this.wheelBox.querySelector(".space.selectable[tabindex='0']"))
      || focusOn([this.endBtn, this.refillBtn].find((b) => !b.hidden));
  }

  /** After a render: focus where the last action leads (``focusWant``), else back on the
   * replacement of the element that had it (``had``: its data-testid). */
  placeFocus(had) {
    const want = this.focusWant;
    this.focusWant = null;
    if (want && focusOn(this.root.querySelector(want))) return;
    refocus(this.root, had);
  }

  preview() {
    const key = this.hovered ?? this.chosen;
    const choice = key && this.selected !== null ? this.choiceFor(key) : null;
    if (!choice) {
      this.display.setPreview(null);
      this.renderSelectBar(null);
      return;
    }
    this.display.setPreview(key, this.state.view.wheel[this.selected], choice.covers);
    this.renderSelectBar(choice);
  }

  render() {
    const state = this.state;
    if (!state) return;
    const view = state.view;
    const acting = state.acting !== null && !this.ctx.readOnly;
    const last = lastPlace(state.log);
    const lastEntry = state.log[state.log.length - 1];
    const hintP = this.hint ? parseAction(this.hint.action) : null;
    const had = focusName(this.root);
    // the wheel
    this.wheelBox.replaceChildren(drawWheel({
      view,
      seatColor,
      seatName: (i) => this.seatName(i),
      selectable: acting && !this.busy,
      tryAny: !!this.ctx.tutorial,
      selected: this.selected,
      hinted: hintP ? hintP.space : null,
      lastSpace: lastEntry && lastEntry.kind === "place" ? lastEntry.space : null,
      onSpace: (space) => this.selectSpace(space),
      current: this.wheelAt,
      onFocusSpace: (space) => { this.wheelAt = space; },
    }));
    this.el?.classList.toggle("busy", this.busy);
    // controls
    const has = (a) => state.choices.some((c) => c.action === a);
    this.refillBtn.hidden = !(acting && view.can_refill && has("refill"));
    this.endBtn.hidden = !(acting && view.can_end_phase && has("end"));
    for (const b of [this.refillBtn, this.endBtn]) b.setAttribute("aria-disabled", String(this.busy)); // not disabled: that drops focus
    this.refillBtn.classList.toggle("hinted", this.hint?.action === "refill");
    this.endBtn.classList.toggle("hinted", this.hint?.action === "end");
    this.renderNotices(state, lastEntry);
    this.renderSolo(state);
    this.renderTabs(state);
    this.labelPanel(state);
    this.renderDisplay(state, last, hintP);
    this.renderPlayers(state);
    this.preview();
    markBoard(this, state.tutorial?.highlight);
    this.placeFocus(had);
  }

  renderNotices(state, lastEntry) {
    const view = state.view;
    const notes = [];
    if (!view.over && view.refilled && !(lastEntry && (lastEntry.kind === "refill" || lastEntry.kind === "end"))) {
      const drawn = lastEntry && lastEntry.drawn ? lastEntry.drawn : 0;
      const soloPhase2 = view.mode === "solo" && view.phase === 2;
      let why;
      if (soloPhase2) {
        why = drawn ? tn("The wheel ran empty, so phase 1 ended and the wheel was refilled with {n} new tile.", "The wheel ran empty, so phase 1 ended and the wheel was refilled with {n} new tiles.", drawn)
          : t("The wheel ran empty, so phase 1 ended and the wheel was refilled.");
      } else {
        why = drawn ? tn("It ran empty, so it was filled again from the pile with {n} new tile.", "It ran empty, so it was filled again from the pile with {n} new tiles.", drawn)
          : t("It ran empty, so it was filled again from the pile.");
      }
      notes.push(h("div", { class: "notice notice-refill", "data-testid": "refill-notice" },
        h("strong", {}, soloPhase2 ? t("Phase 2 begins.") : t("The wheel was refilled.")), " ", why));
    } else if (!view.over && view.refilled && lastEntry && lastEntry.kind === "refill") {
      notes.push(h("div", { class: "notice" }, t("{name} refilled the wheel.", { name: this.seatName(lastEntry.seat) })));
    }
    if (state.acting !== null && view.can_refill && !this.ctx.readOnly) {
      const left = view.wheel.filter(Boolean).length;
      notes.push(h("div", { class: "notice notice-choice" }, tn("Only {n} tile left on the wheel: you may refill it before you take one.", "Only {n} tiles left on the wheel: you may refill it before you take one.", left)));
    }
    if (state.acting !== null && view.can_end_phase && !this.ctx.readOnly) {
      notes.push(h("div", { class: "notice notice-choice" }, t("8 discs placed: you may end phase 1 now (the wheel is refilled) or keep taking tiles.")));
    }
    if (view.pile_count === 0 && !view.over && view.mode !== "solo") {
      notes.push(h("div", { class: "notice" }, t("The pile is empty: the game ends when the wheel runs out.")));
    }
    this.noticeBox.replaceChildren(...notes);
  }

  renderSolo(state) {
    const view = state.view;
    if (view.mode !== "solo" || !view.solo) {
      this.soloBox.hidden = true;
      return;
    }
    this.soloBox.hidden = false;
    const seat = view.seats[0];
    const cost = view.solo.score_so_far;
    const placed = seat.discs_placed;
    let rows;
    if (view.phase === 1 && !view.over) {
      const now = cost + 10 * Math.max(0, 8 - placed);
      rows = [
        [t("Phase"), t("{i} of {n}", { i: 1, n: 2 })],
        [t("Discs placed"), `${placed} / 8`],
        [t("Tiles' cost"), cost],
        [t("Phase 1 score now"), now, "solo-now"],
      ];
    } else {
      const p1 = view.solo.phase1_score;
      const p2 = cost + 10 * (21 - placed);
      rows = [
        [t("Phase"), view.over ? t("finished") : t("{i} of {n}", { i: 2, n: 2 })],
        [t("Phase 1 score"), p1 ?? "–", "solo-phase1"],
        [t("Discs placed"), `${placed} / 21`],
        [t("Phase 2 score now"), p2],
        [t("Total now"), p1 !== null && p1 !== undefined ? p1 + p2 : "–", "solo-now"],
      ];
    }
    this.soloBox.replaceChildren(h("h2", {}, t("Solo score"), h("small", { class: "muted" }, " · ", t("lower is better, under 100 is good"))),
      h("dl", { class: "solo-grid" }, ...rows.flatMap(([k, v, id]) => [h("dt", {}, k), h("dd", id ? { "data-testid": id } : {}, String(v))])));
  }

  renderTabs(state) {
    const n = state.view.seats.length;
    if (n === 1) { // one display: a title, no tabs (a tablist would need tabs)
      this.tabs.removeAttribute("role");
      // a lesson's learner is called "You": not "You's display"
      const title = this.ctx.tutorial ? t("Your display") : t("{name}'s display", { name: this.seatName(0) });
      this.tabs.replaceChildren(h("div", { class: "tab-title" }, h("strong", { title: this.seatName(0) }, title)));
      return;
    }
    this.tabs.setAttribute("role", "tablist");
    this.tabs.replaceChildren(...state.view.seats.map((seat, i) => {
      const c = seatColor(i);
      const mine = state.you.includes(i);
      return h("button", {
        class: `tab${i === this.focus ? " on" : ""}${i === state.to_move ? " to-move" : ""}${this.movedRecently(i) ? " just-moved" : ""}`,
        role: "tab", "aria-selected": i === this.focus ? "true" : "false", "data-testid": `tab-${i}`,
        id: `${this.ids}-tab-${i}`, "aria-controls": `${this.ids}-display-panel`,
        style: { "--disc": c.fill, "--ink": c.ink },
        onclick: () => { this.focus = i; this.pinned = true; this.render(); },
      }, h("span", { class: "disc small", style: { "--disc": c.fill, "--ink": c.ink } }),
      h("span", { class: "tab-name", title: this.seatName(i) }, this.seatName(i)), mine ? h("span", { class: "you" }, t("you")) : null,
      h("span", { class: "tab-discs", title: t("discs left") }, String(seat.discs_left)));
    }));
    // The tabs pattern: only the selected tab in the tab order; Left/Right select the next.
    const tabs = [...this.tabs.children];
    rove(tabs, {
      current: tabs[this.focus],
      step: (i, key, all) => (key === "ArrowRight" ? (i + 1) % all.length : key === "ArrowLeft" ? (i - 1 + all.length) % all.length : null),
      onMove: (tab) => tab.click(),
    });
  }

  /** The display is the seat tabs' panel (with more than one seat). */
  labelPanel(state) {
    const frame = this.display.frame;
    frame.id = `${this.ids}-display-panel`;
    if (state.view.seats.length > 1) {
      frame.setAttribute("role", "tabpanel");
      frame.setAttribute("aria-labelledby", `${this.ids}-tab-${this.focus}`);
    } else {
      frame.removeAttribute("role");
      frame.removeAttribute("aria-labelledby");
    }
  }

  renderDisplay(state, last, hintP) {
    const view = state.view;
    const seat = this.focus ?? 0;
    const data = view.seats[seat];
    const acting = state.acting === seat && !this.ctx.readOnly;
    const cells = acting && this.selected !== null
      ? this.spaceChoices(this.selected).map((c) => ({
        key: `${c.cell[0]},${c.cell[1]}`, cell: c.cell,
        label: placeLabel(whereText(besideOf(data.tiles, c.cell[0], c.cell[1]), "your"), c.covers.length),
      }))
      : [];
    let hinted = null;
    if (hintP && acting && (this.selected === null || this.selected === hintP.space)) hinted = hintP.key;
    const lastHere = last && last.seat === seat && state.log[state.log.length - 1] === last;
    const fresh = new Map();
    if (last && last.seat === seat) {
      for (const [x, y, i] of last.covered || []) {
        const k = `${x},${y}`;
        if (!fresh.has(k)) fresh.set(k, new Set());
        fresh.get(k).add(i);
      }
    }
    let emptyText = "";
    if (!data.tiles.length) {
      emptyText = acting ? t("Choose a marked tile on the moon wheel: your first tile can go anywhere.") : t("{name} has no tiles yet.", { name: this.seatName(seat) });
    }
    const marked = state.highlight && state.highlight.seat === seat ? parseAction(state.highlight.action) : null;
    this.display.render({
      identity: `${seat}`,
      marked: marked ? marked.key : null,
      tiles: data.tiles,
      owner: seatColor(seat).fill,
      cells,
      last: lastHere || (last && last.seat === seat) ? `${last.cell[0]},${last.cell[1]}` : null,
      fresh,
      hinted: hinted,
      chosen: this.chosen,
      current: this.cellAt,
      lessonCell: markedCell(state),
      emptyText,
    });
    this.display.svg.dataset.seat = seat;
    this.displayCard.classList.toggle("placing", cells.length > 0);
  }

  renderSelectBar(choice) {
    const state = this.state;
    const bar = this.selectBar;
    if (!this.selParts) {
      this.selParts = {
        chip: h("span", { class: "tile-chip" }),
        text: h("span", { class: "sel-text", "data-testid": "preview-text", id: `${this.ids}-preview-text` }),
        confirm: h("button", { class: "btn primary small", "data-testid": "confirm-place", "aria-describedby": `${this.ids}-preview-text`, hidden: true, onclick: () => {
          const c = this.chosen && this.choiceFor(this.chosen);
          if (c) this.send(c.action);
        } }, t("Place here")),
        cancel: h("button", { class: "btn ghost small", "data-testid": "cancel-select", onclick: () => this.cancel() }, t("Cancel")),
      };
      const p = this.selParts;
      bar.append(h("div", { class: "sel-left" }, p.chip, p.text), h("div", { class: "sel-right" }, p.confirm, p.cancel));
    }
    if (!state || this.selected === null || state.acting === null) {
      bar.hidden = true;
      return;
    }
    bar.hidden = false;
    const p = this.selParts;
    const info = tileInfo(state.view.wheel[this.selected]);
    p.chip.className = `tile-chip tc-${info ? info.color : "none"}`;
    p.chip.textContent = info ? String(info.cost) : "?";
    if (choice) {
      const n = choice.covers.length;
      const where = whereText(besideOf(state.view.seats[state.acting].tiles, choice.cell[0], choice.cell[1]), "your");
      p.text.textContent = n ? tn("{where}: covers {n} task (glowing)", "{where}: covers {n} tasks (glowing)", n, { where: capital(where) }) : t("{where}: covers no task", { where: capital(where) });
    } else {
      const how = touchScreen() ? t("tap a highlighted cell to preview it, then “Place here”") : t("point at a highlighted cell to preview, click to place it");
      p.text.textContent = t("{tile}: {how}", { tile: info ? tileText(state.view.wheel[this.selected]) : t("Tile"), how });
    }
    p.confirm.hidden = !(this.chosen && choice && this.chosen === this.hovered) && !(this.chosen && choice && this.hovered === null);
  }

  renderPlayers(state) {
    const view = state.view;
    const card = this.playersCard;
    const order = view.turn_order || [];
    const behind = Math.min(...view.seats.map((seat) => seat.time)); // the marker furthest back
    const lastCells = new Map(); // each seat's latest tile, marked in its mini display
    for (const entry of state.log) if (entry.kind === "place" && entry.cell) lastCells.set(entry.seat, `${entry.cell[0]},${entry.cell[1]}`);
    const rows = view.seats.map((seat, i) => {
      const c = seatColor(i);
      const info = state.game.seats[i] || { kind: "human" };
      const badges = [];
      if (state.you.includes(i)) badges.push(h("span", { class: "badge you" }, t("you")));
      if (info.kind === "bot") badges.push(h("span", { class: "badge" }, t("bot")));
      if (info.bot_account) badges.push(botBadge()); // a program playing through the bot API
      else if (!this.ctx.readOnly) badges.push(h("span", { class: `presence ${info.online ? "on" : ""}`, title: info.online ? t("connected") : t("not connected") }));
      if (state.thinking === i) badges.push(h("span", { class: "badge thinking", "data-testid": `thinking-${i}` }, t("thinking…")));
      const pos = order.indexOf(i);
      const solo = view.mode === "solo";
      const supply = view.supply || 20;
      const frac = Math.min(1, seat.discs_placed / (solo ? 21 : supply));
      return h("button", {
        class: `player${i === state.to_move ? " to-move" : ""}${i === this.focus ? " focused" : ""}${this.movedRecently(i) ? " just-moved" : ""}`,
        "data-testid": `player-${i}`, style: { "--disc": c.fill, "--ink": c.ink },
        title: t("Show {name}'s display", { name: this.seatName(i) }),
        onclick: () => { this.focus = i; this.pinned = true; this.render(); },
      },
      h("span", { class: "disc", style: { "--disc": c.fill, "--ink": c.ink } }),
      h("span", { class: "player-main" },
        h("span", { class: "player-name" }, h("strong", { title: this.seatName(i) }, this.seatName(i)), ...badges),
        h("span", { class: "player-stats" },
          h("span", { "data-testid": `discs-left-${i}` }, ...withNodes(tn("{n} disc left", "{n} discs left", seat.discs_left), { n: h("b", {}, String(seat.discs_left)) })),
          h("span", {}, ...withNodes(tn("{n} tile", "{n} tiles", seat.tiles.length), { n: h("b", {}, String(seat.tiles.length)) })),
          solo ? null : trackText(seat, i, behind),
          !solo && !view.over && pos >= 0 ? h("span", { class: "order" }, pos === 0 ? t("moves next") : t("{place} in turn", { place: ordinal(pos + 1) })) : null),
        h("span", { class: "bar" }, h("i", { style: { width: `${(frac * 100).toFixed(1)}%` } }))),
      miniDisplay(seat.tiles, lastCells.get(i)));
    });
    card.replaceChildren(h("h2", {}, view.mode === "solo" ? t("Player") : t("Players")), ...rows);
  }
}

/** "Place right of your blue 3, covering 1 task": a legal cell's name. */
function placeLabel(where, n) {
  return n ? tn("Place {where}, covering {n} task", "Place {where}, covering {n} tasks", n, { where }) : t("Place {where}", { where });
}

/** "Moon track 7 · 3 ahead": the marker's space (as numbered on the wheel) and its lead. */
function trackText(seat, i, behind) {
  const space = ((seat.time % 24) + 24) % 24;
  const ahead = seat.time - behind;
  return h("span", { class: "track-pos", "data-testid": `track-pos-${i}`, title: t("Moon track space {space}; time spent {time}", { space, time: seat.time }) },
    ...withNodes(t("Moon track {space}"), { space: h("b", {}, String(space)) }), ahead > 0 ? " · " + t("{n} ahead", { n: ahead }) : "");
}

function miniDisplay(tiles, lastCell) {
  const svg = s("svg", { class: "mini", viewBox: "0 0 60 44", "aria-hidden": "true" });
  if (!tiles.length) return svg;
  const xs = tiles.map((t) => t.cell[0]);
  const ys = tiles.map((t) => t.cell[1]);
  const x0 = Math.min(...xs);
  const y0 = Math.min(...ys);
  const w = Math.max(...xs) - x0 + 1;
  const hh = Math.max(...ys) - y0 + 1;
  const size = Math.min(58 / w, 42 / hh, 12);
  const ox = (60 - w * size) / 2;
  const oy = (44 - hh * size) / 2;
  for (const t of tiles) {
    const info = tileInfo(t.tile);
    const last = `${t.cell[0]},${t.cell[1]}` === lastCell;
    svg.append(s("rect", { class: last ? "mini-last" : null, x: ox + (t.cell[0] - x0) * size + 0.5, y: oy + (t.cell[1] - y0) * size + 0.5, width: size - 1, height: size - 1, rx: size * 0.15, fill: info ? COLORS[info.color].fill : "#888" }));
  }
  return svg;
}

export default nova;
