// A game's interactive tutorial (/learn/<game>): the server's scripted lesson
// (server/tutorial_api.py) played on the game's own board. Each step explains and asks
// for one move, which the server checks against the step and the rules; a wrong try is
// explained in one sentence. The page keeps {step, played} in this browser, so a reload
// resumes where the learner was (the server replays the lesson to it).
import { t } from "./i18n.js";
import { announce } from "./announce.js";
import { api, capitalise, gameTypes, partsText } from "./api.js";
import { gameModule } from "./games.js";
import { GameScreen } from "./game.js";
import { chooseGame, rememberOffer } from "./lobby.js";
import { toast } from "./toast.js";
import { focusOn, h, offerColourSymbols } from "./util.js";

export const PROGRESS_KEY = "boardgames.tutorial.v1."; // + the game's name

/** What a step points at on a game's board: a panel it rings (``.lesson-focus``), a mark
 * (``.tut-mark``: a tile, a task, a button), a display cell, an outlined placement. The
 * first of them in the page's order is where the step's move begins. */
const TARGETS = ".lesson-focus, .tut-mark, [data-testid=tutorial-cell], [data-testid=lesson-outline]";
const NARROW = "(max-width: 900px)";

export async function showTutorial(root, gameName, navigate) {
  const types = await gameTypes();
  const type = types.find((ty) => ty.name === gameName);
  if (!type || !type.tutorial) {
    root.append(h("section", { class: "card narrow center", "data-testid": "lesson-missing" },
      h("h1", {}, t("No tutorial here")),
      h("p", {}, t("This game has no tutorial yet.")),
      h("a", { class: "btn primary", href: "/" }, t("Go to the lobby"))));
    return {};
  }
  const [mod, script] = await Promise.all([gameModule(type.name, type), api(`/api/tutorials/${encodeURIComponent(type.name)}`)]);
  offerColourSymbols(mod);
  rememberOffer(type.name); // opened once: the lobby offers it no more
  const lesson = new Lesson(root, mod, type, script, navigate);
  await lesson.resume();
  return { destroy: () => lesson.destroy() };
}

class Lesson {
  constructor(root, mod, type, script, navigate) {
    this.mod = mod;
    this.type = type;
    this.script = script;
    this.steps = script.steps;
    this.navigate = navigate;
    this.key = PROGRESS_KEY + type.name;
    this.step = 0;
    this.played = [];
    this.names = script.players.map((p) => partsText([p]));
    // the game's own page, fed with the lesson's positions; its moves come to this.attempt
    const conn = { request: (kind, body) => (kind === "act" ? this.attempt(body.action) : Promise.reject(new Error(kind))) };
    this.screen = new GameScreen(root, mod, { conn, type, navigate, lesson: true });
    this.panel = this.buildPanel();
    this.screen.el.classList.add("lesson-game");
    this.narrow = window.matchMedia(NARROW);
    this.onWidth = () => this.placePanel();
    this.narrow.addEventListener("change", this.onWidth);
    this.placePanel();
    // its height, for the CSS: on a phone the lesson stays at the screen's top, so the
    // page scrolls what gets the focus to under it, and a board fits into the rest
    this.sizes = new ResizeObserver(() => document.documentElement.style.setProperty("--lesson-height", `${this.panel.offsetHeight}px`));
    this.sizes.observe(this.panel);
    this.onKey = (event) => this.onKeyDown(event);
    document.addEventListener("keydown", this.onKey);
  }

  destroy() {
    document.removeEventListener("keydown", this.onKey);
    this.narrow.removeEventListener("change", this.onWidth);
    this.sizes.disconnect();
    document.documentElement.style.removeProperty("--lesson-height");
    this.screen.destroy();
  }

  /** Beside the board, first in the right-hand column; on a narrow screen first under the
   * banner, before the board, in the page's order as on the screen (so the focus goes
   * from the step's text and buttons on to the board). */
  placePanel() {
    if (this.narrow.matches) this.screen.banner.after(this.panel);
    else this.screen.el.querySelector(".col-right").prepend(this.panel);
  }

