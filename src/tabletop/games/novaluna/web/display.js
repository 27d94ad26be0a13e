// A player's display: tiles on a grid in a pannable, zoomable SVG (drag, wheel, pinch,
// fit button), legal cells for the selected tile, and the preview of a placement.
import { t } from "../../shell/i18n.js";
import { h, rove, s } from "../../shell/util.js";
import { defs, drawTile, TILE } from "./tiles.js";

export const PITCH = 108; // cell size: a tile plus the gap
// On a phone (one-column layout), fitting never shrinks a tile below 70 px (its task
// dots stay ≥ 7.8 px): a larger display is panned (drag) instead, and the fit button
// still shows all of it on request. A desktop fits all, however large the display.
const LEGIBLE = 0.7;
const PHONE = "(max-width: 900px)";

export class DisplayView {
  constructor(container, handlers) {
    this.handlers = handlers; // onEnter(key), onLeave(key), onTap(key, pointerType), onFocus(key)
    this.scale = 1;
    this.tx = 0;
    this.ty = 0;
    this.userMoved = false;
    this.overview = false; // the player asked for the whole display (fit button)
    this.bounds = null;
    this.svg = s("svg", { class: "display-svg", "data-testid": "display" });
    this.world = s("g", { class: "world" });
    this.svg.append(defs(), this.world);
    this.zoomIn = h("button", { class: "icon-btn", title: t("Zoom in"), "aria-label": t("Zoom in"), onclick: () => this.zoomCentre(1.25) }, "+");
    this.zoomOut = h("button", { class: "icon-btn", title: t("Zoom out"), "aria-label": t("Zoom out"), onclick: () => this.zoomCentre(0.8) }, "−");
    this.fitBtn = h("button", { class: "icon-btn fit", title: t("Show the whole display"), "aria-label": t("Show the whole display"), "data-testid": "fit", onclick: () => { this.overview = true; this.userMoved = false; this.fit(true); } }, "⤢");
    this.empty = h("div", { class: "display-empty", hidden: true });
    this.panNote = h("div", { class: "pan-note", "data-testid": "pan-note", hidden: true }, t("Drag to see more · ⤢ shows all"));
    this.frame = h("div", { class: "display-frame" }, this.svg, this.empty, this.panNote,
      h("div", { class: "zoom-tools" }, this.zoomIn, this.zoomOut, this.fitBtn));
    container.append(this.frame);
    this.installGestures();
    this.resize = new ResizeObserver(() => {
      if (!this.userMoved) this.fit(false);
    });
    this.resize.observe(this.svg);
  }

  destroy() {
    this.resize.disconnect();
    window.removeEventListener("pointermove", this.onMove);
    window.removeEventListener("pointerup", this.onUp);
    window.removeEventListener("pointercancel", this.onUp);
  }

