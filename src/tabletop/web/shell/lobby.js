// The lobby: create a game (seats, bots, options, seed), share its seat links, list your games.
import { formatDateTime, seatLabel, t, tn } from "./i18n.js";
import { accountInfo } from "./account.js";
import { api, gameTypes } from "./api.js";
import { clockField } from "./clocks.js";
import { friendsOnlyField } from "./friends.js";
import { daysChoice } from "./correspondence.js";
import { gameIntro } from "./games.js";
import { allGames, forgetGame, gameLink, getGame, rememberGame, setPlayed } from "./store.js";
import { toast } from "./toast.js";
import { clear, copyText, focusLost, focusName, focusOn, h, offerColourSymbols, refocus, rove, withBotBadge } from "./util.js";

const NAME_KEY = "boardgames.name";
const TYPE_KEY = "boardgames.type";
// the games whose tutorial the lobby offers no more: opened, or the offer dismissed
const OFFER_KEY = "boardgames.tutorial-offer.v1";

/** Whether the lobby still offers the tutorial of ``name`` (a first visit). */
export function offerPending(name) {
  try {
    return !JSON.parse(localStorage.getItem(OFFER_KEY) || "[]").includes(name);
  } catch {
    return false; // storage refused: offer nothing rather than every time
  }
}

/** The game the lobby shows next (a tutorial's "Play a real game" chooses its own). */
export function chooseGame(name) {
  try {
    localStorage.setItem(TYPE_KEY, name);
  } catch { /* this page only */ }
}

export function rememberOffer(name) {
  try {
    const seen = JSON.parse(localStorage.getItem(OFFER_KEY) || "[]");
    if (!seen.includes(name)) localStorage.setItem(OFFER_KEY, JSON.stringify([...seen, name]));
  } catch { /* this page only */ }
}


export async function showLobby(root, navigate) {
  const [types, { account }] = await Promise.all([gameTypes(), accountInfo()]);
  const createdId = new URLSearchParams(location.hash.slice(1)).get("created");
  const created = createdId ? getGame(createdId) : null;
  const known = (name) => types.find((ty) => ty.name === name);
  let type = (created && known(created.type)) || known(localStorage.getItem(TYPE_KEY)) || types[0];

  const page = h("div", { class: "lobby" });
  root.append(page);
  let drawn = 0;

  // One game type at a time: its hero, form and rules; a picker above when there are several.
  async function draw(focusPicker) {
    const mine = ++drawn;
    const mod = await gameIntro(type.name, type);
    if (mine !== drawn) return;
    offerColourSymbols(mod);
    clear(page);
    document.title = `${type.title} · Tabletop`;
    if (types.length > 1 && !created) page.append(typePicker(types, type, (chosen) => {
      type = chosen;
      localStorage.setItem(TYPE_KEY, type.name);
      draw(true);
    }));
    page.append(h("section", { class: "hero" },
      h("div", { class: "hero-text" },
        h("h1", {}, type.title),
        h("p", { class: "lead" }, mod.tagline || "")),
      mod.heroArt ? mod.heroArt() : null));

    if (type.tutorial && !created) page.append(learnOffer(type, () => draw(false)));

    const grid = h("div", { class: "lobby-grid" });
    page.append(grid);
    const left = h("div", { class: "lobby-main" });
    const right = h("div", { class: "lobby-side" });
    grid.append(left, right);

    if (created) left.append(sharePanel(created, navigate));
    else left.append(createForm(type, mod, navigate, account));
    // Just created (the form, and its focus, are gone): on to the game.
    if (created && focusLost()) focusOn(left.querySelector("[data-testid=enter-game]"));
    if (focusPicker) focusOn(page.querySelector(`[data-testid="game-type-${CSS.escape(type.name)}"]`));
    if (mod.howToPlay) {
      right.append(h("section", { class: "card how" }, h("details", {}, h("summary", {}, h("h2", {}, t("How to play"))), mod.howToPlay())));
    }
    right.append(yourGames(navigate, account), h("section", { class: "card" },
      h("h2", {}, t("Replays")),
      h("p", { class: "muted" }, t("Step through a finished game move by move — upload a record file or open one of your finished games.")),
      h("a", { class: "btn", href: "/replay", "data-testid": "replay-link" }, t("Open the replay viewer"))));
  }
  await draw(false);
  return {};
}

