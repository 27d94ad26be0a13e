// Small DOM helpers shared by the shell and the game modules.

import { ordinal as localOrdinal, t } from "./i18n.js";

const SVG_NS = "http://www.w3.org/2000/svg";

function put(el, attrs, children) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") el.setAttribute("class", value);
    else if (key === "text") el.textContent = value;
    else if (key === "style" && typeof value === "object") {
      for (const [prop, v] of Object.entries(value)) {
        if (prop.startsWith("--")) el.style.setProperty(prop, v);
        else el.style[prop] = v;
      }
    }
    else if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(el.dataset, value);
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

// The last kind of pointer that pressed anything: a hybrid laptop tapped with a finger
// is worked by touch even though its primary pointer is a fine one (and emulated touch
// screens may report their pointer late).
let lastPress = null;
if (typeof window !== "undefined") {
  window.addEventListener("pointerdown", (e) => { lastPress = e.pointerType || null; }, { capture: true, passive: true });
}

/** Whether the player works this screen by fingers: what pressed last, else the primary pointer. */
export function touchScreen() {
  if (lastPress === "touch") return true;
  if (lastPress === "mouse" || lastPress === "pen") return false;
  return window.matchMedia("(pointer: coarse)").matches;
}

/** h("div", {class: "x", onclick: f}, child, ...) — an HTML element. */
export function h(tag, attrs, ...children) {
  return put(document.createElement(tag), attrs, children);
}

/** s("circle", {r: 3}) — an SVG element. */
export function s(tag, attrs, ...children) {
  return put(document.createElementNS(SVG_NS, tag), attrs, children);
}

/** The small "bot" mark after a bot account's name (a program playing through the bot
 * API): text, so a screen reader says it with the name; its title says what it means. */
export function botBadge() {
  return h("span", { class: "bot-badge", "data-testid": "bot-badge", title: t("A bot account: a program that plays through the bot API") }, t("bot"));
}

/** A name and, for a bot account, its badge: for lists of nodes. */
export function withBotBadge(name, botAccount) {
  return botAccount ? [name, " ", botBadge()] : [name];
}

export function clear(el) {
  while (el.firstChild) el.firstChild.remove();
  return el;
}

export function plural(n, word, many) {
  return `${n} ${n === 1 ? word : many || word + "s"}`;
}

/** A place in the page's language: "2nd", "2.", "2e". */
export function ordinal(n) {
  return localOrdinal(n);
}

export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = h("textarea", { style: { position: "fixed", opacity: "0" } });
    area.value = text;
    document.body.append(area);
    area.select();
    let ok = false;
    try { ok = document.execCommand("copy"); } catch { ok = false; }
    area.remove();
    return ok;
  }
}

/** The top bar's colour-symbols switch is offered only where the game draws the symbols
 * (its module's ``colourSymbols``, whose ``title`` says which); elsewhere it would do nothing. */
export function offerColourSymbols(mod) {
  const button = document.getElementById("colour-symbols");
  if (!button) return;
  const symbols = mod && mod.colourSymbols;
  button.hidden = !symbols;
  if (symbols && symbols.title) button.title = symbols.title;
}

const sheets = new Map(); // href → promise: each stylesheet is added once

/** Adds the stylesheet at ``url`` to the page; resolves once it applies, so nothing is drawn
 * unstyled. A failed load resolves too: the page then works, if plainly, rather than not at all. */
export function stylesheet(url) {
  const href = String(url);
  if (!sheets.has(href)) {
    sheets.set(href, new Promise((resolve) => {
      document.head.append(h("link", { rel: "stylesheet", href, onload: resolve, onerror: resolve }));
    }));
  }
  return sheets.get(href);
}

/** The module ``load()`` imports. After an upgrade this page's version of the code is gone
 * from the server (only the current one is served): a failed load says what helps. */
export async function loadCode(load) {
  try {
    return await load();
  } catch (err) {
    throw new Error(t("The page's code could not be loaded ({reason}). Reload the page: the server may have been updated.", { reason: err.message }), { cause: err });
  }
}

// -- focus ---------------------------------------------------------------------------
// The pages redraw whole parts of themselves (a state, a chosen tile): the element that
// had focus is replaced, and focus would fall to <body>. Each focusable control carries
// a data-testid, its name across redraws: focusName() before, refocus() after.

/** True when nothing useful has focus: <body>, <main>, or an element that was removed
 * or hidden by a redraw. */
export function focusLost() {
  const el = document.activeElement;
  if (!el || el === document.body || el.id === "app" || !el.isConnected) return true;
  return typeof el.checkVisibility === "function" && !el.checkVisibility();
}

