"""How much work a host gives one bot move."""

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