/** "Learn to play": on a first visit a card offering the game's tutorial (dismissed for
 * good with "No thanks", or once the tutorial is opened), later a plain link. */
function learnOffer(type, redraw) {
  const href = `/learn/${type.name}`;
  const learn = h("a", { class: "btn primary", href, "data-testid": `learn-${type.name}` }, t("Learn to play"));
  if (!offerPending(type.name)) {
    return h("p", { class: "learn-link" }, h("a", { class: "btn ghost small", href, "data-testid": `learn-${type.name}` }, t("Learn to play")));
  }
  const dismiss = h("button", { type: "button", class: "btn ghost", "data-testid": "learn-dismiss", onclick: () => { rememberOffer(type.name); redraw(); } }, t("No thanks"));
  return h("section", { class: "card learn-offer", "data-testid": "learn-offer", "aria-labelledby": "learn-offer-title" },
    h("h2", { id: "learn-offer-title" }, t("New to {game}?", { game: type.title })),
    h("p", {}, t("Learn to play in a few minutes: a short game that shows every rule, one move at a time.")),
    h("div", { class: "row wrap" }, learn, dismiss));
}

/** The games this server hosts: a radio group (WAI-ARIA's radio group pattern). The
 * game on show is checked and is the group's one tab stop; the arrow keys (and Home,
 * End) move to the next game and choose it, Space or a click chooses the one focused. A
 * screen reader says "Nova Luna, radio button, checked, 1 of 2" in the group "Game". */
function typePicker(types, current, choose) {
  const radios = types.map((ty) => h("button", {
    type: "button",
    role: "radio",
    class: ty === current ? "on" : "",
    "aria-checked": ty === current ? "true" : "false",
    "data-testid": `game-type-${ty.name}`,
    onclick: () => { if (ty !== current) choose(ty); },
  }, ty.title));
  // a key that moves focus also checks: the group redraws with the new game, its radio focused
  rove(radios, { current: radios[types.indexOf(current)], onMove: (el) => el.click() });
  return h("div", { class: "type-picker" },
    h("span", { class: "type-picker-label", id: "type-picker-label" }, t("Game")),
    h("div", { class: "seg", role: "radiogroup", "aria-labelledby": "type-picker-label" }, ...radios));
}

// -- creating -------------------------------------------------------------------------

/** What a seat's toggle calls each way of filling it. */
const KIND_LABELS = { human: () => t("Human"), bot: () => t("Bot"), open: () => t("Open"), invite: () => t("Invite") };

/** Time per move for turn-based games (seconds; 0: none). */
const TIME_LIMITS = [0, 3600, 6 * 3600, 86400, 3 * 86400, 7 * 86400];

