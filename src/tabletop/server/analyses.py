"""Post-game analyses on the server: asked for once per finished game, worked out in
the background and stored with the game for every later viewer.

An analysis runs in the bot pool one decision per job, and at most one analysis
job of this process is in the pool at a time: live games' bot moves queue beside
it in the pool's first-come, first-served order instead of behind a whole game's
analysis (and quick bots such as greedy have a lane of their own anyway). With
several processes on one store, one of them holds the game's ``analysis`` lease
and the others wait in case it dies. A restart carries on with every analysis
asked for and not finished (from its first decision: judgements are seeded, so
the result is the same).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from ..analysis.practice import check_try, judge_try, position
from ..analysis.run import (
    assemble,
    boards,
    check_available,
    decision_indices,
    hindsight_of,
    judge_index,
)
from ..core.errors import ActionRejected, RecordError, Unavailable
from ..core.match import Job
from ..core.web import JSON
from .authority import Authority
from .botpool import BotPool
from .errors import ApiError, reading
from .replays import companion, off_loop
from .room import Room
from .storage import GameStore
from .sync import ANALYSIS, Leases
from .writes import AnalysisProgress, FinishAnalysis, RequestAnalysis, Write

log = logging.getLogger("tabletop.server")
T = TypeVar("T")

#: The search's seed for every analysis on the server: one game, one analysis.
SEED = 0


class Analyst:
    """Starts, works out and reports games' analyses."""

    def __init__(
        self,
        store: GameStore,
        authority: Authority,
        leases: Leases,
        pool: BotPool,
        write: Callable[[Write[Any]], Awaitable[Any]],
        budget: int | None = None,
    ) -> None:
        self.store = store
        self.authority = authority
        self.leases = leases
        self.pool = pool
        self._write = write
        self.budget = budget  # None: each game's default budget
        self._running: dict[str, asyncio.Task[None]] = {}
        self._turn = asyncio.Semaphore(1)  # one analysis job in the pool at a time
        # tries of "learn from your mistakes": one at a time per address, and never so
        # many at once that live games' bots find no worker (they queue for one)
        self._tries = asyncio.Semaphore(max(1, pool.workers - 1))
        self._trying: set[object] = set()

    async def request(self, game_id: str) -> JSON:
        """Ask for a finished game's analysis (once: later requests see the same one)."""
        room = await self.authority.fresh(game_id)
        if not room.match.is_over():
            raise ApiError(409, "a game can be analysed once it is over")
        analyser = room.type.analyser()
        if analyser is None:
            raise ApiError(422, "{title} games cannot be analysed", title=room.type.title)
        try:
            check_available(analyser, _record(room))
        except Unavailable as err:  # this server lacks a compiled kernel: asking again won't help
            refusal = ApiError.of(503, err)
            refusal.retry_after = None
            raise refusal from None
        await self._write(RequestAnalysis(game_id, self.budget or analyser.default_budget))
        self.start(game_id)
        return self.status(game_id)

    def status(self, game_id: str) -> JSON:
        """``{"status": "running"|"done"|"failed", "done", "total", "analysis"?,
        "partial"?}``: ``partial``, while running, is the analysis of the ``done``
        decisions judged so far (no larger than the finished one will be). For a game
        nobody asked to analyse yet: ``{"status": "none"}`` (an answer, not an error:
        the page asks before it offers **Analyse**)."""
        row = reading(lambda: self.store.analysis(game_id))
        if row is None:
            if reading(lambda: self.store.game(game_id)) is None:
                raise ApiError(404, "no such game")
            return {"game": game_id, "status": "none"}
        shown: JSON = {"game": game_id, "budget": row.budget, "done": row.done}
        shown["total"] = row.total
        if row.finished is None:
            partial = {"partial": row.result} if row.result is not None else {}
            return {**shown, "status": "running", **partial}
        if row.error is not None:
            return {**shown, "status": "failed", "error": row.error}
        return {**shown, "status": "done", "analysis": row.result}

    def _analysed(self, game_id: str) -> JSON:
        """The game's finished analysis (404 if nobody asked, 409 while it runs)."""
        shown = self.status(game_id)
        if shown["status"] == "none":
            raise ApiError(404, "this game has not been analysed: ask for it with POST")
        if shown["status"] != "done":
            raise ApiError(409, "the game's analysis is not finished")
        analysis: JSON = shown["analysis"]
        return analysis

    def _judged(self, game_id: str, index: object) -> tuple[JSON, JSON]:
        """The finished analysis and its judged decision ``index`` (400 for an index
        that is no decision's, 404 for one the game does not have)."""
        if type(index) is not int or index < 0:
            raise ApiError(400, "the move is a decision's index: 0, 1, 2, ...")
        analysis = self._analysed(game_id)
        moves = [m for seat in analysis["seats"] for m in seat["moves"]]
        move = next((m for m in moves if m["index"] == index), None)
        if move is None:
            raise ApiError(404, "the game has no move {index}", index=index)
        return analysis, move

    async def boards(self, game_id: str, index: object) -> JSON:
        """The board after decision ``index`` as played and with the best move instead
        (``analysis.run.boards``), from the stored analysis."""
        _, move = self._judged(game_id, index)
        room = await self.authority.fresh(game_id)
        try:
            return await asyncio.to_thread(
                boards, room.type, _record(room), move["index"], move["best"]
            )
        except RecordError as err:
            raise ApiError(
                404, "the board of move {index} cannot be drawn: {reason}", index=index, reason=err
            ) from None

    async def position(self, game_id: str, index: object) -> JSON:
        """What the deciding seat saw before decision ``index``, with its legal moves
        (``analysis.practice.position``): where "learn from your mistakes" asks for a
        better move."""
        _, move = self._judged(game_id, index)
        room = await self.authority.fresh(game_id)
        try:
            return await asyncio.to_thread(position, room.type.name, _record(room), move["index"])
        except RecordError as err:
            raise ApiError(
                404, "the board of move {index} cannot be drawn: {reason}", index=index, reason=err
            ) from None

    async def try_move(self, game_id: str, index: object, action: str, who: object) -> JSON:
        """Another move tried in decision ``index``'s position, judged by the analyser
        at the analysis's budget (``analysis.practice.judge_try``). ``who`` (the
        address) has one try worked out at a time."""
        analysis, move = self._judged(game_id, index)
        room = await self.authority.fresh(game_id)
        name, record = room.type.name, _record(room)
        try:
            await asyncio.to_thread(check_try, name, record, move["index"], action)
        except ActionRejected as err:
            raise ApiError.of(422, err) from None
        if who in self._trying:
            raise ApiError(429, "a try is already being judged for you; wait for its answer")
        self._trying.add(who)
        budget, seed = analysis["budget"], analysis["seed"]
        job = Job(judge_try, (name, record, move["index"], action, budget, seed, move))
        try:
            async with self._tries:
                result: JSON = await self.pool.run(job)
        except (RecordError, BrokenProcessPool):
            log.exception("a try in game %s could not be judged", game_id)
            raise ApiError(503, "the try could not be judged just now; try again") from None
        finally:
            self._trying.discard(who)
        return result

    async def hindsight_game(self, game_id: str) -> JSON:
        """The best game with hindsight as replay frames (``replays.companion``), from
        the record the stored analysis keeps of it."""
        shown = self.status(game_id)
        if shown["status"] == "none":
            raise ApiError(404, "this game has not been analysed: ask for it with POST")
        if shown["status"] != "done":
            raise ApiError(409, "the game's analysis is not finished")
        best = shown["analysis"].get("hindsight")
        record = best.get("record") if isinstance(best, dict) else None
        if not isinstance(record, dict):
            raise ApiError(404, "this game's analysis has no hindsight game to replay")
        game = (await self.authority.fresh(game_id)).type
        return await off_loop(lambda: companion(game, record, best["score"]))

    def start(self, game_id: str) -> None:
        """Work the analysis out here unless this process already does."""
        task = self._running.get(game_id)
        if task is None or task.done():
            self._running[game_id] = asyncio.get_running_loop().create_task(self._run(game_id))

    def resume(self) -> None:
        """After a restart: carry on with every analysis not finished."""
        for game_id in reading(self.store.unfinished_analyses):
            self.start(game_id)

    def _unfinished(self, game_id: str) -> bool:
        row = self.store.analysis(game_id)
        return row is not None and row.finished is None

    async def _run(self, game_id: str) -> None:
        try:
            if await self.leases.leased(game_id, ANALYSIS, lambda: self._unfinished(game_id)):
                async with self.leases.holding(game_id, ANALYSIS):
                    await self._work(game_id)
        except asyncio.CancelledError:
            raise
        except Exception:  # the server goes on; the analysis says it failed
            log.exception("analysis of game %s failed", game_id)
            await self._finish(game_id, None, "the analysis could not be worked out")

    async def _work(self, game_id: str) -> None:
        row = self.store.analysis(game_id)
        if row is None or row.finished is not None:
            return
        room = await self.authority.fresh(game_id)
        name, record = room.type.name, _record(room)
        try:
            # in the record's order: the page draws the game from its first move on
            indices = await self._job(decision_indices, name, record)
            judged = []
            for done, index in enumerate(indices, 1):
                found = await self._job(judge_index, name, record, index, row.budget, SEED)
                judged.append((found["seat"], found["move"]))
                partial = assemble(room.type, record, row.budget, SEED, judged, None)
                await self._write(AnalysisProgress(game_id, done, len(indices), partial.to_json()))
            best = await self._job(hindsight_of, name, record, row.budget, SEED)
        except (RecordError, BrokenProcessPool) as err:
            log.error("analysis of game %s: %s", game_id, err)
            await self._finish(game_id, None, "the analysis could not be worked out")
            return
        analysis = assemble(room.type, record, row.budget, SEED, judged, best)
        await self._finish(game_id, analysis.to_json(), None)

    async def _job(self, function: Callable[..., T], *args: Any) -> T:
        async with self._turn:
            result: T = await self.pool.run(Job(function, args))
            return result

    async def _finish(self, game_id: str, result: JSON | None, error: str | None) -> None:
        await self._write(FinishAnalysis(game_id, result, error))

    def close(self) -> None:
        for task in self._running.values():
            task.cancel()


def _record(room: Room) -> JSON:
    """The finished game's record, its seats named as the page names them."""
    return room.match.record([s.name for s in room.seats])
