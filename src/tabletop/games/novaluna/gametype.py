"""Nova Luna as the platform sees it: the ``GameType`` behind the ``novaluna`` command,
the harnesses and the web server.

>>> from tabletop.harness.selfplay import play_game
>>> record = play_game(GAME, ["greedy", "random"], seed=3)
>>> outcome = GAME.outcome(record)
>>> sorted(outcome.ranks), outcome.score_name
([1, 2], 'discs left')
>>> "wins" in GAME.verify(record)
True
"""

from __future__ import annotations

import argparse
import weakref
from typing import Any

from ...core.errors import BotSpecError, OptionsError
from ...core.game import JSON, Outcome
from .bots.base import REGISTRY
from .records import Recorder, replay
from .rules import Game, SoloResult, View
from .webgame import NovaLunaWeb


class NovaLunaTable:
    """A Nova Luna game played offline: one seat acts at a time."""

    def __init__(self, recorder: Recorder) -> None:
        self.recorder = recorder
        # Views handed out since the last action. They share the state's displays,
        # wheel and counters (copying them every move was a fifth of a selfplay
        # game); one still alive when the next action comes gets its own copies
        # first, so a bot that keeps a view still sees the position it was given.
        self._lent: list[weakref.ref[View]] = []

    def acting(self) -> list[int]:
        state = self.recorder.state
        return [] if state.is_over else [state.current_seat]

    def view(self, seat: int) -> View:
        view = View(self.recorder.state, seat, share=True)
        self._lent.append(weakref.ref(view))
        return view

    def apply(self, seat: int, action: Any) -> None:
        if seat != self.recorder.state.current_seat:
            raise ValueError(f"it is seat {self.recorder.state.current_seat}'s turn, not {seat}'s")
        lent = self._lent
        if lent:
            for ref in lent:
                view = ref()
                if view is not None:
                    view.unshare()
            lent.clear()
        self.recorder.apply(action)

    def record(self) -> JSON:
        return self.recorder.to_record()


class NovaLuna:
    """The ``nova-luna`` game type."""

    name = "nova-luna"
    title = "Nova Luna"
    command = "novaluna"
    min_seats = 1
    max_seats = 4
    seats_matter = True  # the start stack decides who moves first
    solo_threshold = 100  # a solo total under 100 is a good game
    bots = REGISTRY
    research = "tabletop.games.novaluna.encoding:ENCODING"  # loaded by tabletop.research
    web = NovaLunaWeb()

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument(
            "--first-game", action="store_true", help="fewer discs with 3-4 players (17/15)"
        )

    def options(self, args: argparse.Namespace, players: int) -> JSON:
        first_game = bool(getattr(args, "first_game", False))
        try:
            Game(players=players, first_game=first_game)
        except ValueError as err:
            raise OptionsError(str(err)) from None
        return {"first_game": first_game}

    def check_bot(self, spec: str, players: int) -> None:
        self.bots.make(spec)
        if spec.strip().partition(":")[0].lower() == "solo" and players != 1:
            raise BotSpecError("the solo planner plays only the solo game")

    def new_table(self, players: int, options: JSON, names: list[str], seed: int) -> NovaLunaTable:
        game = Game(players=players, first_game=bool(options.get("first_game", False)))
        return NovaLunaTable(Recorder.new(game, names, seed=seed))

    def verify(self, record: Any) -> str:
        return describe(replay(record))

    def outcome(self, record: JSON) -> Outcome:
        result, turns = record["result"], len(record["turns"])
        if record["mode"] == "solo":
            details = {"phase 1": result["phase1"], "phase 2": result["phase2"]}
            return Outcome((1,), (result["total"],), "solo score", True, turns, "turns", details)
        ranks = [0] * len(result["ranking"])
        for place, seat in enumerate(result["ranking"], 1):
            ranks[seat] = place  # Nova Luna always breaks ties: ranks are distinct
        return Outcome(tuple(ranks), tuple(result["discs_left"]), "discs left", True, turns)

    def add_commands(self, commands: Any) -> None:
        from ...cli import add_play_command, seed

        help = "play against bots or friends (hot-seat) in the terminal"
        add_play_command(commands, self, help=help, players=2).set_defaults(run=_play)

        solo = commands.add_parser("solo", help="the solo game")
        solo.add_argument("--seed", type=seed, help="shuffle seed (random if omitted)")
        solo.add_argument("--save", metavar="FILE", help="where to save the record (.json)")
        solo.set_defaults(run=_play)

    def bench(self, seconds: float, runs: int, selfplay: bool = False) -> int:
        from .bench import run_bench

        return run_bench(seconds=seconds, runs=runs, selfplay=selfplay)


def _play(args: argparse.Namespace) -> int:
    from .terminal.app import play_from_args

    return play_from_args(args)


def describe(rec: Recorder) -> str:
    """A one-line outcome, e.g. ``'Ann wins (0 discs left); Bob 4 — 37 turns'``."""
    state = rec.state
    turns = f"{len(rec.turns)} turns"
    if not state.is_over:
        return f"unfinished after {turns}; {rec.players[state.current_seat]} to move"
    result = state.result()
    if isinstance(result, SoloResult):
        return (
            f"solo score {result.total} (phase 1: {result.phase1}, phase 2: {result.phase2}); "
            f"{result.discs_placed} discs placed, {turns}"
        )
    names = rec.players
    ranking = ", ".join(f"{names[s]} {result.discs_left[s]}" for s in result.ranking[1:])
    how = "placed the last disc" if result.winner_by_last_disc else "no tiles left"
    winner = result.ranking[0]
    return (
        f"{names[winner]} wins ({how}, {result.discs_left[winner]} discs left); "
        f"then {ranking} — {turns}"
    )


GAME = NovaLuna()