function createForm(type, mod, navigate, account) {
  const [minSeats, maxSeats] = type.seats;
  const myName = localStorage.getItem(NAME_KEY) || "";
  const modes = Object.keys(type.bots);
  const defaultBot = (mode) => {
    const list = type.bots[mode] || type.bots[modes[0]];
    return list[Math.min(1, list.length - 1)].spec;
  };
  let seats = [
    { kind: "human", name: myName },
    { kind: "bot", bot: defaultBot(mod.modeFor(2)) },
  ].slice(0, Math.max(minSeats, Math.min(2, maxSeats)));
  const options = Object.fromEntries(type.options.map((o) => [o.name, o.default]));
  // the bot accounts online (their event stream open), offered in each bot seat's list
  // and invited to it; asked again each time the form opens (inviting needs an account)
  let botAccounts = [];

  const form = h("form", { class: "card create", "data-testid": "create-form", novalidate: true });
  const seatList = h("div", { class: "seat-list" });
  const modeNote = h("p", { class: "mode-note" });
  const optionBox = h("div", { class: "options" });
  const seedInput = h("input", { type: "number", min: "0", step: "1", inputmode: "numeric", placeholder: t("random"), id: "seed", "data-testid": "seed" });
  const submit = h("button", { class: "btn primary big", type: "submit", "data-testid": "create-game" }, t("Create game"));
  // One time per move: a game's own "time_limit" option (seconds) is offered the
  // turn-based spans too; a game without one gets the shell's select.
  const gameTimeLimit = type.options.find((o) => o.name === "time_limit" && o.type === "choice");
  const gameOptions = type.options.map((o) => (o !== gameTimeLimit ? o : {
    ...o,
    choices: [...o.choices, ...TIME_LIMITS.filter((v) => v && !o.choices.some((c) => c.value === v))
      .map((value) => ({ value, label: timeLabel(value) }))],
  }));
  const timeLimit = h("select", { id: "time-limit", "data-testid": "time-limit" },
    ...TIME_LIMITS.map((seconds) => h("option", { value: String(seconds) }, timeLabel(seconds))));
  const onTimeout = h("select", { id: "on-timeout", "data-testid": "on-timeout" },
    h("option", { value: "bot" }, t("the default bot plays the move")),
    h("option", { value: "abandon" }, t("the game is abandoned")));
  const onTimeoutField = h("label", { class: "field option-choice", for: "on-timeout", hidden: true },
    h("span", {}, t("When the time runs out")), onTimeout);
  // one time control at most: a time per move, days per move (correspondence.js) or a
  // real-time clock per player (clocks.js); choosing one disables the others
  const exclusive = () => {
    const days = Boolean(correspondence.days()), clocked = Boolean(clock.value());
    timeLimit.disabled = days || clocked;
    correspondence.select.disabled = clocked;
    clock.select.disabled = days;
  };
  const correspondence = daysChoice(exclusive);
  const clock = clockField(exclusive);
  const timeChosen = () => correspondence.days() * 86400
    || (clock.value() ? 0 : gameTimeLimit ? options.time_limit : Number(timeLimit.value));
  // Fair play (docs/web.md): said before the game, not found out in it
  const ratedBox = h("input", { type: "checkbox", id: "rated", "data-testid": "rated" });
  ratedBox.checked = true;
  const ratedField = account ? h("div", { class: "field" },
    h("label", { class: "check", for: "rated" }, ratedBox, " ", t("Rated game")),
    h("small", { class: "muted", "data-testid": "rated-note" }, t("A rated game allows no hints and no undo. It always has a time control (a clock, or a time per move: 7 days unless you choose one), and against people whoever runs out of time loses. Untick it to play with hints and undo."))) : null;

  // The coach (docs/web.md): only where it helps nobody against someone, an unrated game
  // of one person against our bots or alone
  const friendsOnly = account ? friendsOnlyField() : null; // shell/friends.js
  const coachBox = h("input", { type: "checkbox", id: "coach", "data-testid": "coach-option", "aria-describedby": "coach-note" });
  const coachNote = h("small", { class: "muted", id: "coach-note", "data-testid": "coach-note" });
  const coachField = type.analysable ? h("div", { class: "field" },
    h("label", { class: "check", for: "coach" }, coachBox, " ", t("Coach")), coachNote) : null;
  const coachAllowed = () => seats.filter((s) => s.kind === "human").length === 1
    && seats.every((s) => s.kind === "human" || (s.kind === "bot" && !s.botAccount))
    && !(account && ratedBox.checked);
  function renderCoach() {
    if (!coachField) return;
    const allowed = coachAllowed();
    coachBox.disabled = !allowed;
    if (!allowed) coachBox.checked = false;
    coachNote.textContent = allowed
      ? t("After each of your moves that costs more than a little, a short note says what it cost and can show the better move.")
      : t("Only in an unrated game against bots or alone.");
  }

  function render() {
    renderCoach();
    const mode = mod.modeFor(seats.length);
    clear(seatList);
    seats.forEach((seat, i) => {
      const color = mod.seatColor(i, seats.length);
      const kindToggle = h("div", { class: "seg", role: "group", "aria-label": t("Seat {n} is played by", { n: i + 1 }) },
        ...(account ? ["human", "bot", "open", "invite"] : ["human", "bot"]).map((kind) => h("button", {
          type: "button",
          class: seat.kind === kind ? "on" : "",
          "aria-pressed": seat.kind === kind ? "true" : "false",
          "data-testid": `seat-${i}-kind-${kind}`,
          onclick: () => {
            seat.kind = kind;
            if (kind === "bot" && !seat.bot) seat.bot = defaultBot(mode);
            render();
          },
        }, KIND_LABELS[kind]())));
      let detail;
      if (seat.kind === "open") {
        detail = h("span", { class: "seat-detail muted" }, t("anyone signed in can take it"));
      } else if (seat.kind === "invite") {
        detail = h("input", {
          type: "text", placeholder: t("Account name"), value: seat.invite || "", autocomplete: "off",
          class: "seat-detail", "aria-label": t("Seat {n}: the account you invite", { n: i + 1 }), "data-testid": `seat-${i}-invite`,
          oninput: (e) => { seat.invite = e.target.value; },
        });
      } else if (seat.kind === "human" && account && seats.find((x) => x.kind === "human") === seat) {
        detail = h("span", { class: "seat-detail", "data-testid": `seat-${i}-me` }, t("{name} (you)", { name: account.name }));
      } else if (seat.kind === "human") {
        detail = h("input", {
          type: "text", maxlength: "40", placeholder: t("Player {n}", { n: i + 1 }), value: seat.name || "",
          class: "seat-detail", "aria-label": t("Seat {n} name", { n: i + 1 }), "data-testid": `seat-${i}-name`,
          oninput: (e) => { seat.name = e.target.value; },
        });
      } else {
        const bots = type.bots[mode] || [];
        if (!bots.some((b) => b.spec === seat.bot)) seat.bot = defaultBot(mode);
        if (!botAccounts.some((b) => b.name === seat.botAccount)) seat.botAccount = null; // gone offline
        detail = h("select", {
          class: "seat-detail", "aria-label": t("Seat {n} bot", { n: i + 1 }), "data-testid": `seat-${i}-bot`,
          onchange: (e) => {
            const value = e.target.value;
            if (value.startsWith(ACCOUNT_CHOICE)) seat.botAccount = value.slice(ACCOUNT_CHOICE.length);
            else [seat.bot, seat.botAccount] = [value, null];
          },
        }, ...botChoices(bots, seat, botAccounts, i));
      }
      seatList.append(h("div", { class: "seat-row", "data-testid": `seat-row-${i}` },
        h("span", { class: "disc", style: { "--disc": color.fill, "--ink": color.ink }, title: t(color.name) }),
        h("span", { class: "seat-label" }, t("Seat {n}", { n: i + 1 })),
        kindToggle,
        detail,
        h("button", {
          type: "button", class: "icon-btn seat-remove", title: t("Remove this seat"), "aria-label": t("Remove seat {n}", { n: i + 1 }),
          disabled: seats.length <= minSeats, "data-testid": `seat-${i}-remove`,
          onclick: () => { seats.splice(i, 1); render(); },
        }, "×")));
    });
    addButton.disabled = seats.length >= maxSeats;
    modeNote.textContent = mod.modeNote ? mod.modeNote(seats.length) : "";
    clear(optionBox);
    for (const opt of gameOptions) {
      if (opt.type === "choice") {
        const id = `option-${opt.name}`;
        optionBox.append(h("label", { class: "field option-choice", for: id }, h("span", {}, t(opt.label)),
          h("select", {
            id, "data-testid": id,
            onchange: (e) => { options[opt.name] = opt.choices[Number(e.target.value)].value; },
          }, ...opt.choices.map((c, k) => h("option", { value: String(k), selected: c.value === options[opt.name] }, t(c.label))))));
        continue;
      }
      if (opt.type !== "bool") continue;
      const disabled = opt.min_seats && seats.length < opt.min_seats;
      optionBox.append(h("label", { class: `check ${disabled ? "disabled" : ""}` },
        h("input", {
          type: "checkbox", checked: !!options[opt.name] && !disabled, disabled,
          "data-testid": `option-${opt.name}`,
          onchange: (e) => { options[opt.name] = e.target.checked; },
        }),
        h("span", {}, t(opt.label), disabled ? h("small", { class: "muted" }, " — ", t("needs {n}+ seats", { n: opt.min_seats })) : null)));
    }
  }

  const addButton = h("button", {
    type: "button", class: "btn ghost", "data-testid": "add-seat",
    onclick: () => {
      seats.push({ kind: "bot", bot: defaultBot(mod.modeFor(seats.length + 1)) });
      render();
    },
  }, t("+ Add a seat"));

  form.append(
    h("h2", {}, t("New game")),
    seatList,
    h("div", { class: "row" }, addButton),
    modeNote,
    optionBox,
    h("div", { class: "options" },
      gameTimeLimit ? null : h("label", { class: "field option-choice", for: "time-limit" }, h("span", {}, t("Time per move (turn-based play)")), timeLimit),
      correspondence.field,
      clock.el,
      onTimeoutField),
    // the DOM's own append would write a missing field (signed out: no Rated box) as "null"
    ...[ratedField, coachField, friendsOnly?.field].filter(Boolean),
    h("details", { class: "advanced" },
      h("summary", {}, t("Advanced")),
      h("label", { class: "field", for: "seed" }, h("span", {}, t("Seed (same seed, same deal)")), seedInput,
        h("small", { class: "muted" }, t("Every player is shown a seed you choose: with it you could know the hidden order of the deal.")))),
    h("div", { class: "row end" }, submit));

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const mode = mod.modeFor(seats.length);
    const body = {
      type: type.name,
      seats: seats.map((seat, i) => seat.kind === "open" ? { kind: "human", open: true }
        : seat.kind === "invite" ? { kind: "human", invite: (seat.invite || "").trim() }
        : seat.kind === "bot" && seat.botAccount ? { kind: "human", invite: seat.botAccount }
        : seat.kind === "human" && account && seats.find((x) => x.kind === "human") === seat ? { kind: "human", me: true }
          : seat.kind === "human" ? { kind: "human", name: (seat.name || "").trim() || t("Player {n}", { n: i + 1 }) }
            : { kind: "bot", bot: seat.bot, name: botLabel(type, mode, seat.bot) }),
      options: Object.fromEntries(type.options
        .filter((o) => !(o.min_seats && seats.length < o.min_seats))
        .map((o) => [o.name, options[o.name]])),
    };
    const limit = timeChosen();
    const clocked = clock.value();
    if (gameTimeLimit) delete body.options.time_limit;
    if (correspondence.days()) {
      body.days_per_move = correspondence.days();
      body.on_timeout = onTimeout.value;
    } else if (limit) {
      body.time_limit = limit;
      body.on_timeout = onTimeout.value;
    }
    if (clocked) Object.assign(body, { clock_base: clocked.base, clock_increment: clocked.increment, on_timeout: onTimeout.value });
    const seedText = seedInput.value.trim();
    if (seedText) {
      if (!/^\d+$/.test(seedText)) {
        toast(t("The seed must be a whole number (or leave it empty for a random game)."), "error");
        return;
      }
      // beyond 2^53 a number would be rounded (another deal): the server takes the text
      body.seed = Number.isSafeInteger(Number(seedText)) ? Number(seedText) : seedText;
    }
    if (account && !ratedBox.checked) body.rated = false;
    if (coachField && coachBox.checked && coachAllowed()) body.coach = true;
    if (friendsOnly?.wanted(body)) body.friends_only = true;
    // rated among people: running out of time loses (the server refuses the bot then)
    const accounts = body.seats.every((s) => s.kind === "bot" || s.open || s.invite || s.me);
    const people = body.seats.filter((s) => s.open || s.invite || s.me).length;
    if (account && ratedBox.checked && body.seed === undefined && accounts && people >= 2 && (limit || clocked)) body.on_timeout = "abandon";
    const firstHuman = seats.find((s) => s.kind === "human");
    if (firstHuman && firstHuman.name) localStorage.setItem(NAME_KEY, firstHuman.name.trim());
    submit.disabled = true;
    submit.textContent = t("Creating…");
    try {
      const answer = await api("/api/games", { method: "POST", body });
      const stored = storeCreated(type, answer, body);
      navigate(`/#created=${encodeURIComponent(answer.id)}`, { replace: false });
      return stored;
    } catch (err) {
      toast(err.message, "error");
    } finally {
      submit.disabled = false;
      submit.textContent = t("Create game");
      if (submit.isConnected && focusLost()) focusOn(submit); // refused: try again from here
    }
  });
  // what happens when the time runs out matters only with a time per move
  form.addEventListener("change", () => { onTimeoutField.hidden = !timeChosen() && !clock.value(); });
  form.addEventListener("change", renderCoach); // a bot account chosen for a seat: no coach
  render();
  if (account) {
    api("/api/bots").then(({ bots }) => {
      botAccounts = bots;
      if (!bots.length || !form.isConnected) return;
      const had = focusName(form);
      render();
      refocus(form, had);
    }).catch(() => {}); // without the list the seats offer our own bots, as always
  }
  return form;
}

