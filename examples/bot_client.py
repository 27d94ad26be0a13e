"""Play on a tabletop server as a bot account: accept every challenge and play every
game, with one of our registered bots, your own policy over the research encoding, or
OpenSpiel's MCTS (docs/bot-api.md).

    python examples/bot_client.py --server http://localhost:8000 --token tbt_... --bot greedy
    python examples/bot_client.py ... --policy mypackage.agents:policy     # pip install '.[rl]'
    python examples/bot_client.py ... --openspiel-mcts 50                  # pip install '.[rl]'
    python examples/bot_client.py ... --bot greedy --tournament Xy3kP9qa   # one event, then stop

A policy is any callable ``policy(observation, mask) -> action``: the observation and
the legal-action mask exactly as the PettingZoo environment gives them to that seat
(``tabletop.research``: scaled to [0, 1]), the action an index of the encoding. From
Python, with the policy in hand:

    from bot_client import BotClient, policy_player
    BotClient("http://localhost:8000", token, policy_player(my_policy)).run_forever()

How it works: the client keeps the account's event stream open (``WS /api/account/ws``
with ``Authorization: Bearer <token>``: the bot is "online" meanwhile) and, for each
game it is invited to or seated in, a game socket (``WS /api/games/{id}/ws``). When a
state says it is the bot's turn, it fetches the game as its seat has seen it
(``GET /api/games/{id}/seat-record``), rebuilds a state consistent with that (the unseen
order drawn at random: ``GameType.determinize``), asks the player for a move and sends
it (``{"type": "act", "action": ...}`` in the game's notation, or ``"index"``). The
server checks every move; the client holds no secret the seat's page would not.

With ``--tournament ID`` it enters that event (``POST /api/tournaments/{id}/join``),
plays every game of it that the event stream announces (their summaries name the event
under ``"tournament"``; it is paired only while its stream is open) and stops once the
event is finished (``GET /api/tournaments/{id}``) and its last game is over.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import json
import logging
import random
import sys
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol
from urllib.parse import urlsplit

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from tabletop.core.game import GameType, get_game

log = logging.getLogger("bot_client")

Move = dict[str, Any]  # {"action": notation} or {"index": n}
Policy = Callable[[Any, Any], int]


class Player(Protocol):
    """What chooses the bot's moves: from the game as the seat has seen it."""

    def move(self, game: GameType, seat_record: dict[str, Any], seat: int, seed: int) -> Move: ...


@dataclass
class RegisteredBot:
    """One of our own bots (``novaluna bots`` lists them), given a state consistent with
    what the seat has seen."""

    spec: str

    def move(self, game: GameType, seat_record: dict[str, Any], seat: int, seed: int) -> Move:
        state = game.determinize(seat_record, seed)
        bot = game.bots.make(self.spec, seed=seed)
        return {"action": str(bot.choose(state.view(seat)))}


@dataclass
class PolicyPlayer:
    """``policy(observation, mask) -> action index``, over the research encoding."""

    policy: Policy

    def move(self, game: GameType, seat_record: dict[str, Any], seat: int, seed: int) -> Move:
        from tabletop.research.encoding import encoding

        players = len(seat_record["players"])
        setup = encoding(game.name).setup(players, **_variant(seat_record))
        encoder = encoding(game.name).from_seat_record(seat_record, seed)
        observation = setup.scaler(encoder.observe(seat))
        return {"index": int(self.policy(observation, encoder.mask(seat)))}


@dataclass
class OpenSpielMcts:
    """OpenSpiel's own MCTS (random rollouts) on the OpenSpiel game, from a state
    consistent with what the seat has seen (a new determinization each move)."""

    simulations: int = 50
    _games: dict[tuple[str, str], Any] = field(default_factory=dict)

    def move(self, game: GameType, seat_record: dict[str, Any], seat: int, seed: int) -> Move:
        import numpy as np
        import pyspiel
        from open_spiel.python.algorithms import mcts

        from tabletop.research import openspiel
        from tabletop.research.encoding import spiel_name

        openspiel.register()
        params = {"players": len(seat_record["players"]), **_variant(seat_record)}
        key = (game.name, json.dumps(params, sort_keys=True))
        if key not in self._games:
            self._games[key] = pyspiel.load_game(spiel_name(game.name), params)
        spiel_game = self._games[key]
        state = spiel_game.state_from_seat_record(seat_record, seed)
        rng = np.random.RandomState(seed % 2**32)
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
        bot = mcts.MCTSBot(
            spiel_game, 2.0, self.simulations, evaluator, random_state=rng, solve=False
        )
        return {"index": int(bot.step(state))}


