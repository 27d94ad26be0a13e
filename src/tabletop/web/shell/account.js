// Accounts (optional): sign in or register, "my games" on every device, the open games
// of the lobby, leaderboards and profiles. The session lives in an HttpOnly cookie.
import { api, gameTypes } from "./api.js";
import { correspondenceRating, daysText, poolOf, poolPicker, reminderSettings } from "./correspondence.js";
import { clockText } from "./clocks.js";
import { deadlineWords, durationWords, formatChange, formatDateTime, formatNumber, language, seatLabel, t, tn, withNodes } from "./i18n.js";
import { notifySwitch, onGamesChange, waitingCount, watchAccount } from "./live.js";
import { followButton } from "./friends.js";
import { toast } from "./toast.js";
import { botBadge, copyText, h, loadCode, withBotBadge } from "./util.js";

let current = null; // promise of {account, games}

/** The tab's title for a page of the account screens. */
function pageTitle(text) {
  document.title = `${text} · Tabletop`;
}

/** Who is signed in (``null``: nobody) and their games; cached until ``refreshAccount``. */
export function accountInfo() {
  current ??= api("/api/account").catch(() => ({ account: null, games: [] }));
  return current;
}

export async function refreshAccount() {
  current = null;
  const info = await accountInfo();
  watchAccount(info); // signed in or out: the account socket follows
  drawNav(info);
  return info;
}

// -- the top bar ----------------------------------------------------------------------

/** The account's part of the top bar: open games, ratings, and you (or "Sign in"). */
export function drawNav(info) {
  const nav = document.querySelector(".topnav");
  if (!nav) return;
  nav.querySelectorAll("[data-account-nav]").forEach((el) => el.remove());
  const waiting = waitingCount(); // kept up to date by the account socket (live.js)
  const link = (href, text, testid) => h("a", { href, "data-testid": testid, "data-account-nav": "" }, text);
  nav.append(
    link("/lobby", t("Open games"), "nav-open-games"),
    link("/leaderboard", t("Ratings"), "nav-ratings"),
    ...(info.account ? [link("/friends", t("Friends"), "nav-friends")] : []),
    ...(info.moderator ? [link("/moderation", t("Moderation"), "nav-moderation")] : []),
    info.account
      ? link("/me", waiting ? t("{name} ({n} to play)", { name: info.account.name, n: waiting }) : info.account.name, "nav-me")
      : link("/me", t("Sign in"), "nav-sign-in"));
}

// -- /me: sign in, or your games ------------------------------------------------------------

export async function showMe(root, navigate) {
  const info = await refreshAccount();
  const page = h("div", { class: "account-page" });
  root.append(page);
  if (!info.account) {
    pageTitle(t("Sign in"));
    page.append(signInForm(navigate));
    return {};
  }
  pageTitle(t("My games")); // live.js puts the count of games waiting for you before it
  let list = gameList(info.games, t("You have no games yet. Create one, or take a seat in an open game."));
  page.append(
    h("section", { class: "card" },
      h("h1", {}, t("My games")),
      h("p", { class: "muted" }, t("Signed in as {name}. Your games follow you to every device where you sign in.", { name: info.account.name })),
      h("div", { class: "row wrap" },
        h("a", { class: "btn", href: `/u/${encodeURIComponent(info.account.name)}`, "data-testid": "my-profile" }, t("Profile and ratings")),
        h("a", { class: "btn", href: "/lobby" }, t("Open games")),
        h("button", { class: "btn ghost", type: "button", "data-testid": "logout", onclick: () => logout(navigate, false) }, t("Log out")),
        h("button", { class: "btn ghost", type: "button", "data-testid": "logout-everywhere", onclick: () => logout(navigate, true) }, t("Log out everywhere")),
        notifySwitch((message) => toast(message, "error")))),
    list,
    blockedCard(),
    accountSettings(navigate, info.account),
    await botAccountCard(info, navigate),
    await mailSettings(),
    await reminderSettings());
  // every change of a game of yours, as it happens (the account socket)
  const stop = onGamesChange((games) => {
    const fresh = gameList(games, t("You have no games yet. Create one, or take a seat in an open game."));
    list.replaceWith(fresh);
    list = fresh;
  });
  return { destroy: stop };
}

// -- bot accounts (docs/bot-api.md) ---------------------------------------------------------

/** Where the bot API is described: the repository's document (the server serves none). */
const BOT_API_DOC = "docs/bot-api.md";

/** For a person: what a bot account is, and turning this account into one (for good,
 * confirmed with the password). For a bot account: its API tokens. */
async function botAccountCard({ account, may_become_bot: mayBecomeBot }, navigate) {
  const card = h("section", { class: "card", "data-testid": "bot-account", "aria-labelledby": "bot-account-heading" },
    h("h2", { id: "bot-account-heading" }, t("Bot account"), account.bot ? [" ", botBadge()] : null));
  const docs = () => h("p", { class: "muted" }, ...withNodes(t("The bot API is described in {doc} in the source repository of this server."), { doc: h("code", {}, BOT_API_DOC) }));
  if (!account.bot) {
    const password = passwordField("bot-password", t("Your password, to confirm"), "current-password");
    const form = accountForm("make-bot", t("Turn this account into a bot account"), null, [password],
      h("button", { class: "btn danger", type: "submit", "data-testid": "make-bot-submit" }, t("Turn this account into a bot account")),
      async () => {
        await api("/api/account/bot", { method: "POST", body: { password: password.input.value } });
        password.input.value = "";
        toast(t("This account is a bot account now."), "ok");
        await refreshAccount();
        navigate("/me", { replace: true });
        return "";
      });
    form.querySelector("h3").after(
      h("p", { class: "bot-warning", "data-testid": "make-bot-warning" }, t("This cannot be undone. A bot account plays only through the bot API, with the tokens it makes here: it can no longer play on this page. Only an account that has never taken a seat can become one.")));
    card.append(
      h("p", {}, t("A bot account is played by a program (your game AI) instead of a person: the program plays on this server through the bot API, against people and our bots, and is rated like everyone else, on a leaderboard of its own. Everywhere its name appears it is marked as a bot.")),
      h("p", {}, t("To put a program in front of players, register a new account for it and turn that account into a bot account.")),
      docs(),
      // the server refuses the conversion once the account has taken (or been invited to) a seat
      mayBecomeBot === false
        ? h("p", { class: "muted", "data-testid": "make-bot-refused" }, t("This account has taken a seat as a person, so it cannot become a bot account."))
        : form);
    return card;
  }
  card.append(
    h("p", {}, t("This is a bot account: it plays through the bot API only, signed in with an API token sent as “Authorization: Bearer …”. Make a token for each program or machine, and revoke one that may have leaked.")),
    docs());
  const list = h("div", { "data-testid": "token-list", "aria-live": "polite" });
  const shown = h("div", { "data-testid": "new-token-box" }); // a new token, shown once
  async function refill() {
    try {
      const { tokens } = await api("/api/account/tokens");
      list.replaceChildren(tokenTable(tokens, refill));
    } catch (err) {
      list.replaceChildren(h("p", { class: "form-status error" }, err.message));
    }
  }
  card.append(list, shown, newTokenForm((made) => {
    shown.replaceChildren(newTokenBox(made));
    shown.querySelector("input")?.focus();
    refill();
  }));
  await refill();
  return card;
}

