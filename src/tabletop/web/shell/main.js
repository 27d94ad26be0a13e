// The single-page app's router: / (lobby), /g/{id} (a game), /replay and /replay/{id},
// /me (sign in, my games), /mail/verify and /mail/unsubscribe (links in mails), /daily (the daily challenge), /learn/{type} (a game's tutorial), /lobby (open games), /leaderboard/{type}, /u/{name} (a profile), /friends (the players you follow), /moderation (the moderators'), /tournaments and /t/{id} (tournaments).
import { language, onLanguageChange, setLanguage, t } from "./i18n.js"; // first: loads the catalogue
import { accountInfo, drawNav, showLeaderboard, showMailLink, showMe, showOpenGames, showProfile } from "./account.js";
import { onGamesChange, watchAccount } from "./live.js";
import { showLobby } from "./lobby.js"; // every screen needs it (game.js imports it too)
import { showFriends } from "./friends.js";
import { clear, h, loadCode } from "./util.js";

// The game and replay screens, and the game's board with them, load when first shown:
// the lobby, the usual first page, downloads none of it.
async function showGame(...args) {
  return (await loadCode(() => import("./game.js"))).showGame(...args);
}

async function showDaily(...args) {
  return (await loadCode(() => import("./daily.js"))).showDaily(...args);
}

async function showTutorial(...args) {
  return (await loadCode(() => import("./tutorial.js"))).showTutorial(...args);
}

async function showModeration(...args) {
  return (await loadCode(() => import("./moderation.js"))).showModeration(...args);
}

async function showTournaments(...args) {
  return (await loadCode(() => import("./tournaments.js"))).showTournaments(...args);
}

async function showTournament(...args) {
  return (await loadCode(() => import("./tournament_event.js"))).showTournament(...args);
}

async function showReplay(...args) {
  return (await loadCode(() => import("./replay.js"))).showReplay(...args);
}

// Colour symbols (a colour-blind mode): <html class="cb"> makes the game draw a shape for
// each colour. Set before the first route so no page is drawn without it; remembered in
// this browser and followed across its tabs.
const SYMBOLS_KEY = "boardgames.colour-symbols.v1";
const symbolsButton = document.getElementById("colour-symbols");

function showSymbols(on) {
  document.documentElement.classList.toggle("cb", on);
  symbolsButton?.setAttribute("aria-pressed", on ? "true" : "false");
}

try {
  showSymbols(localStorage.getItem(SYMBOLS_KEY) === "1");
} catch {
  showSymbols(false); // storage refused (private mode): off
}
symbolsButton?.addEventListener("click", () => {
  const on = !document.documentElement.classList.contains("cb");
  showSymbols(on);
  try { localStorage.setItem(SYMBOLS_KEY, on ? "1" : "0"); } catch { /* this page only */ }
});
window.addEventListener("storage", (event) => {
  if (event.key === SYMBOLS_KEY) showSymbols(event.newValue === "1");
});

// The top bar's texts (index.html is English) and the language switch: a new language
// redraws the screen on show in it.
function translateShell() {
  document.title = t("Tabletop: board games in the browser");
  document.querySelector("[data-testid=nav-lobby]").textContent = t("New game");
  document.querySelector("[data-testid=nav-replay]").textContent = t("Replays");
  document.querySelector("[data-testid=nav-daily]").textContent = t("Daily");
  document.querySelector("[data-testid=nav-tournaments]").textContent = t("Tournaments");
  symbolsButton?.setAttribute("title", t("Colour symbols")); // the game's module says more (offerColourSymbols)
  const symbolsLabel = symbolsButton?.querySelector(".cb-label");
  if (symbolsLabel) symbolsLabel.textContent = t("Colour symbols");
  const picker = document.getElementById("language");
  picker.setAttribute("aria-label", t("Language"));
  picker.title = t("Language");
  picker.value = language();
  const code = document.querySelector(".lang-code");
  if (code) code.textContent = language().toUpperCase(); // what a phone shows of the menu
}

translateShell();
document.getElementById("language").addEventListener("change", (event) => {
  setLanguage(event.target.value);
});
onLanguageChange(() => {
  translateShell();
  accountInfo().then(drawNav);
  route();
});

let current = null; // {destroy()} of the screen on show

export function navigate(url, { replace = false } = {}) {
  if (replace) history.replaceState(null, "", url);
  else history.pushState(null, "", url);
  route();
}

