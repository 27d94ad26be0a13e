// Chat in a game (server/chat.py): the players' channel (its players only) and the
// spectators' (everyone watching; players see it when they ask). Messages arrive over
// the game's socket ({"type": "chat"}; "history" replaces them on (re)connecting) and
// are written over HTTP. Every text is put in with textContent: HTML stays text and a
// link is never clickable. Muting and reporting a writer are beside each message.
import { accountInfo } from "./account.js";
import { announce } from "./announce.js";
import { api } from "./api.js";
import { language, t, tp } from "./i18n.js";
import { toast } from "./toast.js";
import { focusOn, h, trapFocus } from "./util.js";

const SHOW_SPECTATORS = "boardgames.chat.spectators.v1"; // a player's choice, per browser
const MAX_TEXT = 300; // as the server (chat.py MAX_TEXT)
const MAX_REPORT = 500; // a report's own words (POST /api/reports)
const PHRASES = ["hello", "good-luck", "thinking", "well-played", "thanks", "sorry", "good-game"];

/** A quick phrase in the reader's language (its id: what the server stores). */
export function phraseText(id) {
  switch (id) {
    case "hello": return t("Hello");
    case "good-luck": return t("Good luck");
    case "thinking": return tp("chat phrase", "Thinking…"); // said of oneself
    case "well-played": return t("Well played");
    case "thanks": return t("Thanks");
    case "sorry": return t("Sorry");
    case "good-game": return t("Good game");
    default: return id;
  }
}

function reasons() {
  return [
    ["spam", t("Spam")],
    ["abuse", t("Abuse or insults")],
    ["cheating", t("Cheating")],
    ["other", t("Something else")],
  ];
}

function showsSpectators() {
  try { return localStorage.getItem(SHOW_SPECTATORS) === "1"; } catch { return false; }
}

let reportSerial = 0; // ids of the report dialog's fields, unique on the page

export class ChatPanel {
  constructor(gameId) {
    this.gameId = gameId;
    this.messages = [];
    this.playing = false; // this page plays a seat: it reads the players' channel
    this.waiting = true;
    this.me = null; // the signed-in account's name (null: a guest, who reads only)
    this.error = ""; // why the last message was refused
    this.showSpectators = showsSpectators();
    this.list = h("ol", { class: "chat-list", "data-testid": "chat-list", tabindex: "0", "aria-label": t("Chat messages") });
    this.toggle = h("input", { type: "checkbox", id: `chat-show-${gameId}`, "data-testid": "chat-show-spectators", onchange: () => this.setShowSpectators(this.toggle.checked) });
    this.toggleRow = h("label", { class: "chat-toggle", for: this.toggle.id, hidden: true }, this.toggle, " ", t("Show the spectators' chat"));
    this.input = h("input", { type: "text", id: `chat-input-${gameId}`, class: "chat-input", maxlength: String(MAX_TEXT), autocomplete: "off", "data-testid": "chat-input" });
    this.sendBtn = h("button", { type: "submit", class: "btn small primary", "data-testid": "chat-send" }, t("Send"));
    this.form = h("form", { class: "chat-form", "data-testid": "chat-form", onsubmit: (e) => { e.preventDefault(); this.sendText(); } },
      h("label", { class: "visually-hidden", for: this.input.id }, t("Your message")), this.input, this.sendBtn);
    this.phrases = h("div", { class: "chat-phrases", role: "group", "aria-label": t("Quick phrases") },
      PHRASES.map((id) => h("button", { type: "button", class: "btn small ghost", "data-testid": `chat-phrase-${id}`, dataset: { phrase: id }, onclick: () => this.send({ phrase: id }) }, phraseText(id))));
    this.note = h("p", { class: "muted chat-note", "data-testid": "chat-note", role: "status" });
    this.heading = h("h2", { id: `chat-title-${gameId}` }, t("Chat"));
    this.el = h("section", { class: "card chat-card", "data-testid": "chat", "aria-labelledby": this.heading.id },
      this.heading, this.toggleRow, this.list, this.phrases, this.form, this.note);
    accountInfo().then((info) => {
      this.me = info?.account?.name ?? null;
      this.draw();
    });
    this.draw();
  }