/** The bot account's tokens: name, scopes, made, last used, and Revoke (asked twice). */
function tokenTable(tokens, changed) {
  if (!tokens.length) return h("p", { class: "muted", "data-testid": "no-tokens" }, t("No API tokens yet."));
  const rows = tokens.map((token) => {
    const cell = h("td", {});
    const revoke = h("button", { class: "btn ghost small", type: "button", "data-testid": `revoke-token-${token.id}`,
      "aria-label": t("Revoke the token {name}", { name: token.name }), onclick: () => cell.replaceChildren(confirmRevoke(token, cell, revoke, changed)) }, t("Revoke"));
    cell.append(revoke);
    return h("tr", { "data-testid": `token-${token.id}` },
      h("td", { "data-testid": "token-name" }, token.name),
      h("td", {}, token.scopes.map(scopeName).join(", ")),
      h("td", {}, formatDateTime(token.created)),
      h("td", {}, token.last_used ? formatDateTime(token.last_used) : t("never")),
      cell);
  });
  const table = h("table", { class: "token-table", "data-testid": "token-table" },
    h("caption", { class: "visually-hidden" }, t("Your API tokens")),
    h("thead", {}, h("tr", {},
      h("th", { scope: "col" }, t("Name")), h("th", { scope: "col" }, t("Scopes")), h("th", { scope: "col" }, t("Created")),
      h("th", { scope: "col" }, t("Last used")), h("th", { scope: "col" }, h("span", { class: "visually-hidden" }, t("Revoke"))))),
    h("tbody", {}, ...rows));
  return h("div", {}, table, revokeAll(changed));
}

/** "Revoke all tokens", asked twice: every program of this account stops at once. */
function revokeAll(changed) {
  const box = h("div", { class: "row wrap", role: "group", "aria-label": t("Revoke all tokens") });
  const start = h("button", { class: "btn ghost small", type: "button", "data-testid": "revoke-all-tokens", onclick: () => {
    box.replaceChildren(h("span", {}, t("Every program using this account's tokens stops at once.")), sure, cancel);
    queueMicrotask(() => cancel.focus());
  } }, t("Revoke all tokens"));
  const cancel = h("button", { class: "btn ghost small", type: "button", "data-testid": "revoke-all-cancel", onclick: () => {
    box.replaceChildren(start);
    start.focus();
  } }, t("Cancel"));
  const sure = h("button", { class: "btn danger small", type: "button", "data-testid": "revoke-all-confirm", onclick: async () => {
    sure.disabled = cancel.disabled = true;
    try {
      const answer = await api("/api/account/tokens/revoke-all", { method: "POST" });
      toast(tn("{n} token was revoked.", "{n} tokens were revoked.", answer.revoked), "ok");
      await changed();
    } catch (err) {
      toast(err.message, "error");
      sure.disabled = cancel.disabled = false;
    }
  } }, t("Revoke all for good"));
  box.append(start);
  return box;
}

/** "Revoke it? Programs using it stop at once." with a Revoke and a Cancel button. */
function confirmRevoke(token, cell, revoke, changed) {
  const cancel = h("button", { class: "btn ghost small", type: "button", "data-testid": `revoke-cancel-${token.id}`, onclick: () => {
    cell.replaceChildren(revoke);
    revoke.focus();
  } }, t("Cancel"));
  const sure = h("button", { class: "btn danger small", type: "button", "data-testid": `revoke-confirm-${token.id}`, onclick: async () => {
    sure.disabled = cancel.disabled = true;
    try {
      await api(`/api/account/tokens/${encodeURIComponent(token.id)}/revoke`, { method: "POST" });
      toast(t("The token {name} was revoked: programs using it are signed out at once.", { name: token.name }), "ok");
      await changed();
    } catch (err) {
      toast(err.message, "error");
      sure.disabled = cancel.disabled = false;
    }
  } }, t("Revoke for good"));
  queueMicrotask(() => cancel.focus());
  return h("span", { class: "revoke-confirm", role: "group", "aria-label": t("Revoke the token {name}", { name: token.name }) },
    h("span", {}, t("Programs using it stop at once.")), sure, cancel);
}

/** The scopes as the page names them. */
function scopeName(scope) {
  return scope === "play" ? t("play") : scope === "read" ? t("read") : scope;
}

