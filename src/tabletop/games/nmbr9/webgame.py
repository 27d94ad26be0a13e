"""NMBR 9 in the browser: the rules engine, records and bots behind ``WebGame``/``Match``.

Every seat places this round's tile at the same time (``SIMULTANEOUS``): each
placement is an action of its own, applied and stored as it arrives; the round
resolves when the last seat's placement is applied. Until then a placement is
*pending*: only its seat sees it (``view``), the log says only that the seat has
placed, and the seat may take it back (``TAKE_BACK``).

>>> game = Nmbr9Web()
>>> options = game.check_setup([{"kind": "human"}, {"kind": "bot", "bot": "greedy"}], {})
>>> match = game.new_match(2, options, seed=5)
>>> sorted(match.active_seats())
[0, 1]
>>> first = match.choices(0)[0]["action"]
>>> match.apply(0, first).log["text"]
'placed their 2'
>>> match.has_pending(0), sorted(match.active_seats()), match.view(1)["pending"]
(True, [1], None)
>>> match.view(1)["boards"][0]["tiles"]  # seat 0's placement is hidden from seat 1
[]
>>> applied = match.apply(1, match.choices(1)[0]["action"])
>>> applied.reveals, applied.log["resolved"]["round"], match.view(1)["round"]
(True, 0, 1)
"""

from __future__ import annotations

import json
from functools import cache, lru_cache
from importlib import resources
from typing import Any

from ...core.web import (
    DEFAULT_LIMITS,
    JSON,
    SIMULTANEOUS,
    TAKE_BACK,
    ActionRejected,
    Applied,
    BotLimits,
    Job,
    OptionsError,
)
from ...i18n import N_, part, parts_text, reason_parts
from .bots import BotSpecError, hint_bot, make_bot
from .records import Recorder, placement_json, replay, result_json
from .rules import (
    CARDS,
    Game,
    IllegalActionError,
    InvalidActionError,
    Placed,
    View,
    parse_action,
)

#: A bot seat's name is its label without the note in brackets: the page translates
#: those names too (tabletop.i18n), so pybabel must find them.
BOT_NAMES = (N_("Random"), N_("Greedy"))

#: Bots that answer in milliseconds: their moves run in the server's quick lane.
QUICK_BOTS = frozenset({"random", "greedy"})

#: Bots offered, strongest last; ``spec`` is what ``make_bot`` takes.
BOTS: list[JSON] = [
    {"spec": "random", "label": N_("Random (beginner)")},
    {"spec": "greedy", "label": N_("Greedy (casual)")},
    {"spec": "planner:fast", "label": N_("Planner fast")},
    {"spec": "planner:normal", "label": N_("Planner normal")},
    {"spec": "planner:strong", "label": N_("Planner strong")},
]

#: The longest move clock a game may set, in seconds.
MAX_CLOCK = 3600


class Nmbr9Web:
    """NMBR 9 as the server hosts it."""

    name = "nmbr9"
    title = "NMBR 9"
    min_seats = 1
    max_seats = 4
    dynamics = SIMULTANEOUS
    default_bot = "greedy"
    view_depends_on_seat = True  # a seat sees its own pending placement, nobody else's
    assets = resources.files(__package__).joinpath("web")

    def describe(self) -> JSON:
        return {
            "name": self.name,
            "title": self.title,
            "seats": [self.min_seats, self.max_seats],
            "dynamics": self.dynamics,
            "bots": {"standard": BOTS},
            "options": [
                {
                    "name": "remove",
                    "label": N_("Remove cards unseen before play"),
                    "type": "choice",
                    "choices": [
                        {"value": 0, "label": N_("none (20 rounds)")},
                        {"value": "random", "label": N_("a random number, 1 to 4")},
                    ],
                    "default": 0,
                },
                {
                    "name": "clock",
                    "label": N_("Move clock (the default bot places for a seat out of time)"),
                    "type": "choice",
                    "choices": [
                        {"value": 0, "label": N_("none")},
                        {"value": 30, "label": N_("30 s")},
                        {"value": 60, "label": N_("60 s")},
                        {"value": 120, "label": N_("2 min")},
                    ],
                    "default": 0,
                },
            ],
            "take_back": TAKE_BACK,
            "tiles": _tiles_json(),
        }

    def check_setup(
        self, seats: list[JSON], options: JSON, limits: BotLimits = DEFAULT_LIMITS
    ) -> JSON:
        unknown = set(options) - {"remove", "clock"}
        if unknown:
            raise OptionsError(N_("unknown option(s): {names}"), names=", ".join(sorted(unknown)))
        remove = options.get("remove", 0)
        if remove != "random" and (type(remove) is not int or not 0 <= remove < CARDS):
            raise OptionsError(N_("'remove' is 0 to {most} cards, or \"random\""), most=CARDS - 1)
        clock = options.get("clock", 0)
        if type(clock) is not int or not 0 <= clock <= MAX_CLOCK:
            raise OptionsError(
                N_("'clock' is 0 (none) or a number of seconds up to {most}"),
                most=MAX_CLOCK,
            )
        try:
            Game(players=len(seats), remove=None if remove == "random" else remove)
        except ValueError as err:
            raise OptionsError(str(err)) from None
        for number, seat in enumerate(seats, 1):
            if seat.get("kind") == "bot":
                _check_bot(seat.get("bot"), number)
        return {"remove": remove, "clock": clock}

    def new_match(self, seats: int, options: JSON, seed: int) -> Nmbr9Match:
        remove = options.get("remove", 0)
        game = Game(players=seats, remove=None if remove == "random" else remove)
        names = [f"Seat {i + 1}" for i in range(seats)]
        return Nmbr9Match(Recorder.new(game, names, seed=seed))

    def replay(self, record: Any) -> list[JSON]:
        frames: list[JSON] = []
        log: list[JSON] = []

        def on_round(rec: Recorder) -> None:
            if rec.rounds and len(log) < len(rec.rounds):
                number = len(rec.rounds) - 1
                entry = rec.rounds[number]
                log.append(_round_log(number, entry["card"], entry["placements"]))
            frames.append({"view": _view_json(rec.state.view(None), rec.state), "log": list(log)})

        replay(record, on_round)
        return frames