  /** The game's state: whether this page plays (its channel) and whether it started. */
  update(state) {
    this.playing = (state.you || []).length > 0;
    this.waiting = Boolean(state.game?.waiting);
    this.draw();
  }

  /** A chat frame of the game's socket. */
  receive(msg) {
    if (msg.type === "chat_hidden") {
      const names = new Set(msg.names || []);
      this.messages = this.messages.filter((m) => !names.has(m.name));
    } else if (msg.history) {
      this.messages = [...(msg.messages || [])];
    } else {
      for (const m of msg.messages || []) {
        const fresh = !this.messages.some((known) => known.id === m.id);
        this.add(m);
        // a screen reader hears others' new messages it would see (the list is no live region)
        if (fresh && m.name !== this.me && this.visible(m)) announce(t("{name}: {text}", { name: m.name, text: this.textOf(m) }));
      }
    }
    this.drawList();
  }

  textOf(m) {
    return m.phrase ? phraseText(m.phrase) : m.text;
  }

  visible(m) {
    return m.channel === "players" || !this.playing || this.showSpectators;
  }

  add(message) {
    if (!this.messages.some((m) => m.id === message.id)) this.messages.push(message);
  }

  channel() {
    return this.playing ? "players" : "spectators";
  }

  setShowSpectators(on) {
    this.showSpectators = on;
    try { localStorage.setItem(SHOW_SPECTATORS, on ? "1" : "0"); } catch { /* this page only */ }
    this.drawList();
  }

  async sendText() {
    const text = this.input.value.trim();
    if (!text) return;
    if (await this.send({ text })) this.input.value = "";
  }

  /** Post ``{text}`` or ``{phrase}`` to this page's channel; whether it went. */
  async send(body) {
    try {
      const answer = await api(`/api/games/${encodeURIComponent(this.gameId)}/chat`, { method: "POST", body: { channel: this.channel(), ...body } });
      this.add(answer.message);
      this.error = "";
      this.draw();
      return true;
    } catch (err) {
      this.error = err.message;
      this.draw();
      return false;
    }
  }

  async mute(name) {
    try {
      await api("/api/account/mutes", { method: "POST", body: { name } });
      this.messages = this.messages.filter((m) => m.name !== name);
      this.drawList();
      focusOn(this.list);
      toast(t("You no longer see {name}'s messages.", { name }), "ok");
    } catch (err) {
      toast(err.message, "error");
    }
  }

  draw() {
    const canWrite = this.me !== null && !this.waiting;
    this.toggleRow.hidden = !this.playing;
    this.toggle.checked = this.showSpectators;
    this.form.hidden = !canWrite;
    this.phrases.hidden = !canWrite;
    this.input.placeholder = this.playing ? t("Message to the players") : t("Message to the spectators");
    const note = this.me === null ? t("Sign in to chat.")
      : this.waiting ? t("The chat opens once every seat is taken.") : this.error;
    // a status is read out whenever its text is set: only when it changes, not every move
    if (this.note.textContent !== note) this.note.textContent = note;
    this.drawList();
  }

  shown() {
    return this.messages.filter((m) => this.visible(m));
  }

  drawList() {
    const shown = this.shown();
    const keep = this.list.scrollTop + this.list.clientHeight >= this.list.scrollHeight - 4;
    this.list.replaceChildren(...(shown.length
      ? shown.map((m) => this.item(m))
      : [h("li", { class: "empty muted" }, t("No messages yet."))]));
    if (keep) this.list.scrollTop = this.list.scrollHeight;
  }