/** A new token: its name and scopes (both checked at first). */
function newTokenForm(made) {
  const name = h("input", { type: "text", id: "token-name", autocomplete: "off", required: true, "data-testid": "token-name-input" });
  const scope = (value, label) => h("label", { class: "check" },
    h("input", { type: "checkbox", name: "token-scope", value, checked: true, "data-testid": `token-scope-${value}` }), h("span", {}, label));
  const scopes = h("fieldset", { class: "options token-scopes" }, h("legend", {}, t("It may")),
    scope("play", t("play: accept challenges, open and join games, move, resign")),
    scope("read", t("read: its games and events")));
  const fields = [
    { field: h("label", { class: "field", for: "token-name" }, h("span", {}, t("Name (where the token is used, e.g. “laptop”)")), name) },
    { field: scopes },
  ];
  const button = h("button", { class: "btn primary", type: "submit", "data-testid": "create-token" }, t("Create token"));
  return accountForm("token-form", t("New API token"), null, fields, button, async () => {
    const chosen = [...scopes.querySelectorAll("input[name=token-scope]:checked")].map((box) => box.value);
    const answer = await api("/api/account/tokens", { method: "POST", body: { name: name.value, scopes: chosen } });
    name.value = "";
    made(answer);
    return "";
  });
}

/** A token just made: shown this once, with a Copy button and what holding it means. */
function newTokenBox(made) {
  const field = h("input", { type: "text", readonly: true, value: made.token, "aria-label": t("The new token {name}", { name: made.name }), "data-testid": "new-token", onfocus: (e) => e.target.select() });
  return h("div", { class: "new-token", role: "group", "aria-label": t("The new token {name}", { name: made.name }) },
    h("p", { class: "bot-warning", "data-testid": "new-token-warning" }, t("Copy this token now: it is shown only this once. Anyone who holds it plays as this account; revoke it if it leaks.")),
    h("span", { class: "link-box" }, field,
      h("button", { type: "button", class: "btn small", "data-testid": "copy-token", onclick: async () => {
        toast(await copyText(made.token) ? t("Token copied") : t("Select the token and copy it"), "ok", 1800);
      } }, t("Copy"))));
}

// -- e-mail notifications ----------------------------------------------------------------

/** The account's e-mail notifications: an address (confirmed through a mailed link) and
 *  what to mail to it: nothing, a mail when it is your turn, or a daily digest. */
async function mailSettings() {
  const card = h("section", { class: "card", "data-testid": "mail-settings", "aria-labelledby": "mail-heading" },
    h("h2", { id: "mail-heading" }, t("E-mail notifications")));
  let settings;
  try {
    settings = await api("/api/account/email");
  } catch (err) {
    card.append(h("p", { class: "muted" }, err.message));
    return card;
  }
  if (!settings.offered) {
    card.append(h("p", { class: "muted", "data-testid": "mail-not-offered" }, t("This server sends no e-mail.")));
    return card;
  }
  const address = h("input", { type: "email", id: "mail-address", autocomplete: "email", maxlength: "254", value: settings.address || "", "data-testid": "mail-address" });
  const status = h("p", { class: "muted", role: "status", "data-testid": "mail-status" }, mailStatus(settings));
  const choice = (value, label) => h("label", { class: "check" },
    h("input", { type: "radio", name: "mail-mode", value, checked: settings.mode === value, "data-testid": `mail-mode-${value}` }), h("span", {}, label));
  const form = h("form", { class: "mail-form", novalidate: true },
    h("label", { class: "field", for: "mail-address" }, h("span", {}, t("E-mail address")), address),
    h("fieldset", { class: "options mail-modes" }, h("legend", {}, t("Mail me")),
      choice("off", t("nothing")),
      choice("turn", t("when it is my turn (at most one mail per game and turn)")),
      choice("digest", t("once a day: the games waiting for my move"))),
    status,
    h("div", { class: "row end" }, h("button", { class: "btn primary", type: "submit", "data-testid": "mail-save" }, t("Save"))));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const mode = form.querySelector("input[name=mail-mode]:checked")?.value || "off";
    try {
      const saved = await api("/api/account/email", { method: "POST", body: { address: address.value, mode, lang: language() } });
      status.textContent = mailStatus(saved);
      toast(saved.verification_sent ? t("Check your inbox: open the link we sent to confirm the address.") : t("Saved"), "ok");
    } catch (err) {
      toast(err.message, "error");
    }
  });
  card.append(h("p", { class: "muted" }, t("Mails come in this page's language, with a link to the game and one that stops them.")), form);
  return card;
}

function mailStatus(settings) {
  if (!settings.address) return t("No address yet.");
  return settings.verified
    ? t("{address} is confirmed.", { address: settings.address })
    : t("{address} is not confirmed yet: open the link in the mail we sent. Until then it gets no other mail.", { address: settings.address });
}

/** /mail/verify and /mail/unsubscribe: the links in mails, sent on to the server. */
export async function showMailLink(root, kind) {
  const token = new URLSearchParams(location.search).get("token") || "";
  const verify = kind === "verify";
  const title = verify ? t("Confirm your e-mail address") : t("No more mails");
  pageTitle(title);
  const card = h("section", { class: "card narrow", "data-testid": "mail-link", "aria-live": "polite" }, h("h1", {}, title));
  root.append(card);
  try {
    const answer = verify
      ? await api("/api/mail/verify", { method: "POST", body: { token } })
      : await api(`/api/mail/unsubscribe?token=${encodeURIComponent(token)}`, { method: "POST" });
    card.append(h("p", { "data-testid": "mail-link-done" }, verify
      ? t("{address} is confirmed: the mails you chose will come to it.", { address: answer.address })
      : t("{address} gets no more mails from us. You can turn them on again on your account page.", { address: answer.address })));
  } catch (err) {
    card.append(h("p", { "data-testid": "mail-link-error" }, err.message));
  }
  card.append(h("a", { class: "btn", href: "/me" }, t("My games")));
  return {};
}

// -- your account: a new password, your data, deleting it --------------------------------------

/** A password field with its label; ``id`` names it for the label and tests. */
function passwordField(id, label, autocomplete) {
  const input = h("input", { type: "password", id, autocomplete, required: true, "data-testid": id });
  return { input, field: h("label", { class: "field", for: id }, h("span", {}, label), input) };
}

/** A form of the account card: ``fields`` and a button; ``send()`` answers a message
 * for the form's status line (shown and announced), or throws an error shown there. */