@cache
def _tiles_json() -> dict[str, list[str]]:
    """The digits' shapes as in ``tiles.json`` (rows top to bottom, ``#`` a square)."""
    text = resources.files(__package__).joinpath("data/tiles.json").read_text("utf-8")
    return json.loads(text)


def _check_bot(spec: Any, number: int) -> None:
    if not isinstance(spec, str) or not spec:
        raise OptionsError(N_("seat {seat} is a bot but names no bot"), seat=number)
    try:
        make_bot(spec, seed=0)
    except BotSpecError as err:
        raise OptionsError(f"seat {number}: {err}") from None


class Nmbr9Match:
    """An NMBR 9 game in progress, recorded as it goes."""

    def __init__(self, recorder: Recorder) -> None:
        self.recorder = recorder
        self.state = recorder.state

    def clone(self) -> Nmbr9Match:
        return Nmbr9Match(self.recorder.clone())

    def active_seats(self) -> frozenset[int]:
        return frozenset(self.state.acting_seats())

    def has_pending(self, seat: int) -> bool:
        placed = self.state.placed
        return not self.state.is_over and 0 <= seat < len(placed) and placed[seat] is not None

    def is_over(self) -> bool:
        return self.state.is_over

    def apply(self, seat: int, action: str) -> Applied:
        state = self.state
        if state.is_over:
            raise ActionRejected(N_("the game is over"))
        if not 0 <= seat < state.game.players:
            raise ActionRejected(N_("there is no seat {seat}"), seat=seat + 1)
        number, card = state.round, state.card
        if action == TAKE_BACK:
            try:
                self.recorder.take_back(seat)
            except IllegalActionError as err:
                raise ActionRejected(err.key, **err.params) from None
            log: JSON = {"seat": seat, "kind": "take-back", "round": number, "card": card}
            log["parts"] = [part(N_("took back their {card}"), card=card)]
            log["text"] = parts_text(log["parts"])
            return Applied(log=log, reveals=False)
        if len(action) > 40:
            raise ActionRejected(N_("that is not a placement: write r<rotation>@x,y, e.g. r1@3,-2"))
        try:
            place = parse_action(action)
            self.recorder.apply(place, seat)
        except (InvalidActionError, IllegalActionError) as err:
            raise ActionRejected(err.key, **err.params) from None
        log = {"seat": seat, "kind": "place", "round": number, "card": card}
        parts = [part(N_("placed their {card}"), card=card)]
        resolved = state.round != number
        if resolved:  # the last placement of the round: all of them come to light
            entry = self.recorder.rounds[number]
            log["resolved"] = _round_log(number, card, entry["placements"])
            parts += [part(N_("; ")), *log["resolved"]["parts"]]
            if state.is_over:
                parts.append(part(N_("; the game is over")))
        log["parts"] = parts
        log["text"] = parts_text(parts)
        return Applied(log=log, reveals=resolved)

    def view(self, seat: int | None) -> JSON:
        """``View(state, seat).to_json()`` with ``"pending"`` (the seat's own placement of
        this round) and, once over, ``"result"``; built straight from the state, as the
        server builds one per seat after every placement."""
        state = self.state
        if seat is not None and not 0 <= seat < state.game.players:
            raise ValueError(f"there is no seat {seat}")
        boards = []
        for number, board in enumerate(state.boards):
            tiles, score = board.tiles, board.score
            if state.placed[number] is not None and number != seat:  # hidden: pending
                tiles, score = tiles[:-1], score - tiles[-1].digit * tiles[-1].level
            boards.append({"score": score, "tiles": [_tile_json(t) for t in tiles]})
        turned = state.turned()
        out: JSON = {
            "viewer": seat,
            "players": state.game.players,
            "round": state.round,
            "rounds": state.rounds,
            "removed": state.removed,
            "card": state.card,
            "turned": list(turned),
            "unturned": list(state.unturned()),
            "over": state.is_over,
            "has_placed": [p is not None for p in state.placed],
            "boards": boards,
        }
        pending = None if seat is None else state.placed[seat]
        out["pending"] = None if pending is None else placement_json(pending)
        if state.is_over:
            out["result"] = result_json(state)
        return out

    def choices(self, seat: int) -> list[JSON]:
        """``{"action": "r1@3,-2", "level": 1}`` per legal placement of this round's tile
        (the server keeps the text while the seat's board and card stay the same)."""
        state = self.state
        if state.is_over or not 0 <= seat < state.game.players or state.placed[seat] is not None:
            return []
        legal = state.boards[seat].legal(state.card)
        return [{"action": f"r{r}@{x},{y}", "level": level} for (r, x, y), level in legal]

    def result(self) -> JSON | None:
        return result_json(self.state) if self.state.is_over else None

    def record(self, names: list[str]) -> JSON:
        self.recorder.players = list(names)
        return self.recorder.to_record()

    def bot_job(self, seat: int, bot: str, seed: int, limits: BotLimits = DEFAULT_LIMITS) -> Job:
        quick = bot.partition(":")[0] in QUICK_BOTS
        return Job(_bot_action, (bot, self.state.view(seat), seed), quick)

    def hint_job(self, seat: int, seed: int) -> Job:
        return Job(_hint, (self.state.view(seat), seed))


