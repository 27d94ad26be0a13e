// Friends (issue 46; docs/web.md, "Friends"): /friends lists the players you follow,
// whether they are online and the games they play (a spectator's link), with a
// one-click invitation to a new game; a profile's Follow button; the new-game form's
// "friends only" choice. The list is read again every POLL_MS while on show: a look
// is one cheap query, rate-limited on the server, and presence changes are rare enough
// that half a minute late is fine (no push channel of its own to keep open).
import { accountInfo } from "./account.js";
import { api, gameTypes } from "./api.js";
import { t } from "./i18n.js";
import { storeCreated } from "./lobby.js";
import { toast } from "./toast.js";
import { focusLost, focusName, focusOn, h, refocus } from "./util.js";

const POLL_MS = 30_000;

/** The /friends page. */
export async function showFriends(root, navigate) {
  document.title = `${t("Friends")} · Tabletop`;
  const info = await accountInfo();
  const card = h("section", { class: "card friends", "data-testid": "friends" }, h("h1", {}, t("Friends")));
  root.append(card);
  if (!info.account) {
    card.append(h("p", {}, t("Sign in to follow players and see when they are online.")),
      h("a", { class: "btn primary", href: "/me" }, t("Sign in")));
    return {};
  }
  const types = await gameTypes();
  const list = h("div", { "data-testid": "friend-list" });
  const input = h("input", { type: "text", id: "follow-name", maxlength: "40", autocomplete: "off", "data-testid": "follow-name" });
  const form = h("form", { class: "row wrap", "data-testid": "follow-form" },
    h("label", { for: "follow-name" }, t("Player name")), input,
    h("button", { class: "btn", type: "submit", "data-testid": "follow-submit" }, t("Follow")));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const name = input.value.trim();
    if (!name) return;
    try {
      draw(await api("/api/account/friends", { method: "POST", body: { name } }));
      input.value = "";
    } catch (err) {
      toast(err.message, "error");
    }
  });
  card.append(h("p", { class: "muted" }, t("Follow players from their profile or by name. You see who is online and what they play; they are not told.")), form, list);

  function draw(answer) {
    if (!answer.friends.length) {
      list.replaceChildren(h("p", { class: "muted", "data-testid": "no-friends" }, t("You follow nobody yet.")));
      return;
    }
    const had = focusName(list); // a poll's redraw keeps the keyboard's place
    list.replaceChildren(h("ul", { class: "game-list" }, ...answer.friends.map((friend) => friendItem(friend, types, navigate, draw))));
    refocus(list, had);
  }

  async function look() {
    try {
      draw(await api("/api/account/friends"));
    } catch (err) {
      if (!list.childElementCount) list.replaceChildren(h("p", { class: "error" }, err.message));
    }
  }
  await look();
  const timer = setInterval(() => { if (!document.hidden) look(); }, POLL_MS);
  return { destroy: () => clearInterval(timer) };
}

/** One followed player: online or not (in words, not colour alone), its games to watch,
 * an invitation to each game type, and unfollowing. */
function friendItem(friend, types, navigate, redraw) {
  const state = friend.online ? t("online") : t("offline");
  const games = friend.games.map((game) => h("a", { class: "btn ghost small", href: game.url, "data-testid": `watch-${game.id}` },
    t("Watch {game}", { game: game.title })));
  const invites = types.map((type) => h("button", {
    class: "btn small", type: "button", "data-testid": `invite-${friend.name}-${type.name}`,
    onclick: (event) => invite(event.currentTarget, friend.name, type, navigate),
  }, t("Invite to {game}", { game: type.title })));
  const unfollow = h("button", {
    class: "btn ghost small", type: "button", "data-testid": `unfollow-${friend.name}`,
    onclick: async () => {
      try {
        redraw(await api("/api/account/friends/remove", { method: "POST", body: { name: friend.name } }));
        if (focusLost()) focusOn(document.getElementById("follow-name")); // its button is gone
      } catch (err) {
        toast(err.message, "error");
      }
    },
  }, t("Unfollow"));
  return h("li", { class: "friend", "data-testid": `friend-${friend.name}`, "data-online": friend.online ? "yes" : "no" },
    h("div", { class: "row wrap" },
      h("span", { class: `presence-dot${friend.online ? " on" : ""}`, "aria-hidden": "true" }),
      h("a", { href: `/u/${encodeURIComponent(friend.name)}` }, friend.name),
      h("span", { class: "muted", "data-testid": `friend-state-${friend.name}` }, state)),
    games.length ? h("div", { class: "row wrap" }, h("span", { class: "muted" }, t("Playing now:")), ...games) : null,
    h("div", { class: "row wrap" }, ...invites, unfollow));
}

/** A new game of ``type``: your seat and one kept for ``name`` (blocks and invitation
 * limits apply on the server); on to the game, where you wait for the answer. */
async function invite(button, name, type, navigate) {
  const body = { type: type.name, seats: [{ kind: "human", me: true }, { kind: "human", invite: name }] };
  button.disabled = true;
  try {
    const answer = await api("/api/games", { method: "POST", body });
    storeCreated(type, answer, body);
    toast(t("{name} is invited: the game starts when they accept.", { name }), "ok");
    navigate(answer.seats[0].link || answer.url);
  } catch (err) {
    toast(err.message, "error");
    button.disabled = false;
  }
}

/** A profile's Follow / Unfollow button (nothing for yourself, or signed out). */
export async function followButton(name) {
  const info = await accountInfo();
  if (!info.account || info.account.name === name) return null;
  let following = false;
  try {
    following = (await api("/api/account/friends")).friends.some((f) => f.name === name);
  } catch {
    return null; // looked too often just now: no button rather than a wrong one
  }
  const button = h("button", { class: "btn small", type: "button", "data-testid": "follow" });
  const show = () => {
    button.textContent = following ? t("Unfollow") : t("Follow");
    button.setAttribute("aria-pressed", following ? "true" : "false");
  };
  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      const path = following ? "/api/account/friends/remove" : "/api/account/friends";
      await api(path, { method: "POST", body: { name } });
      following = !following;
      show();
      toast(following ? t("You follow {name}.", { name }) : t("You no longer follow {name}.", { name }), "ok");
    } catch (err) {
      toast(err.message, "error");
    } finally {
      button.disabled = false;
    }
  });
  show();
  return button;
}

/** The new-game form's "friends only" choice (signed in): ``wanted(body)`` says whether
 * to ask for it (only with an open seat: the server refuses it otherwise). */
export function friendsOnlyField() {
  const box = h("input", { type: "checkbox", id: "friends-only", "data-testid": "friends-only", "aria-describedby": "friends-only-note" });
  const field = h("div", { class: "field" },
    h("label", { class: "check", for: "friends-only" }, box, " ", t("Friends only")),
    h("small", { class: "muted", id: "friends-only-note" }, t("Only the players you follow see the open seats in the lobby and can take them.")));
  return { field, wanted: (body) => box.checked && body.seats.some((s) => s.open) };
}
