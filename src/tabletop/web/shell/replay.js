// The replay viewer: frames of a finished game (uploaded record or stored game),
// stepped with buttons, a slider and the arrow keys, drawn by the game's own board;
// a stored game can show a second one under its board, stepped with it (replay_beside.js).
import { t, tn } from "./i18n.js";
import { announce } from "./announce.js";
import { api, gameTypes, partsText } from "./api.js";
import { gameModule } from "./games.js";
import { GameScreen } from "./game.js";
import { analysisPanel } from "./analysis.js";
import { BesideBoard, fetchBeside, frameState, isBesideKind } from "./replay_beside.js";
import { toast } from "./toast.js";
import { clear, h, offerColourSymbols, s } from "./util.js";

export async function showReplay(root, gameId, navigate) {
  const page = h("div", { class: "replay-page" });
  root.append(page);
  let viewer = null;

  async function open(data, label) {
    viewer?.destroy();
    clear(page);
    const types = await gameTypes();
    const type = types.find((t) => t.name === data.game) || types[0];
    const mod = await gameModule(type.name, type);
    offerColourSymbols(mod);
    viewer = new ReplayViewer(page, mod, type, data, label, gameId ? null : () => { viewer.destroy(); viewer = null; clear(page); page.append(uploadCard(open)); }, gameId);
  }

  if (gameId) {
    const loading = h("section", { class: "card narrow center loading" }, h("div", { class: "spinner" }), h("p", {}, t("Loading the replay…")));
    page.append(loading);
    try {
      const data = await api(`/api/games/${encodeURIComponent(gameId)}/replay`);
      await open(data, t("Game {id}", { id: gameId }));
      // ?beside=hindsight, or ?beside=bot&day=YYYY-MM-DD (the daily page's link)
      const asked = new URLSearchParams(location.search);
      if (isBesideKind(asked.get("beside"))) viewer.openBeside(asked.get("beside"), asked.get("day"));
    } catch (err) {
      clear(page);
      page.append(h("section", { class: "card narrow center", "data-testid": "replay-error" },
        h("h1", {}, t("No replay here")),
        h("p", { class: "lead" }, err.message),
        h("div", { class: "row center" },
          h("a", { class: "btn", href: `/g/${gameId}` }, t("Open the game")),
          h("a", { class: "btn primary", href: "/replay" }, t("Upload a record")))));
    }
  } else {
    page.append(uploadCard(open));
  }
  return { destroy: () => viewer?.destroy() };
}

function uploadCard(open) {
  const input = h("input", { type: "file", accept: ".json,application/json", id: "record-file", "data-testid": "record-file", class: "visually-hidden" });
  const status = h("p", { class: "muted", "data-testid": "upload-status" }, "");
  const drop = h("label", { class: "drop", for: "record-file" },
    h("span", { class: "drop-moon", "aria-hidden": "true" }),
    h("strong", {}, t("Choose a record file")),
    h("span", { class: "muted" }, t("or drop it here (.json — “Download record” at the end of a game)")));
  const card = h("section", { class: "card narrow upload", "data-testid": "upload" },
    h("h1", {}, t("Replay a game")), drop, input, status);

  async function load(file) {
    if (!file) return;
    status.textContent = t("Reading {file}…", { file: file.name });
    let text;
    try {
      text = await file.text();
      JSON.parse(text);
    } catch {
      status.textContent = "";
      toast(t("{file} is not a JSON record file.", { file: file.name }), "error");
      return;
    }
    try {
      const data = await api("/api/replay", { method: "POST", body: text });
      await open(data, file.name);
    } catch (err) {
      status.textContent = "";
      toast(err.message, "error");
    }
  }
  input.addEventListener("change", () => load(input.files[0]));
  for (const name of ["dragenter", "dragover"]) {
    drop.addEventListener(name, (e) => { e.preventDefault(); drop.classList.add("over"); });
  }
  drop.addEventListener("dragleave", () => drop.classList.remove("over"));
  drop.addEventListener("drop", (e) => {
    e.preventDefault();
    drop.classList.remove("over");
    load(e.dataTransfer.files[0]);
  });
  return card;
}

/** Whether the stored game's type offers analysis (the server says so in the replay). */
function isAnalysable(data) {
  return data.analysable !== false;
}

function icon(path) {
  return s("svg", { viewBox: "0 0 24 24", width: 16, height: 16, "aria-hidden": "true" },
    s("path", { d: path, fill: "currentColor", stroke: "currentColor", "stroke-width": 2, "stroke-linejoin": "round" }));
}