function accountForm(testid, title, intro, fields, button, send) {
  const status = h("p", { class: "form-status", role: "status", "data-testid": `${testid}-status` });
  const form = h("form", { class: "account-form", "data-testid": testid, novalidate: true },
    h("h3", {}, title), intro ? h("p", { class: "muted" }, intro) : null,
    ...fields.map((f) => f.field), h("div", { class: "row wrap" }, button), status);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    button.disabled = true;
    status.classList.remove("error");
    status.textContent = "";
    try {
      status.textContent = await send();
    } catch (err) {
      status.classList.add("error");
      status.textContent = err.message;
    } finally {
      button.disabled = false;
    }
  });
  return form;
}

function accountSettings(navigate, account) {
  const current = passwordField("current-password", t("Current password"), "current-password");
  const fresh = passwordField("new-password", t("New password (8 characters or more)"), "new-password");
  // a bot account's API tokens are revoked with the old password, unless kept
  const keep = h("input", { type: "checkbox", id: "keep-tokens", "data-testid": "keep-tokens" });
  const keepField = { field: h("label", { class: "check", for: "keep-tokens" }, keep, h("span", {}, t("Keep my API tokens (otherwise they are revoked)"))) };
  const change = accountForm("change-password", t("Change password"),
    t("Every other device where you are signed in is signed out."), account.bot ? [current, fresh, keepField] : [current, fresh],
    h("button", { class: "btn", type: "submit", "data-testid": "change-password-submit" }, t("Change password")),
    async () => {
      const body = { password: current.input.value, new_password: fresh.input.value, keep_tokens: keep.checked };
      const answer = await api("/api/account/password", { method: "POST", body });
      current.input.value = fresh.input.value = "";
      const ended = tn("Password changed; {n} other session was ended.", "Password changed; {n} other sessions were ended.", answer.sessions_ended);
      if (!answer.tokens_revoked) return ended;
      const revoked = tn("{n} API token was revoked.", "{n} API tokens were revoked.", answer.tokens_revoked);
      return `${ended} ${revoked}`;
    });
  const data = h("div", { class: "account-form" },
    h("h3", {}, t("Your data")),
    h("p", { class: "muted" }, t("Everything the server keeps about your account: your name, your games and your ratings, as a JSON file.")),
    h("a", { class: "btn", href: "/api/account/data", download: "", "data-testid": "download-data" }, t("Download my data")));
  const confirm = passwordField("delete-password", t("Your password, to confirm"), "current-password");
  const remove = accountForm("delete-account", t("Delete account"),
    t("Your account, its sessions and its ratings are deleted for good. Games you played stay, with your seats shown as “deleted player”."), [confirm],
    h("button", { class: "btn danger", type: "submit", "data-testid": "delete-account-submit" }, t("Delete my account")),
    async () => {
      await api("/api/account/delete", { method: "POST", body: { password: confirm.input.value } });
      toast(t("Your account was deleted."), "ok");
      await refreshAccount();
      navigate("/me", { replace: true });
      return "";
    });
  return h("section", { class: "card", "data-testid": "account-settings", "aria-labelledby": "account-settings-title" },
    h("h2", { id: "account-settings-title" }, t("Your account")), change, data, remove);
}

async function logout(navigate, everywhere) {
  try {
    const answer = await api(everywhere ? "/api/account/logout-everywhere" : "/api/account/logout", { method: "POST" });
    toast(everywhere
      ? tn("Logged out of {n} session", "Logged out of {n} sessions", answer.sessions_ended || 0)
      : t("Logged out"), "ok");
  } catch (err) {
    toast(err.message, "error");
  }
  await refreshAccount();
  navigate("/me", { replace: true });
}

function signInForm(navigate) {
  // no maxlength: a pasted name or password that is too long is refused with the
  // reason, never silently cut to a different one
  const name = h("input", { type: "text", id: "account-name", autocomplete: "username", required: true, "data-testid": "account-name" });
  const password = h("input", { type: "password", id: "account-password", autocomplete: "current-password", required: true, "data-testid": "account-password" });
  const form = h("form", { class: "card narrow", "data-testid": "sign-in-form", novalidate: true },
    h("h1", {}, t("Sign in")),
    h("p", { class: "muted" }, t("An account is optional: it keeps your games on every device, lets you join open games and gives you a rating. Without one, seat links work as always.")),
    h("label", { class: "field", for: "account-name" }, h("span", {}, t("Name")), name),
    h("label", { class: "field", for: "account-password" }, h("span", {}, t("Password (8 characters or more)")), password));
  const send = (path) => async (event) => {
    event.preventDefault();
    try {
      await api(path, { method: "POST", body: { name: name.value, password: password.value } });
      await refreshAccount();
      navigate("/me", { replace: true });
    } catch (err) {
      toast(err.message, "error");
    }
  };
  form.append(h("div", { class: "row end wrap" },
    h("button", { class: "btn", type: "button", "data-testid": "register", onclick: send("/api/account/register") }, t("Register")),
    h("button", { class: "btn primary", type: "submit", "data-testid": "login" }, t("Sign in"))));
  form.addEventListener("submit", send("/api/account/login"));
  return form;
}

/** A list of games for "my games" and profiles: your turn first, finished with results. */
function gameList(games, empty) {
  const card = h("section", { class: "card", "data-testid": "my-games" });
  if (!games.length) {
    card.append(h("p", { class: "muted" }, empty));
    return card;
  }
  if (games.filter((g) => g.invited).length > 1) card.append(declineAllButton());
  const list = h("ul", { class: "game-list" });
  for (const game of games) {
    list.append(h("li", { class: "game-item", "data-testid": `my-game-${game.id}` },
      h("a", { class: "game-open", href: game.url },
        h("strong", {}, `${game.title}: `, seatNames(game.seats)),
        h("small", { class: "muted" }, formatDateTime(game.updated))),
      h("span", { class: "game-status-box" },
        h("span", { class: `status-chip ${game.over ? "over" : ""} ${game.your_turn || game.invited ? "your-turn" : ""}`, "data-testid": "game-status" }, gameStatus(game)),
        game.invited ? invitationButtons(game) : null,
        game.deadline && !game.over ? timeLeft(Date.parse(game.deadline)) : null)));
  }
  card.append(list);
  return card;
}