/** A bot seat's options: our bots, and with bot accounts online, those in a group of
 * their own (ours then in one too). */
function botChoices(bots, seat, botAccounts, i) {
  const ours = bots.map((b) => h("option", { value: b.spec, selected: !seat.botAccount && b.spec === seat.bot }, t(b.label)));
  if (!botAccounts.length) return ours;
  return [
    h("optgroup", { label: t("Our bots") }, ...ours),
    h("optgroup", { label: t("Bot accounts online"), "data-testid": `seat-${i}-bot-accounts` },
      ...botAccounts.map((b) => h("option", { value: ACCOUNT_CHOICE + b.name, selected: b.name === seat.botAccount },
        t("{name} (bot account, online)", { name: b.name })))),
  ];
}

/** A bot seat's choice of a bot account: its name after this (our bots' specs never
 * begin so). */
const ACCOUNT_CHOICE = "account:";

function botLabel(type, mode, spec) {
  const bot = (type.bots[mode] || []).find((b) => b.spec === spec);
  return bot ? bot.label.replace(/\s*\(.*\)$/, "") : spec;
}

/** Remember a just-created game (its setup, seats and tokens) in this browser. */
export function storeCreated(type, answer, setup) {
  const humans = answer.seats.filter((s) => s.token);
  return rememberGame(answer.id, {
    type: type.name,
    title: type.title,
    created: new Date().toISOString(),
    seats: answer.seats,
    setup,
    tokens: humans.map((s) => s.token),
    played: humans.length ? [humans[0].token] : [],
    creator: true,
  });
}

