"""How much work a host gives one bot move, and a casual game's coach."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class BotLimits:
    """The most work a host gives one bot move, whatever a stranger asked for: specs
    over ``iterations`` are refused, and every search stops after ``seconds``."""

    iterations: int = 20_000
    seconds: float = 5.0


#: The server's default limits (``novaluna serve --bot-max-iterations/-seconds``).
DEFAULT_LIMITS = BotLimits()

#: No limit: the command line and the harnesses run any bot the user names.
UNLIMITED = BotLimits(iterations=2**62, seconds=float("inf"))


@dataclass(frozen=True)
class CoachLimits:
    """How much of the server the coach may take (``novaluna serve --coach-*``):
    ``running`` coach jobs at once, each in a worker process of the bot pool's
    background lane (None: half as many as the pool's search workers, at least one),
    ``waiting`` moves queued on the whole server, and ``budget`` per move (None: each
    game's ``coach_budget``)."""

    running: int | None = None
    waiting: int = 64
    budget: int | None = None