def _bot_action(spec: str, view: View, seed: int) -> str:
    """The placement ``spec`` chooses from ``view`` (a seat's: no deck, no pending
    placement of another seat)."""
    return str(make_bot(spec, seed=seed).choose(view))


#: The hint bot's reasons, part by part, as msgids for the page (tabletop.i18n).
HINT_REASONS = [
    (r"on the table: (?P<points>\d+) points now", N_("on the table: {points} points now")),
    (
        r"on level (?P<level>\d+): (?P<points>\d+) points now",
        N_("on level {level}: {points} points now"),
    ),
    (
        r"a mean final score of (?P<mean>[\d.]+) over (?P<n>\d+) sampled futures"
        r" \(next best (?P<next>[\d.]+), at column (?P<x>\S+), row (?P<y>[^,)]+),"
        r" turned (?P<degrees>\d+)°\)",
        N_(
            "a mean final score of {mean} over {n} sampled futures"
            " (next best {next}, at column {x}, row {y}, turned {degrees}°)"
        ),
    ),
    (
        r"a mean final score of (?P<mean>[\d.]+) over (?P<n>\d+) sampled futures"
        r" \(next best (?P<next>[\d.]+), at column (?P<x>\S+), row (?P<y>[^,)]+)\)",
        N_(
            "a mean final score of {mean} over {n} sampled futures"
            " (next best {next}, at column {x}, row {y})"
        ),
    ),
    (
        r"a mean final score of (?P<mean>[\d.]+) over (?P<n>\d+) sampled futures",
        N_("a mean final score of {mean} over {n} sampled futures"),
    ),
    (
        r"the first tile: where it lies changes nothing",
        N_("the first tile: where it lies changes nothing"),
    ),
    (
        r"the most points possible with the last card",
        N_("the most points possible with the last card"),
    ),
]


def _hint(view: View, seed: int) -> JSON:
    action, reason = hint_bot(seed=seed).explain(view)
    return {"action": str(action), "reason": reason, "parts": reason_parts(reason, HINT_REASONS)}


def _round_log(number: int, card: int, placements: list[JSON | None]) -> JSON:
    """The facts of a resolved round: every seat's placement of ``card``."""
    shown = [None if p is None else {**p, "points": card * p["level"]} for p in placements]
    parts = [part(N_("round {n} ({card}): "), n=number + 1, card=card)]
    for seat, p in enumerate(shown):
        if p is not None:
            key = N_("seat {seat} {move} on level {level}")
            if len(parts) > 1:
                key = N_(", seat {seat} {move} on level {level}")
            move = f"r{p['rotation']}@{p['x']},{p['y']}"
            parts.append(part(key, seat=seat + 1, move=move, level=p["level"]))
    return {
        "kind": "round",
        "round": number,
        "card": card,
        "placements": shown,
        "parts": parts,
        "text": parts_text(parts),
    }


@lru_cache(maxsize=1 << 16)
def _tile_json(tile: Placed) -> JSON:
    """A tile as views show it (tiles never change once laid: one dict per tile)."""
    return {
        "digit": tile.digit,
        "rotation": tile.rotation,
        "x": tile.x,
        "y": tile.y,
        "level": tile.level,
    }


def _view_json(view: View, state: Any) -> JSON:
    out = view.to_json()
    out["pending"] = None if view.pending is None else placement_json(view.pending)
    if view.is_over:
        out["result"] = result_json(state)
    return out