/** The seats' names (``label(seat)``) joined by " · ", each bot account's with its badge. */
export function seatNames(seats, label = seatLabel) {
  return seats.flatMap((seat, i) => [i ? " · " : null, ...withBotBadge(label(seat), seat.bot_account)]);
}

/** "2 days 4 h left", counting down while on show; the deadline itself as its title. */
export function timeLeft(deadline, testid = "time-left", who = null) {
  const el = h("small", { class: "time-left", "data-testid": testid, title: t("until {when}", { when: deadlineWords(deadline) }) });
  const tick = () => {
    const left = (deadline - Date.now()) / 1000;
    const time = durationWords(left);
    el.textContent = who === null ? t("{time} left", { time }) : t("{names}: {time} left", { names: who, time });
    el.classList.toggle("low", left < 3600);
  };
  tick();
  const timer = setInterval(() => {
    if (el.isConnected) tick();
    else clearInterval(timer); // gone with its screen
  }, 1000);
  return el;
}

/** Decline every invitation at once (their seats open to the lobby). */
function declineAllButton() {
  return h("div", { class: "row end" }, h("button", {
    class: "btn ghost small", type: "button", "data-testid": "decline-all",
    onclick: async (event) => {
      event.target.disabled = true;
      try {
        const done = await api("/api/account/invitations/decline", { method: "POST", body: {} });
        toast(tn("{n} invitation declined.", "{n} invitations declined.", done.declined.length), "ok");
      } catch (err) {
        toast(err.message, "error");
        event.target.disabled = false;
      }
    },
  }, t("Decline all invitations")));
}

/** Block an account: the invitations between you are declined, and you are kept apart. */
async function block(name) {
  try {
    await api("/api/account/blocks", { method: "POST", body: { name } });
    toast(t("{name} is blocked: you will not meet in games, invitations or mails.", { name }), "ok");
    document.querySelector("[data-testid=blocked]")?.replaceWith(blockedCard());
  } catch (err) {
    toast(err.message, "error");
  }
}

/** The accounts you blocked, each with a button to unblock it (none: nothing shown). */
function blockedCard() {
  const card = h("section", { class: "card", "data-testid": "blocked", hidden: true });
  api("/api/account/blocks").then(({ blocked }) => {
    if (!blocked.length) return;
    const list = h("ul", { class: "game-list" });
    for (const { name } of blocked) {
      list.append(h("li", { class: "row wrap" }, h("span", {}, name), h("button", {
        class: "btn ghost small", type: "button", "data-testid": `unblock-${name}`,
        onclick: async () => {
          try {
            await api("/api/account/blocks/remove", { method: "POST", body: { name } });
            card.replaceWith(blockedCard());
          } catch (err) {
            toast(err.message, "error");
          }
        },
      }, t("Unblock"))));
    }
    card.append(h("h2", {}, t("Blocked accounts")), h("p", { class: "muted" }, t("You will not meet them in games, invitations or mails; they are not told.")), list);
    card.hidden = false;
  }).catch(() => {});
  return card;
}

/** Accept (on to the game) or decline (the seat opens to the lobby) an invitation. */
function invitationButtons(game) {
  const what = `${game.title}: ${game.seats.map((s) => s.name).join(" · ")}`;
  const answer = (accept) => async (event) => {
    const box = event.target.closest(".invitation");
    for (const button of box.querySelectorAll("button")) button.disabled = true;
    try {
      const done = await api(`/api/games/${encodeURIComponent(game.id)}/invitation`, { method: "POST", body: { accept } });
      if (accept) {
        history.pushState(null, "", done.url);
        window.dispatchEvent(new PopStateEvent("popstate")); // the router shows the game
      } else {
        toast(t("Invitation declined: the seat is open to everyone in the lobby now."), "ok");
        box.closest(".game-item")?.remove();
      }
    } catch (err) {
      toast(err.message, "error");
      for (const button of box.querySelectorAll("button")) button.disabled = false;
    }
  };
  return h("span", { class: "invitation row wrap" },
    h("button", { class: "btn primary small", type: "button", "data-testid": `accept-${game.id}`, "aria-label": t("Accept the invitation: {game}", { game: what }), onclick: answer(true) }, t("Accept")),
    h("button", { class: "btn ghost small", type: "button", "data-testid": `decline-${game.id}`, "aria-label": t("Decline the invitation: {game}", { game: what }), onclick: answer(false) }, t("Decline")),
    game.creator ? h("button", { class: "btn ghost small", type: "button", "data-testid": `block-${game.id}`, onclick: () => block(game.creator) }, t("Block {name}", { name: game.creator })) : null);
}

/** A game the clock ended: who ran out of time, and (rated) the rating it cost or won. */
function abandonedStatus(game) {
  const out = (game.timed_out || []).map((i) => (game.seats[i] ? seatLabel(game.seats[i]) : "?"));
  if (!out.length) return t("abandoned");
  const names = out.join(", ");
  if (game.resigned) return game.rating ? `${t("{names} resigned", { names })} · ${t("rating {rating}", { rating: formatNumber(game.rating.after, 1) })} (${formatChange(game.rating.after - game.rating.before)})` : t("{names} resigned", { names });
  if (!game.rating) return t("Abandoned: {names} ran out of time", { names });
  const change = game.rating.after - game.rating.before;
  return `${t("{names} ran out of time and lost", { names })} · ${t("rating {rating}", { rating: formatNumber(game.rating.after, 1) })} (${formatChange(change)})`;
}

function gameStatus(game) {
  if (game.invited) return game.creator ? t("{name} invites you", { name: game.creator }) : t("you are invited");
  if (game.abandoned) return abandonedStatus(game);
  if (game.your_turn) return t("your turn");
  if (game.waiting) return t("waiting for players");
  if (!game.over) return t("in play");
  const rank = game.rank ? t("place {rank}", { rank: game.rank }) : t("finished");
  if (!game.rating) return rank;
  const change = game.rating.after - game.rating.before;
  return t("{rank}, rating {rating} ({change})", { rank, rating: formatNumber(game.rating.after, 1), change: formatChange(change) });
}