  buildPanel() {
    this.counter = h("p", { class: "lesson-counter", "data-testid": "lesson-counter" });
    this.text = h("p", { class: "lesson-text", "data-testid": "lesson-text", tabindex: "-1", id: "lesson-text" });
    this.wrong = h("p", { class: "lesson-wrong", "data-testid": "lesson-wrong", hidden: true });
    this.goOnNote = h("p", { class: "muted lesson-keys", "data-testid": "lesson-keys" });
    this.backBtn = h("button", { type: "button", class: "btn ghost", "data-testid": "lesson-back", onclick: () => this.back() }, t("Back"));
    this.nextBtn = h("button", { type: "button", class: "btn primary", "data-testid": "lesson-next", "aria-describedby": "lesson-text", onclick: () => this.goOn() }, t("Go on"));
    this.restartBtn = h("button", { type: "button", class: "btn ghost", "data-testid": "lesson-restart", onclick: () => this.restart() }, t("Start over"));
    this.done = h("div", { class: "lesson-done", "data-testid": "lesson-done", hidden: true },
      h("p", {}, t("Well done: you know the rules of {game}.", { game: this.type.title })),
      h("a", { class: "btn primary", href: "/", "data-testid": "lesson-play", onclick: () => chooseGame(this.type.name) }, t("Play a real game")));
    return h("section", { class: "card lesson", "data-testid": "lesson", "aria-labelledby": "lesson-title", "data-count": String(this.steps.length) },
      h("h2", { id: "lesson-title" }, t("Learn to play {game}", { game: this.type.title })),
      this.counter, this.text, this.wrong, this.goOnNote,
      h("div", { class: "row wrap lesson-buttons" }, this.backBtn, this.nextBtn, this.restartBtn),
      this.done,
      h("p", { class: "lesson-leave" },
        h("a", { href: "/", "data-testid": "lesson-leave", onclick: () => chooseGame(this.type.name) }, t("Leave the tutorial and play a real game"))));
  }

  /** The stored progress, replayed by the server; from the start if it refuses it. */
  async resume() {
    const saved = this.load();
    try {
      await this.show(saved.step, saved.played);
    } catch {
      await this.show(0, []);
    }
  }

  load() {
    try {
      const saved = JSON.parse(localStorage.getItem(this.key) || "null");
      if (saved && Number.isInteger(saved.step) && Array.isArray(saved.played)) return saved;
    } catch { /* a broken entry: start again */ }
    return { step: 0, played: [] };
  }

  save() {
    try {
      localStorage.setItem(this.key, JSON.stringify({ step: this.step, played: this.played }));
    } catch { /* this page only */ }
  }

  /** Step ``step`` with the learner's moves ``played``: its position from the server. */
  async show(step, played) {
    const answer = await api(`/api/tutorials/${encodeURIComponent(this.type.name)}/position`, { method: "POST", body: { step, played } });
    this.enter(step, played, answer.state);
  }

  enter(step, played, state) {
    this.step = step;
    this.played = played;
    this.save();
    this.panel.dataset.ready = "false";
    const seats = state.game.seats.map((s, i) => ({ ...s, name: this.names[i] ?? s.name }));
    this.screen.update({ ...state, game: { ...state.game, seats } });
    this.render();
    this.panel.dataset.ready = "true";
  }

  current() {
    return this.steps[this.step] || null;
  }

  render() {
    const step = this.current();
    const finished = step === null;
    this.panel.dataset.step = String(this.step);
    this.panel.dataset.key = finished ? "" : step.key;
    this.panel.dataset.kind = finished ? "done" : step.ask === null ? "info" : "action";
    this.counter.textContent = finished ? t("Done") : t("Step {n} of {count}", { n: this.step + 1, count: this.steps.length });
    this.text.textContent = finished ? "" : capitalise(partsText([step.say]));
    this.text.hidden = finished;
    this.hideWrong();
    this.nextBtn.hidden = finished || step.ask !== null;
    this.goOnNote.hidden = this.nextBtn.hidden;
    this.goOnNote.textContent = t("Space or Enter to go on.");
    this.backBtn.hidden = this.step === 0;
    this.done.hidden = !finished;
    if (finished) {
      announce(t("Well done: you know the rules of {game}.", { game: this.type.title }));
      focusOn(this.done.querySelector("a"));
      return;
    }
    // A move is made on the board: it gets the focus, and the step's text is announced.
    // An info step's text gets the focus itself (a screen reader reads it out then).
    if (step.ask !== null && this.screen.board.focusTurn?.()) {
      announce(this.text.textContent);
    } else {
      focusOn(this.text);
      if (!this.narrow.matches) this.showTarget();
    }
    if (this.narrow.matches) this.showTargetBelow();
  }