/** The data-testid of the focused element, when it lies inside ``root``. */
export function focusName(root) {
  const el = document.activeElement;
  if (!el || el === document.body || !root.contains(el)) return null;
  return el.getAttribute("data-testid");
}

/** Focus ``el`` (without scrolling: each page decides what to bring into view); true if
 * it took focus (never a hidden element, even one that still holds focus). */
export function focusOn(el) {
  if (!el || !el.isConnected) return false;
  if (typeof el.checkVisibility === "function" && !el.checkVisibility()) return false;
  el.focus({ preventScroll: true });
  return document.activeElement === el;
}

/** After a redraw: focus the element of ``root`` named ``name`` (a data-testid) if focus
 * was lost; true if focus is on it. */
export function refocus(root, name) {
  if (!name || !focusLost()) return false;
  return focusOn(root.querySelector(`[data-testid="${CSS.escape(name)}"]`));
}

/** The controls of ``root`` that Tab stops at, in order (shown, enabled, not -1). */
export function tabStops(root) {
  const all = root.querySelectorAll("a[href], button, input, select, textarea, summary, [tabindex]");
  return [...all].filter((el) => !el.disabled && el.tabIndex >= 0 && el.getAttribute("tabindex") !== "-1"
    && (typeof el.checkVisibility !== "function" || el.checkVisibility()));
}

/**
 * Make ``dialog`` (inside ``overlay``, a child of <body>) modal, as its aria-modal says:
 * the rest of the page becomes inert (out of reach of Tab, a pointer and a screen
 * reader's reading cursor; the live regions stay, so announcements go on), and Tab and
 * Shift+Tab go round the dialog's own controls instead of leaving it for the browser's.
 * Returns ``release()``, which undoes both (call it when the dialog closes).
 */
export function trapFocus(overlay, dialog) {
  const keep = (el) => el === overlay || el.inert || el.matches("script, [aria-live], [role=status]");
  const others = [...document.body.children].filter((el) => !keep(el));
  for (const el of others) el.inert = true;
  const onKey = (e) => {
    if (e.key !== "Tab" || e.altKey || e.ctrlKey || e.metaKey) return;
    const stops = tabStops(dialog);
    if (!stops.length) {
      e.preventDefault();
      return;
    }
    const at = stops.indexOf(document.activeElement);
    // from the last control on, or from the headline (not a tab stop) backwards: round
    if (e.shiftKey && at <= 0) {
      e.preventDefault();
      focusOn(stops[stops.length - 1]);
    } else if (!e.shiftKey && at === stops.length - 1) {
      e.preventDefault();
      focusOn(stops[0]);
    }
  };
  overlay.addEventListener("keydown", onKey);
  return () => {
    overlay.removeEventListener("keydown", onKey);
    for (const el of others) el.inert = false;
  };
}

/**
 * A roving tabindex over ``items`` (elements, in order): only ``current`` (else the first)
 * is in the tab order; the arrow keys move focus between them, Home and End to the ends.
 * ``step(index, key, items)`` gives the index an arrow key leads to (default: Right and
 * Down the next, Left and Up the previous, wrapping), null when that key is not ours.
 * ``onMove(el)`` is called after a key moved focus.
 */
export function rove(items, { current = null, step = null, onMove = null } = {}) {
  if (!items.length) return;
  const start = items.includes(current) ? current : items[0];
  for (const el of items) el.setAttribute("tabindex", el === start ? "0" : "-1");
  const next = step || ((i, key, all) => {
    if (key === "ArrowRight" || key === "ArrowDown") return (i + 1) % all.length;
    if (key === "ArrowLeft" || key === "ArrowUp") return (i - 1 + all.length) % all.length;
    return null;
  });
  items.forEach((el, i) => {
    el.addEventListener("keydown", (e) => {
      if (e.altKey || e.ctrlKey || e.metaKey) return;
      const to = e.key === "Home" ? 0 : e.key === "End" ? items.length - 1 : next(i, e.key, items);
      if (to === null || to === undefined) return;
      e.preventDefault();
      e.stopPropagation(); // not also a page shortcut (the replay's arrow keys)
      for (const other of items) other.setAttribute("tabindex", other === items[to] ? "0" : "-1");
      focusOn(items[to]);
      onMove?.(items[to]);
    });
    el.addEventListener("focus", () => {
      for (const other of items) other.setAttribute("tabindex", other === el ? "0" : "-1");
    });
  });
}