// -- /lobby: open games --------------------------------------------------------------------

export async function showOpenGames(root, navigate) {
  const query = new URLSearchParams(location.search);
  const filters = { type: query.get("type") || "", time_limit: query.get("time_limit") || "" };
  const [info, types] = await Promise.all([refreshAccount(), gameTypes()]);
  pageTitle(t("Open games"));
  const list = h("div", { "data-testid": "open-game-list", "aria-live": "polite" });
  const card = h("section", { class: "card", "data-testid": "open-games" },
    h("h1", {}, t("Open games")),
    h("p", { class: "muted" }, info.account
      ? t("Take a seat with one click; the game starts when every seat is taken.")
      : t("Sign in to take a seat in an open game.")),
    openGameFilters(types, filters, () => {
      const shown = new URLSearchParams(Object.entries(filters).filter(([, v]) => v));
      history.replaceState(null, "", `/lobby${shown.size ? `?${shown}` : ""}`);
      fill();
    }),
    list);
  root.append(card);

  async function fill() {
    const shown = new URLSearchParams(Object.entries(filters).filter(([, v]) => v));
    let games;
    try {
      ({ games } = await api(`/api/lobby${shown.size ? `?${shown}` : ""}`));
    } catch (err) {
      list.replaceChildren(h("p", { class: "error" }, err.message));
      return;
    }
    if (!games.length) {
      list.replaceChildren(h("p", { class: "muted", "data-testid": "no-open-games" }, shown.size
        ? t("No open game matches these choices.")
        : t("No game is waiting for players right now. Create one and leave a seat open.")));
      return;
    }
    list.replaceChildren(h("ul", { class: "game-list" },
      ...games.map((game) => openGameItem(game, info.account, types, navigate))));
  }
  await fill();
  return {};
}

/** The lobby's filters: which game, and which time per move ("" for any). */
function openGameFilters(types, filters, changed) {
  const select = (name, label, choices) => h("label", { class: "field option-choice", for: `filter-${name}` },
    h("span", {}, label),
    h("select", { id: `filter-${name}`, "data-testid": `filter-${name}`, onchange: (e) => { filters[name] = e.target.value; changed(); } },
      ...choices.map(([value, text]) => h("option", { value, selected: value === filters[name] }, text))));
  const limits = [["", t("any")], ["none", t("no time limit")],
    ...[3600, 6 * 3600, 86400, 3 * 86400, 7 * 86400].map((s) => [String(s), t("{span} per move", { span: spanWords(s) })])];
  return h("div", { class: "options lobby-filters", role: "group", "aria-label": t("Show only") },
    select("type", t("Game"), [["", t("every game")], ...types.map((ty) => [ty.name, ty.title])]),
    select("time_limit", t("Time per move"), limits));
}

/** One open game: its seats, creator (and rating), age, options, rating rule, and a
 * seat to take — or, for its creator, a button that withdraws it. */
function openGameItem(game, account, types, navigate) {
  const label = (s) => (s.open ? t("open seat") : s.kind === "bot" ? t(s.name) : s.name);
  const seats = game.seats.map(label).join(" · ");
  const mine = account && game.creator && game.creator.name === account.name;
  const seated = account && game.seats.some((s) => s.account && s.name === account.name);
  const item = h("li", { class: "game-item", "data-testid": `open-game-${game.id}` });
  const creatorName = game.creator ? withBotBadge(game.creator.name, game.creator.bot) : null;
  let button;
  if (mine) {
    button = h("button", { class: "btn ghost small", type: "button", "data-testid": `withdraw-${game.id}`,
      "aria-label": t("Withdraw your game: {game}", { game: `${game.title}: ${seats}` }),
      onclick: async () => {
        button.disabled = true;
        try {
          await api(`/api/games/${encodeURIComponent(game.id)}/cancel`, { method: "POST" });
          toast(t("Your game was withdrawn."), "ok");
          item.remove();
        } catch (err) {
          toast(err.message, "error");
          button.disabled = false;
        }
      } }, t("Withdraw"));
  } else if (seated) {
    button = h("a", { class: "btn small", href: `/g/${game.id}`, "data-testid": `join-${game.id}` }, t("Your game"));
  } else {
    button = h("button", {
      class: "btn primary small", type: "button", "data-testid": `join-${game.id}`, disabled: !account,
      onclick: async () => {
        button.disabled = true;
        try {
          const answer = await api(`/api/games/${encodeURIComponent(game.id)}/join`, { method: "POST", body: {} });
          navigate(answer.url);
        } catch (err) {
          toast(err.message, "error");
          button.disabled = false;
        }
      },
    }, t("Take a seat"));
  }
  const rated = game.creator && game.creator.games;
  const rating = rated ? t("rating {rating}", { rating: formatNumber(game.creator.rating, 1) }) : t("not rated yet");
  const creator = game.creator ? withNodes(t("by {name} ({rating})", { rating }), { name: creatorName }) : [t("by a guest")];
  const when = t("opened {time} ago, open for {left} more", { time: durationWords(game.age), left: durationWords(game.expires_in) });
  item.append(
    h("span", { class: "game-open" },
      h("strong", {}, `${game.title}: `, seatNames(game.seats, label)),
      h("small", { class: "muted", "data-testid": "open-game-creator" }, ...creator, ` · ${when}`),
      h("small", { class: "muted" }, [
        optionText(types.find((x) => x.name === game.type), game.options),
        game.days_per_move ? daysText(game.days_per_move, game.on_timeout)
          : clockText(game.options, game.on_timeout) || timeText(game.time_limit, game.on_timeout),
        game.friends_only ? t("friends only") : null,
        game.rated ? t("rated: no hints, no undo") : game.unrated === "seed" ? t("unrated: the creator chose the seed")
          : game.unrated === "casual" ? t("unrated: hints and undo allowed") : t("unrated: not every seat is an account's"),
      ].filter(Boolean).join(" — "))),
    button);
  return item;
}