def _variant(seat_record: dict[str, Any]) -> dict[str, Any]:
    """The options that make a variant of the research encoding: Nova Luna's first
    game, NMBR 9's cards removed."""
    variant: dict[str, Any] = {}
    if seat_record.get("first_game"):
        variant["first_game"] = True
    if "removed" in seat_record:
        variant["remove"] = seat_record["removed"]
    return variant


def registered_bot(spec: str) -> Player:
    return RegisteredBot(spec)


def policy_player(policy: Policy) -> Player:
    return PolicyPlayer(policy)


class BotClient:
    """A bot account's connection: accepts challenges (of games its player can play)
    and plays each of its games to the end."""

    def __init__(
        self,
        server: str,
        token: str,
        player: Player,
        *,
        games: int | None = None,
        frames: Callable[[str, str], None] | None = None,
        tournament: str | None = None,
    ) -> None:
        self.server = server.rstrip("/")
        self.headers = {"Authorization": f"Bearer {token}"}
        self.player = player
        self.games_left = games  # stop after this many games ended (None: never)
        self.frames = frames  # called with (where, text) for every message received
        self.playing: dict[str, asyncio.Task[None]] = {}
        self.finished: set[str] = set()
        self.tournament = tournament  # play only this event's games, until it ends
        self.event_over = False
        self.event_checked = 0.0  # when the event's status was last asked (loop time)

    @property
    def ws_base(self) -> str:
        parts = urlsplit(self.server)
        scheme = "wss" if parts.scheme == "https" else "ws"
        return f"{scheme}://{parts.netloc}"

    def run_forever(self) -> None:
        asyncio.run(self.run())

    async def run(self) -> None:
        """Follow the event stream until ``games`` games have ended (or for ever),
        reconnecting after a dropped connection. With a tournament: enter it first, and
        follow the stream until it is finished."""
        if self.tournament is not None:
            await self._join()
        try:
            while not self._done():
                try:
                    await self._follow_events()
                except (OSError, ConnectionClosed) as err:
                    if getattr(err, "rcvd", None) and err.rcvd.code == 4401:  # type: ignore[attr-defined]
                        raise SystemExit("the token was revoked or is unknown") from None
                    log.warning("event stream lost (%s); reconnecting", err)
                    await asyncio.sleep(1)
        finally:
            for task in self.playing.values():
                task.cancel()

    def _done(self) -> bool:
        if self.tournament is not None:
            return self.event_over and not self.playing
        return self.games_left is not None and len(self.finished) >= self.games_left

    async def _join(self) -> None:
        """Enter the event (again: a client restarted mid-event is still its entrant)."""
        status, answer = await self._http("POST", f"/api/tournaments/{self.tournament}/join", {})
        if status == 200 and answer.get("me"):
            log.info(
                "entered %s (%s) as entrant %s",
                answer["name"],
                self.tournament,
                answer["me"]["entrant"],
            )
            return
        event = await self._event()
        if event is not None and event.get("me"):
            log.info("already an entrant of %s", self.tournament)
            return
        raise SystemExit(f"could not enter the event: {answer.get('error', status)}")

    async def _event(self) -> dict[str, Any] | None:
        status, answer = await self._http("GET", f"/api/tournaments/{self.tournament}")
        return answer if status == 200 else None

    async def _check_event(self) -> None:
        """Ask whether the event is over, at most every few seconds: the stream says
        when games end, not when the event does."""
        now = asyncio.get_running_loop().time()
        if self.tournament is None or self.event_over or now - self.event_checked < 3:
            return
        self.event_checked = now
        event = await self._event()
        if event is not None and event["status"] in ("finished", "cancelled"):
            log.info("the event %s is %s", self.tournament, event["status"])
            self.event_over = True

    async def _follow_events(self) -> None:
        url = f"{self.ws_base}/api/account/ws"
        async with connect(url, additional_headers=self.headers) as events:
            log.info("online as a bot account on %s", self.server)
            while not self._done():
                await self._check_event()
                try:
                    text = await asyncio.wait_for(events.recv(), 1.0)
                except TimeoutError:
                    continue
                self._seen("events", str(text))
                message = json.loads(text)
                if message.get("type") == "error":
                    raise SystemExit(f"the server refused the event stream: {message['message']}")
                for game in message.get("games") or [message.get("game")]:
                    if game:
                        await self._on_game(game)

    async def _on_game(self, game: dict[str, Any]) -> None:
        """An entry of the event stream: accept an invitation, start playing a game."""
        game_id = game["id"]
        if game["over"] or game_id in self.finished or game_id in self.playing:
            return
        if self.tournament is not None and not self._of_event(game):
            return  # entered for one event: its games only
        if game.get("invited"):
            accept = self._can_play(game["type"])
            status, answer = await self._http(
                "POST", f"/api/games/{game_id}/invitation", {"accept": accept}
            )
            word = "accepted" if accept else "declined"
            log.info("%s the challenge to %s: %s", word, game_id, status)
            if not accept or status != 200:
                return
        self.playing[game_id] = asyncio.create_task(self._play(game_id, game["type"]))

    def _of_event(self, game: dict[str, Any]) -> bool:
        event = game.get("tournament")
        return isinstance(event, dict) and event.get("id") == self.tournament

    def _can_play(self, kind: str) -> bool:
        try:
            return get_game(kind).offers_seat_records
        except Exception:  # a game this client's package does not know
            return False

    async def _play(self, game_id: str, kind: str) -> None:
        """Play one game through its socket until it is over."""
        game = get_game(kind)
        url = f"{self.ws_base}/api/games/{game_id}/ws"
        try:
            async with connect(url, additional_headers=self.headers) as ws:
                await ws.send(json.dumps({"type": "hello", "tokens": []}))
                await self._play_on(ws, game_id, game)
        except ConnectionClosed as err:
            log.warning("game %s: socket closed (%s)", game_id, err)
        finally:
            self.playing.pop(game_id, None)

    async def _play_on(self, ws: ClientConnection, game_id: str, game: GameType) -> None:
        acted_at: int | None = None
        async for text in ws:
            self._seen(game_id, str(text))
            message = json.loads(text)
            if message.get("type") == "error":
                log.warning("game %s: %s", game_id, message.get("message"))
                acted_at = None  # refused: think again at the next state
                continue
            if message.get("type") != "state":
                continue
            if message["over"]:
                self.finished.add(game_id)
                log.info("game %s is over", game_id)
                return
            seat = message.get("acting")
            if seat is None or message["ply"] == acted_at:
                continue
            acted_at = message["ply"]
            move = await self._choose(game_id, game, seat, message["ply"])
            await ws.send(json.dumps({"type": "act", "ply": message["ply"], "seat": seat, **move}))

    async def _choose(self, game_id: str, game: GameType, seat: int, ply: int) -> Move:
        status, answer = await self._http("GET", f"/api/games/{game_id}/seat-record?seat={seat}")
        if status != 200:
            raise RuntimeError(f"the seat record of {game_id}: {answer.get('error')}")
        self._seen(game_id, json.dumps(answer))
        record = answer["record"]
        seed = random.Random(f"{game_id}:{ply}:{seat}").getrandbits(32)
        return await asyncio.to_thread(self.player.move, game, record, seat, seed)

    async def _http(self, method: str, path: str, body: Any = None) -> tuple[int, dict[str, Any]]:
        """A request to the server's HTTP API (the standard library's, in a thread: the
        client needs nothing the server's own install lacks); its status and JSON."""

        def call() -> tuple[int, dict[str, Any]]:
            data = None if body is None else json.dumps(body).encode()
            request = urllib.request.Request(self.server + path, data=data, method=method)
            request.add_header("Content-Type", "application/json")
            for name, value in self.headers.items():
                request.add_header(name, value)
            try:
                with urllib.request.urlopen(request, timeout=30) as reply:
                    return reply.status, json.loads(reply.read() or b"{}")
            except urllib.error.HTTPError as err:
                return err.code, json.loads(err.read() or b"{}")

        return await asyncio.to_thread(call)

    def _seen(self, where: str, text: str) -> None:
        if self.frames is not None:
            self.frames(where, text)


