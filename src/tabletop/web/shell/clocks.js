// Real-time play (docs/web.md, "Real-time clocks"): each seat's clock on the game page,
// the new-game form's choice of a clock, and a game's time control in words.
//
// A state frame says how many milliseconds each seat has left as of the server's time
// of the frame, and whose clocks run (``clocks``). The page counts the running ones
// down from the moment the frame arrived, by its own monotonic clock: two pages differ
// by their network delays only, never by how their computers' clocks are set.
import { announce } from "./announce.js";
import { t, tn } from "./i18n.js";
import { h } from "./util.js";

/** Under this a clock shows tenths and is marked low. */
const LOW_MS = 10_000;
/** A player hears their own clock pass these, once each (not every second). */
const SAY_AT_MS = [60_000, 30_000, 10_000];
/** The presets of the new-game form: [base seconds, increment seconds]. */
const PRESETS = [[60, 0], [180, 2], [300, 3], [600, 5], [900, 10], [1800, 20]];
/** The bounds the server takes (server/clocks.py BASE_RANGE, INCREMENT_RANGE). */
const BASE_MINUTES = [1, 180];
const INCREMENT_SECONDS = [0, 180];

/** "4:05", "1:02:03"; under ten seconds "0:09.4". */
export function clockFace(ms) {
  const left = Math.max(0, ms);
  if (left < LOW_MS) return `0:0${(Math.floor(left / 100) / 10).toFixed(1)}`;
  const total = Math.ceil(left / 1000);
  const [hours, minutes, seconds] = [Math.floor(total / 3600), Math.floor((total % 3600) / 60), total % 60];
  const ss = String(seconds).padStart(2, "0");
  return hours ? `${hours}:${String(minutes).padStart(2, "0")}:${ss}` : `${minutes}:${ss}`;
}

function span(seconds) {
  return seconds % 60 === 0 ? t("{n} min", { n: seconds / 60 }) : t("{n} s", { n: seconds });
}

/** "5 min + 3 s a move" (or "5 min" without an increment). */
export function controlWords(base, increment) {
  return increment ? t("{base} + {increment} a move", { base: span(base), increment: t("{n} s", { n: increment }) }) : span(base);
}

/** A game's real-time clock in words, from its stored options (``null``: it has none):
 * "Clock: 5 min + 3 s a move; then the default bot plays for them". */
export function clockText(options, onTimeout) {
  const base = options?.clock_base;
  if (!base) return null;
  const control = t("Clock: {control}", { control: controlWords(base, options.clock_increment || 0) });
  const then = onTimeout === "abandon"
    ? t("whoever runs out of time loses (an unrated game is abandoned)")
    : t("then the default bot plays for whoever runs out of time");
  return `${control}; ${then}`;
}

/** The new-game form's choice of a clock: presets, custom, or none. ``value()`` is
 * ``null`` or ``{ base, increment }`` in seconds; ``onChange`` is told of each change.
 * ``required``: no "No clock" (a tournament's form), ``chosen`` the preset first shown
 * ("300+3"). */
export function clockField(onChange, { required = false, chosen = "" } = {}) {
  const select = h("select", { id: "clock-choice", "data-testid": "clock-choice" },
    required ? null : h("option", { value: "" }, t("No clock")),
    ...PRESETS.map(([base, increment]) => h("option", { value: `${base}+${increment}`, selected: `${base}+${increment}` === chosen }, controlWords(base, increment))),
    h("option", { value: "custom" }, t("Custom…")));
  const minutes = h("input", { type: "number", id: "clock-minutes", "data-testid": "clock-minutes", min: String(BASE_MINUTES[0]), max: String(BASE_MINUTES[1]), step: "1", value: "5", inputmode: "numeric" });
  const increment = h("input", { type: "number", id: "clock-increment", "data-testid": "clock-increment", min: String(INCREMENT_SECONDS[0]), max: String(INCREMENT_SECONDS[1]), step: "1", value: "3", inputmode: "numeric" });
  const custom = h("div", { class: "clock-custom", hidden: true },
    h("label", { class: "field", for: "clock-minutes" }, h("span", {}, t("Minutes each")), minutes),
    h("label", { class: "field", for: "clock-increment" }, h("span", {}, t("Seconds added per move")), increment));
  const el = h("div", { class: "clock-field" },
    h("label", { class: "field option-choice", for: "clock-choice" }, h("span", {}, t("Real-time clock (per player)")), select),
    custom);
  const changed = () => {
    custom.hidden = select.value !== "custom";
    onChange();
  };
  for (const input of [select, minutes, increment]) input.addEventListener("change", changed);
  const within = (value, [least, most]) => Math.min(most, Math.max(least, Math.round(Number(value) || 0)));
  function value() {
    if (!select.value) return null;
    if (select.value !== "custom") {
      const [base, inc] = select.value.split("+").map(Number);
      return { base, increment: inc };
    }
    return { base: within(minutes.value, BASE_MINUTES) * 60, increment: within(increment.value, INCREMENT_SECONDS) };
  }
  return { el, select, value };
}

