"""A new game's setup as a request gives it: its type, seats, options, time per
move (``time_limit``, or ``days_per_move`` for correspondence: correspondence.py) and
seed, checked before anything is stored."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..core.web import JSON, BotLimits, OptionsError, WebGame, get_web_game, web_games
from ..records import whole_number
from .clocks import BASE_RANGE, INCREMENT_RANGE
from .correspondence import check_days_per_move
from .encoding import public_seat
from .errors import ApiError
from .names import BadName, clean_name
from .rows import OPEN_NAME, Account, Seat

#: The longest time per move a game may have: turn-based games run over days.
MAX_TIME_LIMIT = 14 * 24 * 3600
#: The shortest time per move the lobby page offers a game without a move clock of its
#: own (lobby.js ``TIME_LIMITS``): turn-based play. Shorter, a player who joins an open
#: game would see the bot play every move for them.
TURN_BASED_SHORTEST = 3600
ON_TIMEOUT = ("bot", "abandon")  # what happens when a move's time runs out
#: A rated game's time per move when its creator chose none: the longest the lobby page
#: offers (lobby.js ``TIME_LIMITS``). Without one, a loser could stop moving for good.
RATED_TIME_LIMIT = 7 * 24 * 3600


@dataclass(frozen=True)
class Setup:
    """A checked setup, ready to store: ``options`` hold the time limit too."""

    type: WebGame
    seats: list[Seat]
    options: JSON
    seed: int
    seed_chosen: bool


#: finds the account of a name for a seat's ``invite`` (``None``: no such account)
FindAccount = Callable[[str], "Account | None"]


def check_setup(
    body: Any,
    account: Account | None,
    limits: BotLimits,
    shortest: int | None = None,
    find: FindAccount = lambda name: None,
) -> Setup:
    """The setup of a create request's ``body``; a 400 (401 for a seat needing a
    session) saying what is wrong. A time per move is at least ``shortest`` seconds
    (``None``: the shortest the page offers, ``shortest_time_limit``); ``find`` finds
    the accounts invited to seats."""
    if not isinstance(body, dict):
        raise ApiError(400, "send a JSON object describing the game")
    try:
        game_type = get_web_game(body.get("type", next(iter(web_games()))))
    except OptionsError as err:
        raise ApiError.of(400, err) from None
    raw_seats = body.get("seats")
    if not isinstance(raw_seats, list) or not all(isinstance(s, dict) for s in raw_seats):
        raise ApiError(400, '\'seats\' must be a list of seats like {"kind": "human"}')
    if not game_type.min_seats <= len(raw_seats) <= game_type.max_seats:
        raise ApiError(
            400,
            "{game} is for {least} to {most} seats, not {n}",
            game=game_type.title,
            least=game_type.min_seats,
            most=game_type.max_seats,
            n=len(raw_seats),
        )
    options = body.get("options", {})
    if not isinstance(options, dict):
        raise ApiError(400, "'options' must be a JSON object")
    seed_chosen = body.get("seed") is not None
    seed = whole_number(body["seed"]) if seed_chosen else secrets.randbits(62)
    if seed is None or not 0 <= seed < 2**63:  # a number, or its string (as it was sent)
        raise ApiError(400, "'seed' must be a whole number from 0 to 2^63 - 1")
    labels = bot_labels(game_type)
    seats = [_seat(number, raw, labels, account, find) for number, raw in enumerate(raw_seats)]
    if sum(s.account_id is not None for s in seats) > 1:
        raise ApiError(400, "only one seat can be yours ('me') when you create a game")
    invited = [s.invited for s in seats if s.invited is not None]
    if len(set(invited)) != len(invited):
        raise ApiError(400, "invite each account to one seat only")
    rated = body.get("rated", True)
    if type(rated) is not bool:
        raise ApiError(400, "'rated' is true (the game counts for the ratings) or false")
    correspondence = check_days_per_move(body)
    clock = real_time(body)
    turn_based = clock or _time_limit({**body, **correspondence}) | correspondence
    try:
        options = game_type.check_setup(_plain_seats(raw_seats), options, limits)
    except OptionsError as err:
        raise ApiError.of(400, err) from None
    if correspondence and options.get("time_limit"):
        raise ApiError(400, "a correspondence game has no move clock of the game's own as well")
    if clock and options.get("time_limit"):
        raise ApiError(400, "a game has a clock or a time per move, not both")
    least = shortest_time_limit(game_type) if shortest is None else shortest
    _check_range(turn_based.get("time_limit", 0), least, MAX_TIME_LIMIT)
    own = _own_time_limit(game_type)
    if own is not None:  # the game's own move clock option (stored as ``time_limit``)
        _check_range(options.get("time_limit", 0), least, own.get("max", MAX_TIME_LIMIT))
    if not rated:
        return Setup(game_type, seats, {**options, **turn_based, "rated": False}, seed, seed_chosen)
    if can_be_rated(seats) and not seed_chosen:
        turn_based = _rated_time_limit(body, turn_based, options, seats)
    return Setup(game_type, seats, {**options, **turn_based}, seed, seed_chosen)


def can_be_rated(seats: list[Seat]) -> bool:
    """Whether a game with these seats counts for the ratings once its open seats are
    taken (``rated.unrated_reason``): two seats or more, every person an account."""
    people = [s for s in seats if s.kind == "human"]
    return len(seats) >= 2 and all(s.account_id is not None or s.open for s in people)


def _rated_time_limit(body: JSON, turn_based: JSON, options: JSON, seats: list[Seat]) -> JSON:
    """A rated game's time per move and what running out means (fair play, docs/web.md):
    ``RATED_TIME_LIMIT`` unless one was chosen; and among people running out of time
    loses ("abandon"): with the default bot playing for them, a player could stall
    forever without losing."""
    chosen = dict(turn_based)
    clocked = "clock_base" in chosen
    if not clocked and not chosen.get("time_limit") and not options.get("time_limit"):
        chosen["time_limit"] = RATED_TIME_LIMIT
    if sum(s.kind == "human" for s in seats) >= 2:
        if body.get("on_timeout", "abandon") != "abandon":
            raise ApiError(
                400,
                "in a rated game against people, running out of time loses: 'on_timeout' "
                'is "abandon" (or make the game unrated: "rated": false)',
            )
        chosen["on_timeout"] = "abandon"
    elif ("time_limit" in chosen or clocked) and "on_timeout" not in chosen:
        chosen["on_timeout"] = "bot"
    return chosen


def shortest_time_limit(game_type: WebGame) -> int:
    """The shortest time per move the lobby page offers ``game_type``: the shortest
    choice of its own move clock option (NMBR 9: 30 s), else ``TURN_BASED_SHORTEST``."""
    own = _own_time_limit(game_type)
    values = [c["value"] for c in own["choices"] if type(c["value"]) is int] if own else []
    return min((v for v in values if v > 0), default=TURN_BASED_SHORTEST)


def _own_time_limit(game_type: WebGame) -> JSON | None:
    """The game's own ``time_limit`` option field, if it has one (lobby.js offers it)."""
    fields = game_type.describe().get("options", [])
    return next((f for f in fields if f["name"] == "time_limit" and "choices" in f), None)