  /**
   * tiles: [{cell, tile, covered}], owner: colour, cells: [{key, cell, label}], last: "x,y",
   * fresh: Map "x,y" → Set(task) (covered by the last move), hinted: "x,y",
   * chosen: "x,y" (tapped cell waiting for confirmation), current: "x,y" (the cell in the
   * tab order; the arrow keys move between cells), marked: "x,y" (the tile a move laid,
   * outlined and kept in view: the analysis's boards), lessonCell: "x,y" (the cell a tutorial
   * step points at), emptyText.
   */
  render(model) {
    const world = this.world;
    while (world.firstChild) world.firstChild.remove();
    const tileLayer = s("g", { class: "tiles" });
    const cellLayer = s("g", { class: "cells" });
    const keys = [];
    const cellEls = [];
    for (const t of model.tiles) {
      const key = `${t.cell[0]},${t.cell[1]}`;
      keys.push(t.cell);
      const g = s("g", { class: `placed${model.last === key ? " last" : ""}`, transform: `translate(${t.cell[0] * PITCH} ${t.cell[1] * PITCH})`, "data-cell": key },
        model.last === key ? s("rect", { class: "last-glow", x: -5, y: -5, width: TILE + 10, height: TILE + 10, rx: 15 }) : null,
        drawTile(t.tile, { covered: t.covered, owner: model.owner, cell: t.cell, fresh: model.fresh?.get(key) }),
        model.marked === key ? s("rect", { class: "move-mark", "data-testid": "move-highlight", "data-cells": key, x: -6, y: -6, width: TILE + 12, height: TILE + 12, rx: 16 }) : null);
      tileLayer.append(g);
    }
    for (const c of model.cells || []) {
      keys.push(c.cell);
      const classes = ["cell"];
      if (model.hinted === c.key) classes.push("hinted");
      if (model.chosen === c.key) classes.push("chosen");
      const g = s("g", { class: classes.join(" "), transform: `translate(${c.cell[0] * PITCH} ${c.cell[1] * PITCH})`, "data-testid": `cell-${c.key}`, "data-cell": c.key, role: "button", "aria-label": c.label || t("Place at {cell}", { cell: c.key }) },
        s("rect", { class: "cell-box", x: 3, y: 3, width: TILE - 6, height: TILE - 6, rx: 10 }),
        s("path", { class: "cell-plus", d: "M 50 38 V 62 M 38 50 H 62" }));
      g.addEventListener("pointerenter", (e) => { if (e.pointerType === "mouse") this.handlers.onEnter(c.key); });
      g.addEventListener("pointerleave", (e) => { if (e.pointerType === "mouse") this.handlers.onLeave(c.key); });
      g.addEventListener("click", (e) => this.handlers.onTap(c.key, this.lastPointerType || "mouse", e));
      // Keyboard focus previews the cell (a pointer's focus does not: it points instead).
      g.addEventListener("focus", () => {
        this.handlers.onFocus?.(c.key);
        if (g.matches(":focus-visible")) this.handlers.onEnter(c.key);
      });
      g.addEventListener("blur", () => this.handlers.onLeave(c.key));
      g.addEventListener("keydown", (e) => {
        if (e.key === "Enter" || e.key === " ") {
          e.preventDefault();
          this.handlers.onTap(c.key, "keyboard", e);
        }
      });
      cellLayer.append(g);
      cellEls.push({ g, x: c.cell[0], y: c.cell[1], key: c.key });
    }
    // Reading order (rows top down, each left to right): Left/Right step through it,
    // Up/Down go to the nearest cell in the nearest row above/below.
    cellEls.sort((a, b) => a.y - b.y || a.x - b.x);
    rove(cellEls.map((c) => c.g), {
      current: cellEls.find((c) => c.key === model.current)?.g,
      step: (i, key) => stepCell(cellEls, i, key),
    });
    if (model.hinted && !(model.cells || []).some((c) => c.key === model.hinted)) {
      const [x, y] = model.hinted.split(",").map(Number);
      keys.push([x, y]);
      cellLayer.append(s("g", { class: "cell hinted ghost-hint", transform: `translate(${x * PITCH} ${y * PITCH})` },
        s("rect", { class: "cell-box", x: 3, y: 3, width: TILE - 6, height: TILE - 6, rx: 10 })));
    }
    if (model.lessonCell) { // a tutorial step points at this cell (kept in view)
      const [x, y] = model.lessonCell.split(",").map(Number);
      keys.push([x, y]);
      cellLayer.append(s("rect", { class: "tut-cell", "data-testid": "tutorial-cell", "data-cell": model.lessonCell, transform: `translate(${x * PITCH} ${y * PITCH})`, x: -4, y: -4, width: TILE + 8, height: TILE + 8, rx: 14 }));
    }
    this.ghostLayer = s("g", { class: "ghost-layer" });
    world.append(tileLayer, cellLayer, this.ghostLayer);
    this.owner = model.owner;
    this.empty.hidden = !(model.emptyText && !model.tiles.length && !(model.cells || []).length);
    this.empty.textContent = model.emptyText || "";
    this.frame.style.setProperty("--owner", model.owner || "#fff");
    // bounds: the tiles and cells, with a margin
    let bounds;
    if (keys.length) {
      const xs = keys.map((k) => k[0]);
      const ys = keys.map((k) => k[1]);
      bounds = { x0: Math.min(...xs), y0: Math.min(...ys), x1: Math.max(...xs), y1: Math.max(...ys) };
    } else bounds = { x0: 0, y0: 0, x1: 0, y1: 0 };
    let changed = !this.bounds || ["x0", "y0", "x1", "y1"].some((k) => this.bounds[k] !== bounds[k]) || model.identity !== this.identity;
    if (model.identity !== this.identity) this.userMoved = this.overview = false;
    changed = changed || (model.marked || null) !== this.markedKey;
    this.identity = model.identity;
    this.bounds = bounds;
    this.markedKey = model.marked || null;
    this.marked = model.marked ? model.marked.split(",").map(Number) : null;
    if (changed && !this.userMoved) this.fit(false);
    else this.apply();
  }

