// One WebSocket per game page: hello with the seat tokens, then states; requests answered
// by ack/error/hint with the same id. Reconnects with backoff when the socket drops.

import { errorText } from "./api.js";
import { t } from "./i18n.js";

const FATAL_CODES = new Set([4400, 4401, 4403, 4404, 4413]);

export class Connection {
  constructor(gameId, tokens, { onState, onStatus, onFatal, onPresence, onChat }) {
    this.gameId = gameId;
    this.tokens = tokens;
    this.onState = onState;
    this.onStatus = onStatus || (() => {});
    this.onFatal = onFatal || (() => {});
    this.onPresence = onPresence;
    this.onChat = onChat || (() => {}); // chat frames (chat.js)
    this.nextId = 1;
    this.pending = new Map();
    this.attempt = 0;
    this.closed = false;
    this.ws = null;
    this.lastError = null;
    this.log = [];
    this.open();
  }

  open() {
    if (this.closed) return;
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${scheme}://${location.host}/api/games/${encodeURIComponent(this.gameId)}/ws`);
    this.ws = ws;
    this.onStatus(this.attempt ? "reconnecting" : "connecting");
    ws.onopen = () => {
      ws.send(JSON.stringify({ type: "hello", tokens: this.tokens }));
    };
    ws.onmessage = (event) => {
      let msg;
      try {
        msg = JSON.parse(event.data);
      } catch {
        return;
      }
      this.receive(msg);
    };
    ws.onclose = (event) => {
      if (this.ws !== ws) return;
      this.ws = null;
      for (const { reject } of this.pending.values()) reject(new Error(t("The connection was lost; the move may not have been made.")));
      this.pending.clear();
      if (this.closed) return;
      if (FATAL_CODES.has(event.code)) {
        this.closed = true;
        this.onStatus("closed");
        this.onFatal(this.lastError || t("The server refused this connection."), event.code - 4000);
        return;
      }
      this.onStatus("offline");
      const delay = Math.min(10000, 500 * 2 ** this.attempt) * (0.75 + Math.random() * 0.5);
      this.attempt += 1;
      this.timer = setTimeout(() => this.open(), delay);
    };
  }

  receive(msg) {
    if (msg.type === "state") {
      // A state brings only the log entries from log_start on; this socket sent the rest.
      this.log = this.log.slice(0, msg.log_start || 0).concat(msg.log);
      msg.log = this.log;
      this.attempt = 0;
      this.onStatus("online");
      this.onState(msg);
      return;
    }
    if (msg.type === "chat" || msg.type === "chat_hidden") {
      this.onChat(msg);
      return;
    }
    if (msg.type === "presence") {
      // who is connected: sent now and then, apart from the states (a crowd's joins
      // would otherwise each push the whole state to everyone)
      if (this.onPresence) this.onPresence(msg);
      return;
    }
    const waiting = msg.id !== undefined && msg.id !== null ? this.pending.get(msg.id) : null;
    if (msg.type === "error") {
      if (waiting) {
        this.pending.delete(msg.id);
        const err = new Error(errorText(msg.key, msg.args, msg.message) || t("The server refused that."));
        err.status = msg.status;
        waiting.reject(err);
      } else {
        this.lastError = errorText(msg.key, msg.args, msg.message);
      }
      return;
    }
    if (waiting) {
      this.pending.delete(msg.id);
      waiting.resolve(msg);
    }
  }

  /** Send ``{type, ...fields}``; resolves with the ack/hint answer, rejects with the error. */
  request(type, fields) {
    return new Promise((resolve, reject) => {
      if (!this.ws || this.ws.readyState !== WebSocket.OPEN) {
        reject(new Error(t("Not connected to the server just now; trying to reconnect…")));
        return;
      }
      const id = this.nextId++;
      this.pending.set(id, { resolve, reject });
      this.ws.send(JSON.stringify({ type, id, ...fields }));
    });
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    if (this.ws) this.ws.close();
  }
}