  item(m) {
    const mine = this.me !== null && m.name === this.me;
    const when = new Date(m.at);
    const time = Number.isNaN(when.getTime()) ? "" : new Intl.DateTimeFormat(language(), { timeStyle: "short" }).format(when);
    const text = this.textOf(m);
    const actions = mine || this.me === null ? null : h("span", { class: "chat-actions" },
      h("button", { type: "button", class: "btn small ghost", "data-testid": "chat-mute", "aria-label": t("Mute {name}", { name: m.name }), onclick: () => this.mute(m.name) }, t("Mute")),
      h("button", { type: "button", class: "btn small ghost", "data-testid": "chat-report", "aria-label": t("Report this message of {name}", { name: m.name }), onclick: (e) => reportDialog(this.gameId, m, e.currentTarget) }, t("Report")));
    return h("li", { class: `chat-message chat-${m.channel}${m.phrase ? " chat-phrase" : ""}`, "data-testid": "chat-message", dataset: { id: String(m.id), channel: m.channel } },
      h("span", { class: "chat-head" },
        h("span", { class: "chat-name", "data-testid": "chat-name" }, m.name),
        m.channel === "spectators" && this.playing ? h("span", { class: "chat-badge" }, t("spectator")) : null,
        h("time", { class: "chat-time muted", datetime: m.at }, time)),
      h("span", { class: "chat-text", "data-testid": "chat-text" }, text),
      actions);
  }
}

/** Ask why a message is reported and send it to the moderators (POST /api/reports). */
function reportDialog(gameId, message, opener) {
  const serial = ++reportSerial;
  const title = h("h2", { id: `report-title-${serial}` }, t("Report this message"));
  const choices = reasons().map(([value, label], i) => h("label", { class: "report-reason" },
    h("input", { type: "radio", name: `report-reason-${serial}`, value, checked: i === 0, "data-testid": `report-reason-${value}` }), " ", label));
  const words = h("textarea", { id: `report-text-${serial}`, rows: "3", maxlength: String(MAX_REPORT), "data-testid": "report-text" });
  const status = h("p", { class: "muted", role: "status", "data-testid": "report-status" });
  let release = () => {};
  const close = () => {
    release();
    overlay.remove();
    focusOn(opener?.isConnected ? opener : document.body);
  };
  const submit = async (e) => {
    e.preventDefault();
    const reason = dialog.querySelector("input[type=radio]:checked")?.value || "other";
    const body = { account: message.name, reason, game: gameId, message: message.id };
    if (words.value.trim()) body.text = words.value.trim();
    try {
      await api("/api/reports", { method: "POST", body });
      close();
      toast(t("Thank you: the moderators will look at it."), "ok");
    } catch (err) {
      status.textContent = err.message;
    }
  };
  const dialog = h("div", { class: "card report-dialog", role: "dialog", "aria-modal": "true", "aria-labelledby": title.id, "data-testid": "report-dialog" }, h("form", { class: "report-form", onsubmit: submit },
    title,
    h("blockquote", { class: "report-quote" }, h("strong", {}, message.name), ": ", message.phrase ? phraseText(message.phrase) : message.text),
    h("fieldset", { class: "report-reasons" }, h("legend", {}, t("Why?")), choices),
    h("label", { for: words.id }, t("What happened (optional)")), words,
    status,
    h("div", { class: "row" },
      h("button", { type: "submit", class: "btn primary", "data-testid": "report-send" }, t("Send report")),
      h("button", { type: "button", class: "btn ghost", "data-testid": "report-cancel", onclick: close }, t("Cancel")))));
  const overlay = h("div", { class: "overlay", onclick: (e) => { if (e.target === overlay) close(); } }, dialog);
  overlay.addEventListener("keydown", (e) => {
    if (e.key === "Escape") {
      e.stopPropagation();
      close();
    }
  });
  document.body.append(overlay);
  release = trapFocus(overlay, dialog);
  focusOn(dialog.querySelector("input[type=radio]"));
}