  /** Show what placing ``tile`` at cell ``key`` would do: ``covers`` = [[x, y, task]]. */
  setPreview(key, tile, covers) {
    for (const el of this.world.querySelectorAll(".task.preview")) el.classList.remove("preview");
    for (const el of this.world.querySelectorAll(".cell.previewing")) el.classList.remove("previewing");
    if (!this.ghostLayer) return;
    while (this.ghostLayer.firstChild) this.ghostLayer.firstChild.remove();
    if (key === null || key === undefined) return;
    const [x, y] = key.split(",").map(Number);
    const own = new Set();
    for (const [cx, cy, i] of covers) {
      if (cx === x && cy === y) own.add(i);
      else this.world.querySelector(`.tiles [data-task="${cx},${cy},${i}"]`)?.classList.add("preview");
    }
    this.world.querySelector(`.cells [data-cell="${key}"]`)?.classList.add("previewing");
    this.ghostLayer.append(s("g", { class: "ghost-tile", transform: `translate(${x * PITCH} ${y * PITCH})` },
      drawTile(tile, { covered: [], owner: this.owner, cell: [x, y], preview: own }),
      s("rect", { class: "ghost-outline", x: -4, y: -4, width: TILE + 8, height: TILE + 8, rx: 14 })));
  }

  /** Centre the display in the frame, as large as fits but not below ``LEGIBLE`` unless
   * ``all`` or the player asked for the whole display (``overview``). */
  fit(animate, all = false) {
    const b = this.bounds || { x0: 0, y0: 0, x1: 0, y1: 0 };
    const w = this.svg.clientWidth || 600;
    const hgt = this.svg.clientHeight || 400;
    const pad = 20;
    const tools = 50; // the zoom buttons, bottom right
    const ww = (b.x1 - b.x0) * PITCH + TILE;
    const wh = (b.y1 - b.y0) * PITCH + TILE;
    const whole = Math.max(0.12, Math.min(1.25, (w - 2 * pad) / ww, (hgt - 2 * pad - tools) / wh));
    const floor = all || this.overview || !window.matchMedia(PHONE).matches ? 0 : LEGIBLE;
    const scale = Math.max(whole, floor);
    this.panNote.hidden = scale <= whole;
    this.scale = scale;
    this.tx = w / 2 - (b.x0 * PITCH + ww / 2) * scale;
    this.ty = (hgt - tools) / 2 - (b.y0 * PITCH + wh / 2) * scale;
    if (this.marked) this.keepInView(this.marked, w, hgt - tools, pad);
    this.world.classList.toggle("animate", !!animate);
    this.apply();
  }

  /** Pan the least that brings the tile at ``cell`` inside a ``w`` × ``hgt`` frame, ``pad`` from its edges. */
  keepInView([x, y], w, hgt, pad) {
    const left = this.tx + x * PITCH * this.scale;
    const top = this.ty + y * PITCH * this.scale;
    const size = TILE * this.scale;
    this.tx += Math.max(0, pad - left) - Math.max(0, left + size - (w - pad));
    this.ty += Math.max(0, pad - top) - Math.max(0, top + size - (hgt - pad));
  }

  apply() {
    this.world.setAttribute("transform", `translate(${this.tx.toFixed(2)} ${this.ty.toFixed(2)}) scale(${this.scale.toFixed(4)})`);
  }

  zoomAt(px, py, factor) {
    const scale = Math.max(0.12, Math.min(3, this.scale * factor));
    const f = scale / this.scale;
    this.tx = px - (px - this.tx) * f;
    this.ty = py - (py - this.ty) * f;
    this.scale = scale;
    this.userMoved = true;
    this.world.classList.remove("animate");
    this.apply();
  }

  zoomCentre(factor) {
    this.zoomAt(this.svg.clientWidth / 2, this.svg.clientHeight / 2, factor);
  }