def _load_policy(target: str) -> Policy:
    module, _, name = target.partition(":")
    if not name:
        raise SystemExit("--policy takes module:callable, e.g. mypackage.agents:policy")
    return getattr(importlib.import_module(module), name)  # type: ignore[no-any-return]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--server", default="http://localhost:8000")
    parser.add_argument("--token", required=True, help="the bot account's API token (tbt_...)")
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument("--bot", help="one of our registered bots, e.g. greedy")
    which.add_argument("--policy", help="module:callable, policy(observation, mask) -> index")
    which.add_argument("--openspiel-mcts", type=int, metavar="SIMULATIONS")
    parser.add_argument("--games", type=int, help="stop after this many games ended")
    parser.add_argument(
        "--tournament", metavar="ID", help="enter this event, play its games, stop at its end"
    )
    parser.add_argument("--frames", help="append every message received to this NDJSON file")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    player: Player
    if args.bot:
        player = registered_bot(args.bot)
    elif args.policy:
        player = policy_player(_load_policy(args.policy))
    else:
        player = OpenSpielMcts(args.openspiel_mcts)
    frames = None
    if args.frames:
        out = open(args.frames, "a", encoding="utf-8")  # noqa: SIM115 - open for the run

        def frames(where: str, text: str) -> None:
            out.write(json.dumps({"where": where, "text": text}) + "\n")
            out.flush()

    try:
        client = BotClient(
            args.server,
            args.token,
            player,
            games=args.games,
            frames=frames,
            tournament=args.tournament,
        )
        client.run_forever()
    except KeyboardInterrupt:
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