async function route() {
  if (current && current.destroy) current.destroy();
  current = null;
  // Each screen draws into a box of its own: a screen still loading its code when the
  // next route begins (a language switch at once) then draws into a box already gone.
  const app = h("div", { class: "screen" });
  clear(document.getElementById("app")).append(app);
  document.getElementById("conn").hidden = true;
  const path = location.pathname.replace(/\/+$/, "") || "/";
  let match;
  document.body.dataset.page = "";
  try {
    if (path === "/") {
      document.body.dataset.page = "lobby";
      current = await showLobby(app, navigate);
    } else if ((match = path.match(/^\/g\/([A-Za-z0-9_-]+)$/))) {
      document.body.dataset.page = "game";
      current = await showGame(app, decodeURIComponent(match[1]), navigate);
    } else if (path === "/me") {
      document.body.dataset.page = "me";
      current = await showMe(app, navigate);
    } else if ((match = path.match(/^\/mail\/(verify|unsubscribe)$/))) {
      document.body.dataset.page = "mail";
      current = await showMailLink(app, match[1]);
    } else if (path === "/daily") {
      document.body.dataset.page = "daily";
      current = await showDaily(app, navigate);
    } else if ((match = path.match(/^\/learn\/([a-z0-9-]+)$/))) {
      document.body.dataset.page = "tutorial";
      current = await showTutorial(app, match[1], navigate);
    } else if (path === "/lobby") {
      document.body.dataset.page = "open-games";
      current = await showOpenGames(app, navigate);
    } else if ((match = path.match(/^\/leaderboard(?:\/([a-z0-9-]+))?$/))) {
      document.body.dataset.page = "leaderboard";
      current = await showLeaderboard(app, match[1], navigate);
    } else if ((match = path.match(/^\/u\/([^/]+)$/))) {
      document.body.dataset.page = "profile";
      current = await showProfile(app, decodeURIComponent(match[1]));
    } else if (path === "/friends") {
      document.body.dataset.page = "friends";
      current = await showFriends(app, navigate);
    } else if (path === "/moderation") {
      document.body.dataset.page = "moderation";
      current = await showModeration(app);
    } else if (path === "/tournaments") {
      document.body.dataset.page = "tournaments";
      current = await showTournaments(app, navigate);
    } else if ((match = path.match(/^\/t\/([A-Za-z0-9_-]+)$/))) {
      document.body.dataset.page = "tournament";
      current = await showTournament(app, match[1], navigate);
    } else if (path === "/replay") {
      document.body.dataset.page = "replay";
      current = await showReplay(app, null, navigate);
    } else if ((match = path.match(/^\/replay\/([A-Za-z0-9_-]+)$/))) {
      document.body.dataset.page = "replay";
      current = await showReplay(app, decodeURIComponent(match[1]), navigate);
    } else {
      app.append(h("section", { class: "card narrow center" },
        h("h1", {}, t("Lost among the stars")),
        h("p", {}, t("There is nothing at this address.")),
        h("a", { class: "btn primary", href: "/" }, t("Go to the lobby"))));
    }
  } catch (err) {
    app.append(h("section", { class: "card narrow center", "data-testid": "page-error" },
      h("h1", {}, t("Something went wrong")),
      h("p", {}, err.message || String(err)),
      h("a", { class: "btn primary", href: "/" }, t("Back to the lobby"))));
  }
}

// Same-origin links to page routes stay in the app.
document.addEventListener("click", (event) => {
  const a = event.target.closest("a");
  if (!a || a.target || a.hasAttribute("download") || event.defaultPrevented) return;
  if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  const url = new URL(a.href, location.href);
  if (url.origin !== location.origin || url.pathname.startsWith("/api/") || url.pathname.startsWith("/static/")) return;
  event.preventDefault();
  if (url.pathname === location.pathname && url.search === location.search && url.hash !== location.hash && url.pathname.startsWith("/g/")) {
    // Another seat fragment for the same game: a new connection with the new tokens.
    history.pushState(null, "", url.href);
    route();
    return;
  }
  navigate(url.pathname + url.search + url.hash);
});

window.addEventListener("popstate", route);
accountInfo().then((info) => {
  watchAccount(info); // the account socket: the count of games waiting for you, live
  drawNav(info);
  // a moderator's warnings, until acknowledged (moderation.js; loaded for accounts only)
  if (info.account) import("./moderation.js").then((m) => m.showWarnings()).catch(() => {});
});
onGamesChange(() => accountInfo().then(drawNav));
route();