class ReplayViewer {
  constructor(root, mod, type, data, label, onClose, gameId = null) {
    this.mod = mod;
    this.rounds = type.replay_step === "round"; // a step is a round (simultaneous play), else a turn
    this.frames = data.frames;
    this.players = data.players || [];
    this.bots = data.bots || []; // a stored game says which seats are bots (their names translate)
    this.index = 0;
    const n = this.frames.length - 1;
    this.slider = h("input", { type: "range", min: "0", max: String(n), value: "0", "data-testid": "replay-slider", "aria-label": this.rounds ? t("Round") : t("Turn"),
      oninput: (e) => this.go(Number(e.target.value)) });
    this.counter = h("span", { class: "replay-counter", "data-testid": "replay-counter" });
    const btn = (icon, testid, title, f) => h("button", { class: "btn small icon", "data-testid": testid, title, "aria-label": title, onclick: f }, icon);
    // Three parts laid out by shell.css: one row on a wide screen (title, controls, counter);
    // on a narrow one the title and the counter share a line above the buttons and slider.
    this.bar = h("section", { class: "card replay-bar", "data-testid": "replay-bar" },
      h("div", { class: "replay-title" }, h("strong", {}, t("Replay")), h("span", { class: "muted replay-label", title: label }, ` · ${label}`),
        onClose ? h("button", { class: "btn small ghost", onclick: onClose }, t("Another file")) : null),
      h("div", { class: "replay-controls", role: "group", "aria-label": t("Replay controls") },
        btn(icon("M6 5v14M19 5l-10 7 10 7z"), "replay-first", t("First (Home)"), () => this.go(0)),
        btn(icon("M16 5l-10 7 10 7z"), "replay-prev", t("Previous (←)"), () => this.go(this.index - 1)),
        this.slider,
        btn(icon("M8 5l10 7-10 7z"), "replay-next", t("Next (→)"), () => this.go(this.index + 1)),
        btn(icon("M18 5v14M5 5l10 7-10 7z"), "replay-last", t("Last (End)"), () => this.go(Infinity))),
      this.counter);
    root.append(this.bar);
    // a stored game can be analysed: the panel sits between the controls and the board
    this.gameId = gameId;
    this.type = data.game;
    this.beside = null; // a second game stepped with this one (replay_beside.js)
    this.analysis = gameId && isAnalysable(data) ? analysisPanel({ gameId, mod, players: this.players.map((name, i) => (this.bots[i] ? t(name) : name)), frames: this.frames, go: (i) => this.go(i), besides: (kind) => this.openBeside(kind), hold: (on) => { this.held = on; } }) : null;
    if (this.analysis) root.append(this.analysis.el);
    this.screen = new GameScreen(root, mod, { replay: true });
    this.onKey = (e) => {
      if (this.held) return; // "learn from your mistakes" is open: its board has the keys
      if (e.target.closest && e.target.closest("input[type=text], textarea")) return;
      const moves = { ArrowRight: this.index + 1, ArrowLeft: this.index - 1, Home: 0, End: Infinity, PageDown: this.index + 10, PageUp: this.index - 10 };
      if (e.key in moves) {
        e.preventDefault();
        this.go(moves[e.key]);
      }
    };
    document.addEventListener("keydown", this.onKey);
    this.go(0);
  }

  go(i) {
    const n = this.frames.length - 1;
    // with a longer game beside (a Nova Luna bot's), the steps run to its end and
    // this game stays on its last
    const last = Math.max(n, this.beside ? this.beside.frames.length - 1 : 0);
    this.index = Math.max(0, Math.min(last, i));
    const own = Math.min(this.index, n);
    this.slider.max = String(last);
    this.slider.value = String(this.index);
    this.counter.textContent = own === 0
      ? (this.rounds ? tn("Start · {n} round", "Start · {n} rounds", n) : tn("Start · {n} turn", "Start · {n} turns", n))
      : (this.rounds ? t("Round {i} of {n}", { i: own, n }) : t("Turn {i} of {n}", { i: own, n }));
    const frame = this.frames[own];
    this.screen.update(frameState(this.mod, frame, own, this.players, this.bots, t("Replay")));
    this.beside?.go(this.index);
    this.analysis?.showFrame(own);
    // stepping on: the latest step (past this game's end, the step of the game beside)
    announce(this.index > n ? this.beside.said() : this.sentence(frame, n, own), { moment: true });
  }

  /** Show the companion ``kind`` (replay_beside.js) under your board, at this step;
   * ``day``: the daily deal's, for the bot's game. */
  async openBeside(kind, day = null) {
    let found;
    try {
      found = await fetchBeside(kind, { gameId: this.gameId, type: this.type, day });
    } catch (err) {
      toast(err.message, "error");
      return;
    }
    this.beside?.destroy();
    this.beside = new BesideBoard(this.screen.main, this.mod, this.rounds, found.data, found.title,
      { close: () => this.closeBeside(), step: (delta) => this.go(this.index + delta) });
    this.go(this.index); // the steps may now run further: the slider's end moves
    this.beside.el.scrollIntoView({ block: "nearest" });
  }

  closeBeside() {
    if (!this.beside) return;
    this.beside.destroy();
    this.beside = null;
    this.go(this.index); // back within this game's own steps
  }

  /** What a screen reader hears at a step: the turn and its move (the log's own words). */
  sentence(frame, n, index) {
    if (index === 0) {
      return this.rounds ? tn("Start of the game: {n} round.", "Start of the game: {n} rounds.", n)
        : tn("Start of the game: {n} turn.", "Start of the game: {n} turns.", n);
    }
    const entry = frame.log[frame.log.length - 1];
    const name = (i) => (this.players[i] ? (this.bots[i] ? t(this.players[i]) : this.players[i]) : t("Seat {n}", { n: i + 1 }));
    const said = this.mod.moveSentence ? this.mod.moveSentence(entry, name) : partsText(entry.parts, entry.text);
    // an entry of one seat names it; one of everybody (a round of NMBR 9) does not
    const step = this.rounds ? t("Round {i} of {n}", { i: index, n }) : t("Turn {i} of {n}", { i: index, n });
    // a game may word the whole step itself (NMBR 9: "Round 3 of 20, the 7: Ann placed …")
    const own = this.mod.replaySentence ? this.mod.replaySentence(entry, name, n) : null;
    if (own) return frame.view.over ? t("{move}. Game over.", { move: own }) : t("{move}.", { move: own });
    const move = entry.seat === undefined || entry.seat === null ? said : t("{name} {action}", { name: name(entry.seat), action: said });
    return frame.view.over ? t("{step}: {move}. Game over.", { step, move }) : t("{step}: {move}.", { step, move });
  }

  destroy() {
    document.removeEventListener("keydown", this.onKey);
    this.beside?.destroy();
    this.analysis?.destroy();
    this.analysis?.el.remove();
    this.screen.destroy();
    this.bar.remove();
  }
}