  /** On a wide screen, what the step points at (the board's ``.lesson-focus``) scrolled
   * into view when it lies beyond the fold. */
  showTarget() {
    this.screen.el.querySelector(".lesson-focus")?.scrollIntoView({ block: "nearest", behavior: "instant" });
  }

  /** On a narrow screen the lesson stays at the screen's top (CSS: sticky): what the step
   * points at is scrolled to just under it, unless its top shows there already. Instant:
   * a tap during a smooth scroll would count as a drag. */
  showTargetBelow() {
    const target = this.screen.el.querySelector(TARGETS);
    if (!target) return;
    const box = target.getBoundingClientRect();
    const below = this.panel.getBoundingClientRect().bottom + 8;
    if (box.top >= below && box.top + Math.min(box.height, 64) <= window.innerHeight) return;
    window.scrollBy(0, box.top - this.panel.offsetHeight - 8); // the lesson then sticks at the top
  }

  showWrong(explanation) {
    this.wrong.hidden = false;
    this.wrong.textContent = capitalise(partsText([explanation]));
    announce(this.wrong.textContent);
    // a long lesson scrolls inside its panel on a phone: the sentence into its view
    // (the panel's own scroll: the page's would stop under the lesson, scroll-padding-top)
    const over = this.wrong.getBoundingClientRect().bottom - this.panel.getBoundingClientRect().bottom;
    if (this.narrow.matches && over > 0) this.panel.scrollTop += over + 10;
  }

  hideWrong() {
    this.wrong.hidden = true;
    this.wrong.textContent = "";
  }

  /** The board's move: checked by the server. Right: the next step; wrong: why. */
  async attempt(action) {
    const step = this.current();
    if (!step || step.ask === null) return;
    let answer;
    try {
      answer = await api(`/api/tutorials/${encodeURIComponent(this.type.name)}/try`, { method: "POST", body: { step: this.step, played: this.played, action } });
    } catch (err) {
      toast(err.message, "error");
      return;
    }
    if (answer.correct) {
      this.enter(answer.step, answer.played, answer.state);
    } else {
      this.showWrong(answer.explanation);
      this.screen.board.update(this.screen.state); // the board's buttons as they were before the try
      if (this.narrow.matches) this.showTargetBelow(); // the try may have scrolled it away
    }
  }

  async goOn() {
    const step = this.current();
    if (!step || step.ask !== null) return;
    await this.move(this.step + 1, this.played);
  }

  async back() {
    if (this.step === 0) return;
    const before = this.steps[this.step - 1];
    const played = before.ask === null ? this.played : this.played.slice(0, -1);
    await this.move(this.step - 1, played);
  }

  async restart() {
    await this.move(0, []);
  }

  /** To another step at the learner's request; a failure (the server out of reach) is
   * said in a toast, and the lesson stays where it was. */
  async move(step, played) {
    try {
      await this.show(step, played);
    } catch (err) {
      toast(err.message, "error");
    }
  }

  /** Space or Enter goes on from an info step, unless a control has the focus (it takes
   * the key itself). */
  onKeyDown(event) {
    if (event.key !== " " && event.key !== "Enter") return;
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const step = this.current();
    if (!step || step.ask !== null) return;
    if (event.target.closest?.("button, a, input, select, textarea, [role=dialog], [role=group]")) return;
    event.preventDefault();
    this.goOn();
  }
}