def _check_range(seconds: int, least: int, most: int) -> None:
    """400 unless ``seconds`` (a time per move) is 0 (none) or ``least`` to ``most``."""
    if seconds and not least <= seconds <= most:
        raise ApiError(
            400,
            "'time_limit' (the time per move, in seconds) must be 0 (none) or from "
            "{least} to {most} ({range})",
            least=least,
            most=most,
            range=f"{_span(least)}–{_span(most)}",
        )


def _span(seconds: int) -> str:
    """A span as the lobby names it: "30 s", "1 h", "14 d" (for the range's text)."""
    for unit, size in (("d", 86400), ("h", 3600), ("min", 60)):
        if seconds >= size and seconds % size == 0:
            return f"{seconds // size} {unit}"
    return f"{seconds} s"


def created_seat(game_id: str, seat: Seat, bots: frozenset[int] = frozenset()) -> JSON:
    """A seat as the game's creator learns it: human seats with their secret link
    (``bots``: the bot accounts among the seats' accounts)."""
    shown = {k: v for k, v in public_seat(seat, bots).items() if k != "account"}
    if seat.token:
        shown.update(token=seat.token, link=f"/g/{game_id}#seat={seat.token}")
    return shown


def bot_labels(game_type: WebGame) -> dict[str, str]:
    """``{"mcts:easy": "MCTS easy", ...}``: names for bot seats nobody named (where
    modes label a bot differently, the shorter label wins)."""
    bots = game_type.describe().get("bots", {})
    labels: dict[str, str] = {}
    for bot in (b for mode in bots.values() for b in mode):
        labels[bot["spec"]] = min(labels.get(bot["spec"], bot["label"]), bot["label"], key=len)
    return labels