/** The game's options as its form names them ("Remove cards unseen before play: none"). */
function optionText(type, options) {
  const parts = [];
  for (const opt of type?.options || []) {
    if (opt.name === "time_limit" || !(opt.name in (options || {}))) continue;
    const value = options[opt.name];
    if (opt.type === "bool") {
      if (value) parts.push(opt.label);
    } else if (opt.type === "choice") {
      const choice = opt.choices.find((c) => c.value === value);
      parts.push(`${opt.label}: ${choice ? choice.label : value}`);
    }
  }
  return parts.join(", ");
}

/** "3 days", "6 hours", "30 seconds". */
function spanWords(seconds) {
  const days = seconds / 86400;
  const hours = seconds / 3600;
  return days >= 1 && Number.isInteger(days) ? tn("{n} day", "{n} days", days)
    : hours >= 1 && Number.isInteger(hours) ? tn("{n} hour", "{n} hours", hours)
      : tn("{n} second", "{n} seconds", seconds);
}

/** "1 day per move, then the bot plays" and the like. */
export function timeText(seconds, onTimeout) {
  if (!seconds) return t("no time limit");
  const span = spanWords(seconds);
  return onTimeout === "abandon"
    ? t("{span} per move; whoever runs out of time loses (an unrated game is abandoned)", { span })
    : t("{span} per move, then the default bot plays", { span });
}

// -- ratings ---------------------------------------------------------------------------------

export async function showLeaderboard(root, typeName, navigate) {
  const types = await gameTypes();
  const type = types.find((x) => x.name === typeName) || types[0];
  if (type.name !== typeName) {
    navigate(`/leaderboard/${type.name}${location.search}`, { replace: true });
    return {};
  }
  const { offset, per } = pageOf(location.search);
  // people (and our own bots), or the bot accounts: two boards, ?players=bots the second
  const bots = new URLSearchParams(location.search).get("players") === "bots";
  const pool = poolOf(location.search); // live or correspondence games: rated apart
  const board = await api(`/api/leaderboard/${encodeURIComponent(type.name)}?offset=${offset}&limit=${per}${bots ? "&players=bots" : ""}${pool === "live" ? "" : `&pool=${pool}`}`);
  pageTitle(t("Ratings: {game}", { game: board.title }));
  const picker = h("nav", { class: "row wrap leaderboard-picker", "aria-label": t("Game") }, ...types.map((x) => h("a", {
    class: `btn small ${x.name === type.name ? "primary" : "ghost"}`, href: `/leaderboard/${x.name}${bots ? "?players=bots" : ""}`, "data-testid": `leaderboard-${x.name}`,
    "aria-current": x.name === type.name ? "page" : null,
  }, x.title)));
  const section = (isBots, text, testid) => h("a", {
    class: `btn small ${isBots === bots ? "primary" : "ghost"}`, href: `/leaderboard/${type.name}${isBots ? "?players=bots" : ""}`,
    "data-testid": testid, "aria-current": isBots === bots ? "page" : null,
  }, text);
  const sections = h("nav", { class: "row wrap leaderboard-sections", "aria-label": t("Who is listed") },
    section(false, t("People and our bots"), "leaderboard-people"),
    section(true, t("Bot accounts"), "leaderboard-bots"));
  const established = board.players.filter((p) => !p.provisional);
  const provisional = board.players.filter((p) => p.provisional);
  const needed = board.rules.provisional_opponents;
  root.append(h("section", { class: "card", "data-testid": "leaderboard" },
    h("h1", {}, bots ? t("Bot accounts: {game}", { game: board.title }) : t("Ratings: {game}", { game: board.title })),
    picker,
    sections,
    poolPicker(type.name, pool, bots),
    bots
      ? h("p", { "data-testid": "leaderboard-intro" }, t("Bot accounts are programs that play through the bot API. They are rated like everyone else, in their games against people and bots, and listed here on their own."))
      : h("p", { "data-testid": "leaderboard-intro" }, t("Your rating goes up when you beat players rated above you and down when you lose to players rated below you. New players start at 0, and the number grows as the site becomes surer of how well you play.")),
    yourStanding(board),
    h("details", { class: "leaderboard-rules", "data-testid": "leaderboard-rules" },
      h("summary", {}, t("How ratings work")),
      h("ul", {},
        h("li", {}, t("Rated are games between accounts (and bots) without a chosen seed, unless their creator made them unrated. Rated games allow no hints and no undo, and always have a time per move.")),
        h("li", {}, t("A player whose time runs out in a rated game, who resigns or who deletes the account loses it; ended before each player made two moves, a game against people is not rated.")),
        h("li", {}, t("A game against an account that is still provisional does not change your rating (its own rating changes).")),
        h("li", {}, t("Two accounts that play each other often count less: their k-th game together within {days} days counts 1/k.", { days: board.rules.pair_window_days })),
        h("li", {}, tn("A new account is provisional, listed apart, until it has played {n} different opponent.", "A new account is provisional, listed apart, until it has played {n} different opponents.", needed)),
        h("li", {}, t("The bots started from a tournament among themselves.")),
        h("li", {}, t("The number shown is a careful estimate (openskill's Plackett-Luce model): the estimated skill minus three times its uncertainty (mu − 3 sigma).")))),
    established.length ? ratingTable(established, t("Ranked players"), "ranked") : null,
    provisional.length ? ratingTable(provisional, t("Provisional players"), "provisional") : null,
    bots && !board.players.length ? h("p", { class: "muted", "data-testid": "no-bot-accounts" }, t("No bot account has played a rated game of this kind yet.")) : null,
    leaderboardPager(board, type.name, per, bots)));
  return {};
}

const LEADERBOARD_PAGE = 50;