// -- sharing a created game ---------------------------------------------------------

function sharePanel(game, navigate) {
  const origin = location.origin;
  const humans = game.seats.filter((s) => s.token);
  const played = new Set(game.played || []);
  const panel = h("section", { class: "card share", "data-testid": "share-panel" },
    h("h2", {}, t("Your game is ready")),
    h("p", { class: "muted" }, humans.length > 1
      ? t("Send each player their own seat link — it is their secret key to the seat. Tick the seats you play on this device (hot-seat).")
      : humans.length === 1 ? t("Your seat is ticked below. Share the spectator link with anyone who wants to watch.") : t("Only bots play: open the game to watch them.")));
  const table = h("div", { class: "share-seats" });
  panel.append(table);
  for (const seat of game.seats) {
    const link = seat.token ? origin + gameLink(game.id, [seat.token]) : null;
    const row = h("div", { class: "share-row", "data-testid": `share-seat-${seat.seat}` },
      h("span", { class: "share-name" }, h("strong", {}, ...withBotBadge(seatLabel(seat), seat.bot_account)), h("small", { class: "muted" }, seat.kind === "bot" ? " · " + t("bot") : "")));
    if (link) {
      const box = h("input", { type: "checkbox", checked: played.has(seat.token), "data-testid": `play-here-${seat.seat}`,
        onchange: (e) => {
          if (e.target.checked) played.add(seat.token);
          else played.delete(seat.token);
          setPlayed(game.id, [...played]);
        } });
      row.append(
        h("label", { class: "check small" }, box, h("span", {}, t("play here"))),
        linkBox(link, `seat-link-${seat.seat}`, t("{name}'s seat link", { name: seatLabel(seat) })));
    } else if (seat.invited) {
      row.append(h("span", { class: "muted", "data-testid": `invited-seat-${seat.seat}` }, t("invited: {name} accepts or declines in My games", { name: seat.name })));
    } else if (seat.open) {
      row.append(h("a", { class: "muted", href: "/lobby", "data-testid": `open-seat-${seat.seat}` }, t("open in the lobby")));
    } else {
      row.append(h("span", { class: "muted" }, t("plays automatically")));
    }
    table.append(row);
  }
  panel.append(h("div", { class: "share-row spectate" },
    h("span", { class: "share-name" }, h("strong", {}, t("Spectators")), h("small", { class: "muted" }, " · " + t("read only"))),
    linkBox(origin + gameLink(game.id, []), "spectator-link", t("Spectator link"))));
  panel.append(h("div", { class: "row end" },
    h("a", { class: "btn ghost", href: "/", "data-testid": "new-game" }, t("Set up another")),
    h("button", { class: "btn primary big", "data-testid": "enter-game", onclick: () => {
      const order = (game.tokens || []).filter((t) => played.has(t));
      setPlayed(game.id, order);
      navigate(gameLink(game.id, order));
    } }, t("Enter the game"))));
  return panel;
}