def _seat(
    number: int, raw: JSON, labels: dict[str, str], account: Account | None, find: FindAccount
) -> Seat:
    kind = raw.get("kind")
    if kind not in ("human", "bot"):
        raise ApiError(400, 'seat {seat}: \'kind\' must be "human" or "bot"', seat=number + 1)
    if "invite" in raw:
        return _invited_seat(number, raw, account, find)
    is_open, me = raw.get("open", False), raw.get("me", False)
    if type(is_open) is not bool or type(me) is not bool:
        raise ApiError(400, "'open' and 'me' of a seat are true or false")
    if (is_open or me) and kind != "human":
        raise ApiError(400, "only a human seat can be open or yours")
    if (is_open or me) and account is None:
        raise ApiError(401, "sign in to open seats to the lobby or to take a seat as yourself")
    if is_open and me:
        raise ApiError(400, "a seat is either open or yours, not both")
    if is_open:
        return Seat(number, OPEN_NAME, "human", None, None, None, True)
    if me:
        assert account is not None
        return Seat(number, account.name, "human", None, secrets.token_urlsafe(24), account.id)
    name = raw.get("name")
    if name is None or (isinstance(name, str) and not name.strip()):
        bot = str(raw.get("bot", "bot"))
        name = f"Player {number + 1}" if kind == "human" else labels.get(bot, bot)
    if not isinstance(name, str):
        raise ApiError(400, "seat {seat}: 'name' must be text", seat=number + 1)
    try:
        name = clean_name(name)
    except BadName as err:
        raise ApiError.plain(400, f"seat {number + 1}: the name {err}") from None
    if kind == "bot":
        return Seat(number, name, "bot", str(raw.get("bot")))
    return Seat(number, name, "human", None, secrets.token_urlsafe(24))


def _invited_seat(number: int, raw: JSON, account: Account | None, find: FindAccount) -> Seat:
    """A human seat kept for the account named by ``invite``: open, but offered to
    that account alone (in its *My games*), never in the lobby."""
    name = raw["invite"]
    if raw.get("kind") != "human" or raw.get("open") or raw.get("me"):
        raise ApiError(400, "only a human seat that is neither open nor yours can be invited")
    if account is None:
        raise ApiError(401, "sign in to invite an account to a seat")
    if not isinstance(name, str) or not name.strip() or len(name) > 200:
        raise ApiError(400, "seat {seat}: 'invite' is the name of an account", seat=number + 1)
    invitee = find(name)
    if invitee is None:
        raise ApiError(
            400, "seat {seat}: there is no account named {name}", seat=number + 1, name=name.strip()
        )
    if invitee.id == account.id:
        raise ApiError(400, "you cannot invite yourself: take the seat as yourself ('me')")
    return Seat(number, invitee.name, "human", None, None, None, True, invited=invitee.id)


_SERVER_FIELDS = ("open", "me", "invite")


def _plain_seats(raw_seats: list[JSON]) -> list[JSON]:
    """Seats as the game checks them: without the server's own fields."""
    return [{k: v for k, v in raw.items() if k not in _SERVER_FIELDS} for raw in raw_seats]


def real_time(body: JSON) -> JSON:
    """The options of a real-time game (``clocks``): ``clock_base`` (seconds each
    seat starts with), ``clock_increment`` (seconds added per move) and
    ``on_timeout``; none if no clock is asked for. A game has a clock or a time per
    move (``time_limit``), not both."""
    base, increment = body.get("clock_base"), body.get("clock_increment")
    if base is None and increment is None:
        return {}
    if body.get("time_limit"):
        raise ApiError(400, "a game has a clock or a time per move, not both")
    least, most = BASE_RANGE
    if type(base) is not int or not least <= base <= most:
        raise ApiError(
            400,
            "'clock_base' (each player's time, in seconds) is from {least} to {most}",
            least=least,
            most=most,
        )
    least, most = INCREMENT_RANGE
    increment = 0 if increment is None else increment
    if type(increment) is not int or not least <= increment <= most:
        raise ApiError(
            400,
            "'clock_increment' (seconds added per move) is from {least} to {most}",
            least=least,
            most=most,
        )
    on_timeout = body.get("on_timeout", "bot")
    if on_timeout not in ON_TIMEOUT:
        raise ApiError(400, '\'on_timeout\' is "bot" or "abandon"')
    return {"clock_base": base, "clock_increment": increment, "on_timeout": on_timeout}


def _time_limit(body: JSON) -> JSON:
    """The options of a turn-based game: ``time_limit`` (seconds per move) and
    ``on_timeout``; none if no limit is asked for. (Games stored before kept the
    time limit as the option ``clock``: ``Room.time_limit`` reads both.)"""
    limit = body.get("time_limit")
    on_timeout = body.get("on_timeout", "bot")
    if limit is None or limit == 0:
        if "on_timeout" in body:
            raise ApiError(400, "'on_timeout' needs a 'time_limit'")
        return {}
    if type(limit) is not int or not 1 <= limit <= MAX_TIME_LIMIT:
        raise ApiError(400, "'time_limit' is a number of seconds, at most 14 days")
    if on_timeout not in ON_TIMEOUT:
        raise ApiError(400, '\'on_timeout\' is "bot" or "abandon"')
    return {"time_limit": limit, "on_timeout": on_timeout}