/** The page asked for: ``?page=`` (from 1) of ``?per=`` rows (1 to 100, else 50). */
function pageOf(search) {
  const query = new URLSearchParams(search);
  const asked = Number(query.get("per") || LEADERBOARD_PAGE);
  const per = Number.isInteger(asked) && asked >= 1 && asked <= 100 ? asked : LEADERBOARD_PAGE;
  const page = Number(query.get("page") || "1");
  return { offset: Number.isInteger(page) && page > 1 ? (page - 1) * per : 0, per };
}

/** A signed-in player's place, or what they still need to be ranked. */
function yourStanding(board) {
  const you = board.you;
  if (!you) return null;
  const needed = you.opponents_needed;
  let text;
  if (!you.player) {
    text = tn("You are not rated yet: finish a rated game (against a bot or another account) to get a rating, and play {n} different opponent to be ranked.", "You are not rated yet: finish a rated game (against a bot or another account) to get a rating, and play {n} different opponents to be ranked.", needed);
  } else if (you.player.provisional) {
    text = tn("Your rating is {rating} but provisional: play {n} more different opponent to be ranked.", "Your rating is {rating} but provisional: play {n} more different opponents to be ranked.", needed, { rating: formatNumber(you.player.rating, 1) });
  } else {
    text = t("You are number {rank} with a rating of {rating}.", { rank: you.player.rank, rating: formatNumber(you.player.rating, 1) });
  }
  return h("p", { class: "your-standing", "data-testid": "your-standing" }, text);
}

function ratingTable(players, caption, kind) {
  const rows = players.map((p) => {
    const botName = p.kind === "bot" ? t(p.name) : null; // a bot's name is a msgid
    // a bot's rating started from a tournament among the bots: its games are counted apart
    const games = p.seeded_games ? t("{games} (+{seeded} in the tournament)", { games: p.games, seeded: p.seeded_games }) : String(p.games);
    return h("tr", { "data-testid": `rating-row-${p.kind}` },
      h("td", {}, p.rank === null ? "–" : String(p.rank)),
      h("td", {}, botName !== null ? t("{name} (bot)", { name: botName }) : [h("a", { href: `/u/${encodeURIComponent(p.name)}` }, p.name), p.bot_account ? [" ", botBadge()] : null]),
      h("td", { class: "num", "data-testid": "rating" }, formatNumber(p.rating, 1)),
      h("td", { class: "num", "data-testid": "rating-games" }, games));
  });
  return h("table", { class: "rating-table", "data-testid": `rating-table-${kind}` },
    h("caption", {}, caption),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("Place")), h("th", { scope: "col" }, t("Player")), h("th", { scope: "col", class: "num" }, t("Rating")), h("th", { scope: "col", class: "num" }, t("Games")))),
    h("tbody", {}, ...rows));
}

/** Previous and next pages, as links (they work without script too). */
function leaderboardPager(board, typeName, per, bots) {
  if (board.next === null && board.previous === null) return null;
  const link = (offset, text, testid, rel) => {
    const query = new URLSearchParams();
    const page = Math.floor(offset / per) + 1;
    if (page > 1) query.set("page", String(page));
    if (per !== LEADERBOARD_PAGE) query.set("per", String(per));
    if (bots) query.set("players", "bots");
    if (board.pool && board.pool !== "live") query.set("pool", board.pool);
    const href = `/leaderboard/${typeName}${query.size ? `?${query}` : ""}`;
    return h("a", { class: "btn small", href, rel, "data-testid": testid }, text);
  };
  const first = board.offset + 1;
  const last = board.offset + board.players.length;
  return h("nav", { class: "row center wrap pager", "aria-label": t("Leaderboard pages"), "data-testid": "leaderboard-pager" },
    board.previous !== null ? link(board.previous, t("Previous"), "leaderboard-previous", "prev") : null,
    h("span", { class: "muted" }, t("Players {first}–{last} of {total}", { first, last, total: board.total })),
    board.next !== null ? link(board.next, t("Next"), "leaderboard-next", "next") : null);
}

export async function showProfile(root, name) {
  const profile = await api(`/api/players/${encodeURIComponent(name)}`);
  document.title = `${profile.name} · Tabletop`;
  const ratings = Object.entries(profile.ratings).map(([type, r]) => h("li", {},
    h("a", { href: `/leaderboard/${type}${profile.bot ? "?players=bots" : ""}` }, r.title), ": ",
    h("strong", { "data-testid": `profile-rating-${type}` }, formatNumber(r.rating, 1)), " ",
    h("small", { class: "muted" }, tn("({n} rated game)", "({n} rated games)", r.games)),
    correspondenceRating(type, r, formatNumber)));
  root.append(
    h("section", { class: "card", "data-testid": "profile" },
      h("h1", {}, ...withBotBadge(profile.name, profile.bot)),
      await followButton(profile.name),
      profile.bot ? h("p", { class: "muted", "data-testid": "profile-bot-note" }, t("A bot account: a program that plays through the bot API. Its ratings are listed with the other bot accounts.")) : null,
      h("h2", {}, t("Ratings")), h("ul", {}, ...ratings),
      h("h2", {}, t("Finished games"))),
    gameList(profile.history, t("No finished games yet.")));
  const { account } = await accountInfo(); // block or report them (moderation.js)
  if (account) root.append(await (await loadCode(() => import("./moderation.js"))).playerControls(account, profile.name) ?? "");
  return {};
}

/** A small strip for a game page: claim this seat link's seat for your account. */
export async function claimOffer(gameId, state, tokens) {
  const info = await accountInfo();
  if (!info.account || tokens.length !== 1 || state.you.length !== 1) return null;
  const seat = state.game.seats[state.you[0]];
  if (!seat || seat.account) return null;
  const button = h("button", { class: "btn small", type: "button", "data-testid": "claim-seat", onclick: async () => {
    button.disabled = true;
    try {
      await api(`/api/games/${encodeURIComponent(gameId)}/claim`, { method: "POST", token: tokens[0] });
      toast(t("This seat is now {name}'s", { name: info.account.name }), "ok");
      button.remove();
      refreshAccount();
    } catch (err) {
      toast(err.message, "error");
      button.disabled = false;
    }
  } }, t("Claim this seat as {name}", { name: info.account.name }));
  return button;
}
