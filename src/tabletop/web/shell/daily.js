// /daily: the daily challenge (docs/web.md, "Daily challenge"). Per game, the day's deal
// with Play, the day's results board (best first, your row marked), and once you have
// finished: the strong solo bot's score on the same deal, the best with hindsight where
// the game offers it, and your result to share (built by the game: share lines the
// server sends as msgids). ?day=YYYY-MM-DD shows an earlier day: practice, not counted.
// Games played without an account are remembered in this browser, so Play leads back
// to the same game and the board can show its result.
import { api, errorText } from "./api.js";
import { accountInfo } from "./account.js";
import { botName, formatDay, t } from "./i18n.js";
import { toast } from "./toast.js";
import { h } from "./util.js";

const KEY = "tabletop.daily.v1"; // {"<game> <day>": {id, link}}: this browser's daily games

function remembered() {
  try {
    return JSON.parse(localStorage.getItem(KEY) || "{}") || {};
  } catch {
    return {};
  }
}

function remember(game, day, entry) {
  const all = remembered();
  all[`${game} ${day}`] = entry;
  // keep the last few weeks: practice days pile up otherwise
  const keys = Object.keys(all).sort((a, b) => a.slice(-10).localeCompare(b.slice(-10)));
  for (const old of keys.slice(0, Math.max(0, keys.length - 60))) delete all[old];
  try { localStorage.setItem(KEY, JSON.stringify(all)); } catch { /* this visit only */ }
}

export async function showDaily(root, navigate) {
  const [info, today] = await Promise.all([accountInfo(), api("/api/daily")]);
  const asked = new URLSearchParams(location.search).get("day");
  const day = asked && /^\d{4}-\d{2}-\d{2}$/.test(asked) && asked <= today.day ? asked : today.day;
  const practice = day !== today.day;
  const cards = await Promise.all(today.games.map((game) => gameCard(game, day, practice, info, navigate)));
  document.title = practice ? `${t("Daily challenge")}, ${formatDay(day)} · Tabletop` : `${t("Daily challenge")} · Tabletop`;
  const page = h("div", { class: "account-page daily-page", "data-testid": "daily" },
    h("section", { class: "card" },
      h("h1", {}, t("Daily challenge")),
      h("p", { class: "muted" }, t("One deal a day for everybody, the same for each game: play it alone and compare. The day changes at midnight UTC.")),
      h("p", { class: "muted", "data-testid": "daily-rules" }, practice
        ? t("Practice: games of earlier days are not counted on the board.")
        : info.account
          ? t("Your first game of the day counts on the board; Play again returns to it. Undo and hints are allowed, but marked \"with help\".")
          : t("Sign in to be on the board. Without an account you can play, but your game is not counted.")),
      dayPicker(day, today.day, navigate)),
    ...cards);
  // Drawn at once when everything has arrived: a redraw asked meanwhile (a new language)
  // replaces this one instead of adding a second page beside it; and once the reader
  // has gone to another page meanwhile, nothing is drawn.
  if (location.pathname.replace(/\/+$/, "") === "/daily") root.replaceChildren(page);
  return {};
}

function dayPicker(day, latest, navigate) {
  const input = h("input", { type: "date", id: "daily-day", value: day, max: latest, min: "2024-01-01", "data-testid": "daily-day" });
  const go = (event) => {
    event.preventDefault();
    if (!input.value) return;
    navigate(input.value === latest ? "/daily" : `/daily?day=${encodeURIComponent(input.value)}`);
  };
  const form = h("form", { class: "row wrap", "data-testid": "daily-day-form" },
    h("label", { class: "field", for: "daily-day" }, h("span", {}, t("Day")), input),
    h("button", { class: "btn small", type: "submit", "data-testid": "daily-day-go" }, t("Show this day")),
    day !== latest ? h("a", { class: "btn small ghost", href: "/daily", "data-testid": "daily-today" }, t("Back to today")) : null);
  form.addEventListener("submit", go);
  return form;
}

async function gameCard(game, day, practice, info, navigate) {
  const local = remembered()[`${game.game} ${day}`];
  // This browser's game of the deal, unless the board finds yours by your account: today
  // signed in (your counted attempt, or none yet: Play starts it). A practice day asks for
  // it whether or not you played today (``game.you`` is today's attempt, not that day's).
  const mine = local && (practice || !info.account) ? local : null;
  const query = mine ? `?game=${encodeURIComponent(mine.id)}` : "";
  let board;
  try {
    board = await api(`/api/daily/${encodeURIComponent(game.game)}/${day}${query}`);
  } catch (err) {
    if (!query) throw err;
    board = await api(`/api/daily/${encodeURIComponent(game.game)}/${day}`); // a forgotten game
  }
  const you = board.you;
  const card = h("section", { class: "card daily-card", "data-testid": `daily-${game.game}`, "aria-labelledby": `daily-title-${game.game}` },
    h("h2", { id: `daily-title-${game.game}` }, t("{game}, {day}", { game: board.title, day: formatDay(day) })));
  const label = you && you.over ? t("Look at your game") : you ? t("Continue") : t("Play");
  const play = h("button", {
    class: `btn ${you && you.over ? "" : "primary"}`, type: "button", "data-testid": `daily-play-${game.game}`,
    "aria-describedby": `daily-title-${game.game}`,
    onclick: async () => {
      play.disabled = true;
      try {
        navigate(await start(game.game, day, practice, you, mine));
      } catch (err) {
        toast(err.message, "error");
        play.disabled = false;
      }
    },
  }, label);
  card.append(h("div", { class: "row wrap" }, play,
    h("span", { class: "chip", "data-testid": `daily-counted-${game.game}` }, practice || !info.account ? t("not counted") : t("counted"))));
  card.append(results(board));
  if (you && you.over) card.append(...afterYourGame(board, game.game));
  return card;
}

