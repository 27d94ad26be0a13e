// The account socket (WS /api/account/ws, docs/web.md): one per tab of a signed-in
// player. Every change of their games arrives as it happens: the count of games waiting
// for them (top bar and the tab's title, "(2) …"), My games, and — opted in — a browser
// notification while this tab is hidden.
import { showReminder } from "./correspondence.js";
import { durationWords, t, tn } from "./i18n.js";
import { showTournamentNotice } from "./tournament_notices.js";
import { h } from "./util.js";

const NOTIFY_KEY = "boardgames.notify.v1";
const listeners = new Set();
let socket = null;
let wanted = false; // signed in: keep a socket open
let watched = null; // the account's name
let retry = 1000;
let games = null; // the account's games as the socket last said (null: not yet)
let waiting = 0; // how many of them wait for this player

/** How many games wait for you (the socket's count once it has spoken). */
export function waitingCount() {
  return waiting;
}

/** Call ``listener(games, message)`` after each change the socket reports. */
export function onGamesChange(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Follow the account's games (``info`` as ``/api/account`` answers), or stop when
 * nobody is signed in. */
export function watchAccount(info) {
  const name = info.account ? info.account.name : null;
  if (name !== null && name === watched && socket) return; // already following it
  watched = name;
  wanted = name !== null;
  waiting = (info.games || []).filter((g) => g.your_turn).length;
  games = null;
  if (socket) {
    const old = socket;
    socket = null;
    old.close();
  }
  if (wanted) connect();
  showCount();
}

function connect() {
  const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/api/account/ws`);
  socket = ws;
  ws.onopen = () => { retry = 1000; };
  ws.onmessage = (event) => received(JSON.parse(event.data));
  ws.onclose = (event) => {
    if (socket !== ws) return; // replaced (signed in or out meanwhile)
    socket = null;
    if (!wanted || event.code === 4401 || event.code === 4403) return;
    setTimeout(() => { if (wanted && !socket) connect(); }, retry); // the server restarts, say
    retry = Math.min(retry * 2, 30000);
  };
}

function received(msg) {
  if (msg.type === "games") {
    games = msg.games;
  } else if (msg.type === "game") {
    const before = (games || []).find((g) => g.id === msg.game.id);
    games = [msg.game, ...(games || []).filter((g) => g.id !== msg.game.id)].sort(byUrgency);
    notify(before, msg);
    // a tournament paired you again (tournament_event.js; loaded only then)
    if (msg.game.tournament && !before && !msg.game.over) {
      const known = games;
      import("./tournament_event.js").then((m) => m.nextTournamentGame(msg.game, known)).catch(() => {});
    }
  } else if (msg.type === "reminder") { // a correspondence move's time runs out soon
    showReminder(msg);
    return;
  } else if (msg.type === "tournament") { // an event you entered starts soon, or now
    showTournamentNotice(msg);
    return;
  } else if (msg.type === "gone") { // withdrawn by its creator, or an invitation declined
    games = (games || []).filter((g) => g.id !== msg.id);
  } else if (msg.type === "warning") { // a moderator's: moderation.js shows it
    window.dispatchEvent(new CustomEvent("tabletop:warning"));
    return;
  } else {
    return;
  }
  waiting = msg.waiting;
  showCount();
  for (const listener of listeners) listener(games, msg);
}

/** My games' order, as the server sorts them: ongoing first, your turn (or an invitation)
 * first, the least time left first (ISO times in UTC sort as text), the most recent first. */
export function byUrgency(a, b) {
  const key = (g) => [g.over ? 1 : 0, g.your_turn || g.invited ? 0 : 1, g.deadline || "~"];
  const [x, y] = [key(a), key(b)];
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i] < y[i] ? -1 : 1;
  return a.updated < b.updated ? 1 : a.updated > b.updated ? -1 : 0;
}

// -- the count in the tab's title: "(2) Nova Luna …", kept whatever a screen titles it --

function showCount() {
  const bare = document.title.replace(/^\(\d+\) /, "");
  const title = waiting ? `(${waiting}) ${bare}` : bare;
  if (document.title !== title) document.title = title;
}

const titleElement = document.querySelector("title");
if (titleElement) new MutationObserver(showCount).observe(titleElement, { childList: true, characterData: true, subtree: true });

// -- browser notifications (opt-in) ---------------------------------------------------

/** Whether notifications are on here (asked for on this browser, and allowed). */
export function notifying() {
  try {
    return localStorage.getItem(NOTIFY_KEY) === "1" && "Notification" in window && Notification.permission === "granted";
  } catch {
    return false;
  }
}

/** The /me page's switch: asks the browser's permission only when turned on. */
export function notifySwitch(onError) {
  const button = h("button", { class: "btn ghost", type: "button", "data-testid": "notify-switch" });
  const show = () => {
    const on = notifying();
    button.setAttribute("aria-pressed", on ? "true" : "false");
    button.textContent = on ? t("Notifications: on") : t("Notifications: off");
    button.title = t("Tell me in a browser notification when it is my turn or a game ends, while this page is open in another tab");
  };
  button.addEventListener("click", async () => {
    if (notifying()) {
      try { localStorage.setItem(NOTIFY_KEY, "0"); } catch { /* nothing to forget */ }
    } else if (!("Notification" in window)) {
      onError(t("This browser cannot show notifications."));
    } else if ((await Notification.requestPermission()) === "granted") {
      try { localStorage.setItem(NOTIFY_KEY, "1"); } catch { onError(t("This browser refuses to remember the choice.")); }
    } else {
      onError(t("Notifications are blocked for this site in the browser's settings."));
    }
    show();
  });
  show();
  return button;
}

/** A notification for a change seen while this tab is hidden: your turn, or a game
 * over — not in a game against bots only (you are playing it), once per game and change
 * (the tag: every tab of yours shows the same one). It says only what the page itself
 * words: no seat names, which anyone creating a game chooses (issue 42). */
function notify(before, msg) {
  const game = msg.game;
  if (!document.hidden || !notifying()) return;
  if (game.invited && !before) {
    inviteNote(game.creator);
    return;
  }
  if (game.seats.filter((s) => s.kind === "human").length < 2) return;
  const turn = game.your_turn && !(before && before.your_turn);
  const over = game.over && !(before && before.over);
  if (!turn && !over) return;
  const left = turn && game.deadline ? t("{time} left", { time: durationWords((Date.parse(game.deadline) - Date.now()) / 1000) }) : "";
  const title = over ? t("Game over · {game}", { game: game.title }) : t("Your turn · {game}", { game: game.title });
  const note = new Notification(title, { body: left, tag: `${game.id}:${over ? "over" : "turn"}` });
  note.onclick = () => go(note, game.url);
}

// Invitations seen while hidden, told in one notification a few seconds after the first
// (a stranger's twenty invitations are one notification, never twenty): later ones
// replace it (the same tag) with the count since the tab was last looked at
const INVITES_AFTER_MS = 3000;
let invitedBy = [];
let inviteTimer = null;

function inviteNote(creator) {
  invitedBy.push(accountName(creator));
  if (inviteTimer === null) inviteTimer = setTimeout(showInvites, INVITES_AFTER_MS);
}

document.addEventListener("visibilitychange", () => {
  if (!document.hidden) invitedBy = []; // seen: the next notification counts afresh
});

function showInvites() {
  inviteTimer = null;
  const names = invitedBy;
  if (!names.length || !notifying()) return;
  const title = new Set(names).size === 1 && names[0]
    ? t("{name} invites you to a game", { name: names[0] })
    : tn("You have {n} new invitation", "You have {n} new invitations", names.length);
  // one inviter: "Ben invites you to a game" (however often); several: only the count
  const note = new Notification(title, { body: t("Accept or decline it in My games."), tag: "invitations" });
  note.onclick = () => go(note, "/me");
}

/** An account name as a notification may show it: the server's names are checked at
 * registration; here too, at most 32 letters (with their marks), digits, spaces, "_", "-" or "." — else none. */
export function accountName(name) {
  return typeof name === "string" && /^[\p{L}\p{M}\p{N} _.-]{1,32}$/u.test(name) ? name : "";
}

function go(note, url) {
  window.focus();
  history.pushState(null, "", url);
  window.dispatchEvent(new PopStateEvent("popstate")); // the router shows it
  note.close();
}