  installGestures() {
    const svg = this.svg;
    const pointers = new Map();
    let start = null;
    let dragging = false;
    let pinch = null;
    let suppress = false;
    const local = (e) => {
      const r = svg.getBoundingClientRect();
      return [e.clientX - r.left, e.clientY - r.top];
    };
    svg.addEventListener("pointerdown", (e) => {
      this.lastPointerType = e.pointerType || "mouse";
      if (e.button !== 0 && e.pointerType === "mouse") return;
      pointers.set(e.pointerId, local(e));
      if (pointers.size === 1) {
        start = { p: local(e), tx: this.tx, ty: this.ty };
        dragging = false;
      } else if (pointers.size === 2) {
        const [a, b] = [...pointers.values()];
        pinch = { d: Math.hypot(a[0] - b[0], a[1] - b[1]), scale: this.scale, mid: [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2], tx: this.tx, ty: this.ty };
        dragging = true;
      }
    });
    this.onMove = (e) => {
      if (!pointers.has(e.pointerId)) return;
      pointers.set(e.pointerId, local(e));
      if (pinch && pointers.size >= 2) {
        const [a, b] = [...pointers.values()];
        const d = Math.hypot(a[0] - b[0], a[1] - b[1]);
        const scale = Math.max(0.12, Math.min(3, pinch.scale * (d / pinch.d)));
        const mid = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
        const f = scale / pinch.scale;
        this.scale = scale;
        this.tx = mid[0] - (pinch.mid[0] - pinch.tx) * f;
        this.ty = mid[1] - (pinch.mid[1] - pinch.ty) * f;
        this.userMoved = true;
        this.apply();
        return;
      }
      if (!start) return;
      const p = local(e);
      const dx = p[0] - start.p[0];
      const dy = p[1] - start.p[1];
      if (!dragging && Math.hypot(dx, dy) > 6) {
        dragging = true;
        svg.classList.add("dragging");
        this.world.classList.remove("animate");
      }
      if (dragging) {
        this.tx = start.tx + dx;
        this.ty = start.ty + dy;
        this.userMoved = true;
        this.apply();
      }
    };
    this.onUp = (e) => {
      if (!pointers.has(e.pointerId)) return;
      pointers.delete(e.pointerId);
      if (pointers.size < 2) pinch = null;
      if (pointers.size === 0) {
        if (dragging) {
          suppress = true;
          setTimeout(() => { suppress = false; }, 0);
        }
        dragging = false;
        start = null;
        svg.classList.remove("dragging");
      } else if (pointers.size === 1) {
        const [p] = [...pointers.values()];
        start = { p, tx: this.tx, ty: this.ty };
      }
    };
    window.addEventListener("pointermove", this.onMove);
    window.addEventListener("pointerup", this.onUp);
    window.addEventListener("pointercancel", this.onUp);
    svg.addEventListener("click", (e) => {
      if (suppress) {
        e.stopPropagation();
        e.preventDefault();
      }
    }, true);
    svg.addEventListener("wheel", (e) => {
      e.preventDefault();
      const [x, y] = local(e);
      const delta = e.deltaMode === 1 ? e.deltaY * 16 : e.deltaY;
      this.zoomAt(x, y, Math.exp(-delta * 0.0015));
    }, { passive: false });
  }
}

/** Where an arrow key leads from cell ``i`` of ``cells`` (in reading order); null for
 * other keys. */
function stepCell(cells, i, key) {
  const n = cells.length;
  if (key === "ArrowRight") return (i + 1) % n;
  if (key === "ArrowLeft") return (i - 1 + n) % n;
  if (key !== "ArrowUp" && key !== "ArrowDown") return null;
  const { x, y } = cells[i];
  const rows = cells.filter((c) => (key === "ArrowUp" ? c.y < y : c.y > y));
  if (!rows.length) return i;
  const row = key === "ArrowUp" ? Math.max(...rows.map((c) => c.y)) : Math.min(...rows.map((c) => c.y));
  const inRow = rows.filter((c) => c.y === row);
  const best = inRow.reduce((a, c) => (Math.abs(c.x - x) < Math.abs(a.x - x) ? c : a));
  return cells.indexOf(best);
}