/** Where Play leads: your game of the day if there is one, else a new game of the deal.
 * Your counted attempt opens by your account; this browser's game by its seat link (its
 * bare address would only let you watch it). */
async function start(game, day, practice, you, local) {
  if (you && you.counted) return you.url;
  if (you && local && you.game === local.id) return local.link;
  const answer = await api(`/api/daily/${encodeURIComponent(game)}`, { method: "POST", body: practice ? { day } : {} });
  const link = answer.seats && answer.seats[0] && answer.seats[0].link ? answer.seats[0].link : answer.url;
  if (!answer.counted) remember(game, day, { id: answer.id, link });
  return link;
}

function results(board) {
  const box = h("div", { class: "daily-results" });
  const better = board.lower_is_better ? t("lower is better") : t("higher is better");
  box.append(h("h3", {}, t("Results")));
  if (!board.results.length) {
    box.append(h("p", { class: "muted", "data-testid": "daily-no-results" }, t("Nobody has finished this day's challenge yet.")));
  } else {
    const rows = board.results.map((row) => h("tr", {
      class: row.you ? "you" : null, "aria-current": row.you ? "true" : null, "data-testid": row.you ? "daily-row-you" : "daily-row",
    },
      h("td", { class: "num" }, String(row.rank)),
      h("td", {}, row.name, row.you ? h("span", { class: "chip you-chip" }, t("you")) : null,
        row.helped ? h("span", { class: "chip", "data-testid": "daily-helped" }, t("with help")) : null),
      h("td", { class: "num", "data-testid": "daily-score" }, String(row.score))));
    box.append(h("table", { class: "rating-table daily-table" },
      h("caption", { class: "muted" }, t("Best first ({better}); equal scores share a place.", { better })),
      h("thead", {}, h("tr", {}, h("th", { class: "num", scope: "col" }, "#"), h("th", { scope: "col" }, t("Player")), h("th", { class: "num", scope: "col" }, t("Score")))),
      h("tbody", {}, ...rows)));
  }
  if (board.playing) box.append(h("p", { class: "muted" }, t("Still playing: {n}", { n: board.playing })));
  return box;
}

/** Once you finished: the bot's score on the same deal, hindsight, and your result to share. */
function afterYourGame(board, game) {
  const parts = [];
  const planner = board.planner;
  const botLine = !planner ? null
    : planner.status === "done" ? t("The strong bot ({bot}) scored {score} on this deal.", { bot: botName(planner.name || planner.bot), score: planner.score })
      : planner.status === "running" ? t("The strong bot is still playing this deal; look again in a minute.")
        : t("The strong bot's game could not be worked out.");
  if (botLine) parts.push(h("p", { "data-testid": `daily-planner-${game}` }, botLine));
  if (planner && planner.status === "done") parts.push(botReplayLink(board, game));
  // The best game with hindsight (knowing the hidden order), where the game's analyser
  // offers it: shown here when the server sends it, nothing otherwise.
  const best = board.hindsight;
  if (best && best.status === "done" && best.score !== undefined) {
    parts.push(h("p", { "data-testid": `daily-hindsight-${game}` }, t("With hindsight, the best this deal allowed: {score}.", { score: best.score })));
  }
  const you = board.you;
  if (you.share) parts.push(shareBox(you.share, game));
  return parts;
}

/** Your game's replay with the bot's game under it, stepped together (replay_beside.js). */
function botReplayLink(board, game) {
  const href = `/replay/${encodeURIComponent(board.you.game)}?beside=bot&day=${encodeURIComponent(board.day)}`;
  return h("p", {}, h("a", { class: "btn small", href, "data-testid": `daily-replay-bot-${game}` }, t("Replay the bot's game beside yours")));
}

/** A share line's arguments with its day (ISO, from the server) in the page's language. */
function dayInWords(args) {
  return args && typeof args.day === "string" ? { ...args, day: formatDay(args.day) } : args;
}

function shareBox(lines, game) {
  const text = lines.map((line) => errorText(line.key, dayInWords(line.args), "")).join("\n");
  const shown = h("pre", { class: "daily-share", "data-testid": `daily-share-text-${game}`, tabindex: "0", "aria-label": t("Your result to share") }, text);
  const copy = h("button", {
    class: "btn small", type: "button", "data-testid": `daily-copy-${game}`,
    onclick: async () => {
      try {
        await navigator.clipboard.writeText(text);
        toast(t("Copied: paste it anywhere"), "ok");
      } catch {
        // No clipboard here (an insecure page, a refusal): select the text to copy by hand.
        const range = document.createRange();
        range.selectNodeContents(shown);
        const selection = window.getSelection();
        selection.removeAllRanges();
        selection.addRange(range);
        shown.focus();
        shown.dataset.selected = "true";
        toast(t("The text is selected: copy it with Ctrl+C (or your device's Copy)"), "info");
      }
    },
  }, t("Copy result"));
  return h("div", { class: "daily-share-box" }, h("h3", {}, t("Share")), shown, h("div", { class: "row" }, copy));
}