/** A link to copy; ``label`` names its field (the row's name beside it is no <label>). */
function linkBox(url, testid, label) {
  const input = h("input", { type: "text", readonly: true, value: url, "aria-label": label, "data-testid": testid, onfocus: (e) => e.target.select() });
  return h("span", { class: "link-box" }, input,
    h("button", { type: "button", class: "btn small", onclick: async () => {
      toast(await copyText(url) ? t("Link copied") : t("Select the link and copy it"), "ok", 1800);
    } }, t("Copy")));
}

// -- your games -----------------------------------------------------------------------

function yourGames(navigate, account) {
  const card = h("section", { class: "card", "data-testid": "your-games" }, h("h2", {}, t("Your games")));
  if (account) {
    card.append(h("p", {}, h("a", { href: "/me", "data-testid": "lobby-my-games" }, t("My games: {name}'s games on every device", { name: account.name }))));
  }
  const games = allGames();
  if (!games.length) {
    card.append(h("p", { class: "muted" }, t("Games you create or join on this device appear here.")));
    return card;
  }
  const list = h("ul", { class: "game-list" });
  card.append(list);
  for (const game of games.slice(0, 30)) {
    const mine = (game.seats || []).filter((s) => (game.played || []).includes(s.token)).map((s) => s.name);
    const status = h("span", { class: "status-chip" }, "…");
    const when = game.created ? formatDateTime(game.created) : "";
    const item = h("li", { class: "game-item", "data-testid": `game-item-${game.id}` },
      h("a", { class: "game-open", href: gameLink(game.id, game.played || []) },
        h("strong", {}, (game.seats || []).map(seatLabel).join(" · ") || game.id),
        h("small", { class: "muted" }, [when, mine.length ? t("you: {names}", { names: mine.join(", ") }) : t("spectator")].filter(Boolean).join(" — "))),
      status,
      (game.tokens || []).length > 0 && game.creator ? h("a", { class: "btn small ghost", href: `/#created=${game.id}`, title: t("Seat links") }, t("Links")) : null,
      h("button", { class: "icon-btn", title: t("Forget this game"), "aria-label": t("Forget this game"), onclick: () => {
        forgetGame(game.id);
        item.remove();
      } }, "×"));
    list.append(item);
    api(`/api/games/${encodeURIComponent(game.id)}`).then((state) => {
      status.textContent = state.over ? t("finished") : state.to_move !== null ? t("{name} to move", { name: seatLabel(state.game.seats[state.to_move]) }) : t("in play");
      status.classList.toggle("over", !!state.over);
      if (state.over) {
        status.after(h("a", { class: "btn small ghost", href: `/replay/${game.id}` }, t("Replay")));
      }
    }).catch((err) => {
      status.textContent = err.status === 404 ? t("gone") : "?";
    });
  }
  return card;
}

function timeLabel(seconds) {
  if (!seconds) return t("Off: play at once");
  return seconds % 86400 === 0
    ? tn("{n} day", "{n} days", seconds / 86400)
    : tn("{n} hour", "{n} hours", seconds / 3600);
}