/** The clocks of a real-time game on its page: one per seat with a clock, counting
 * down while it runs; a player hears their own pass a minute, 30 and 10 seconds. */
export class ClockPanel {
  constructor(seatName) {
    this.seatName = seatName;
    this.el = h("div", { class: "clock-panel", role: "group", "aria-label": t("Clocks"), "data-testid": "clocks" });
    this.frame = null;
    this.received = 0; // performance.now() when the frame came
    this.mine = [];
    this.said = new Map(); // seat: the thresholds its clock has passed (said or not)
    this.faces = new Map(); // seat: [row, time element]
    this.timer = null;
  }

  /** A new state: its clocks (none: the panel empties). */
  update(state) {
    this.frame = state.clocks || null;
    this.received = performance.now();
    this.mine = state.you;
    this.el.replaceChildren();
    this.faces.clear();
    if (!this.frame) return this.stop();
    const control = controlWords(this.frame.base, this.frame.increment);
    // what running out means, on hovering: "…; whoever runs out of time loses"
    const means = clockText({ clock_base: this.frame.base, clock_increment: this.frame.increment }, state.game.on_timeout);
    this.el.append(h("span", { class: "clock-control", title: means }, t("Clock: {control}", { control })));
    this.frame.left_ms.forEach((ms, seat) => {
      if (ms === null) return; // a bot's seat: no clock
      const time = h("span", { class: "clock-time", role: "timer", "data-testid": `clock-time-${seat}` });
      const row = h("div", { class: "clock", "data-testid": `clock-${seat}` },
        h("span", { class: "clock-name" }, this.seatName(seat)), time);
      this.faces.set(seat, [row, time]);
      this.el.append(row);
    });
    this.tick(true);
    if (this.frame.running.length && state.over !== true) this.start();
    else this.stop();
  }

  left(seat) {
    const ms = this.frame.left_ms[seat];
    if (!this.frame.running.includes(seat)) return ms;
    return Math.max(0, ms - (performance.now() - this.received));
  }

  tick(fresh = false) {
    if (!this.el.isConnected && !fresh) return this.stop(); // gone with its screen
    for (const [seat, [row, time]] of this.faces) {
      const ms = this.left(seat);
      const running = this.frame.running.includes(seat);
      const out = this.frame.flagged.includes(seat) || ms <= 0;
      time.textContent = clockFace(ms);
      time.dataset.ms = String(Math.round(ms));
      const name = this.seatName(seat);
      time.setAttribute("aria-label", out ? t("{name}: out of time", { name }) : t("{names}: {time} left", { names: name, time: clockFace(ms) }));
      row.classList.toggle("running", running);
      row.classList.toggle("low", ms < LOW_MS);
      row.classList.toggle("out", out);
      row.title = out ? t("out of time") : running ? t("running") : "";
      this.sayPassing(seat, ms, fresh);
    }
  }

  /** Once per threshold a player's own clock passes, a polite announcement; a page
   * opened below one says nothing of it (``fresh``: the frame just came). */
  sayPassing(seat, ms, fresh) {
    if (!this.mine.includes(seat)) return;
    const passed = this.said.get(seat) || new Set();
    this.said.set(seat, passed);
    for (const at of SAY_AT_MS) {
      if (ms > at) passed.delete(at); // the increment took it back above
      else if (!passed.has(at)) {
        passed.add(at);
        if (!fresh && this.frame.running.includes(seat)) {
          announce(tn("{n} second left on your clock", "{n} seconds left on your clock", at / 1000));
        }
      }
    }
  }

  start() {
    if (this.timer === null) this.timer = setInterval(() => this.tick(), 100);
  }

  stop() {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
  }
}
