"""Compiled search kernels, and how a game does without one.

The strong bots search in small C extensions that ``pip install`` compiles. setup.py
marks them optional, so the install also succeeds on a machine without a C compiler
(setuptools prints the compile error and goes on); the package then lacks them. A game
imports its kernel in one guarded place and describes it with a ``Kernel``: without
it, the bots that need it play as the game's strongest pure Python bot
(``plays_as``), its analysis refuses with ``Unavailable`` (``check_analysis``), and
``warning`` is the line the server, the terminal and the benchmark print at start.

>>> kernel = Kernel("NMBR 9", None, ("planner",), "greedy", "games cannot be analysed")
>>> kernel.built, kernel.plays_as("planner:strong"), kernel.plays_as("random")
(False, 'greedy', 'random')
>>> print(kernel.warning())
NMBR 9: compiled search kernel missing (no C compiler at install): the planner bots play as greedy, and games cannot be analysed; reinstall with a C compiler for full strength
"""  # noqa: E501

from __future__ import annotations

from types import ModuleType

from ..i18n import N_
from .errors import Unavailable

#: What an analysis that needs a missing kernel answers (the server sends it with a 503).
NO_KERNEL = N_(
    "the analysis needs the compiled search kernel, which this installation lacks "
    "(it was installed without a C compiler)"
)


class Kernel:
    """A game's compiled kernel ``module`` (None where it was not built), the bots that
    need it (``bots``, by name), the bot they play as without it (``fallback``) and what
    else is lost then (``lacking``, for the warning; ``label`` names the bots there)."""

    def __init__(
        self,
        game: str,
        module: ModuleType | None,
        bots: tuple[str, ...],
        fallback: str,
        lacking: str,
        label: str = "",
    ) -> None:
        self.game = game
        self.module = module
        self.bots = bots
        self.fallback = fallback
        self.lacking = lacking
        self.label = label or f"the {' and '.join(bots)} bots"

    @property
    def built(self) -> bool:
        return self.module is not None

    def plays_as(self, spec: str) -> str:
        """The bot ``spec`` really is here: itself, or the fallback where it needs the
        missing kernel."""
        name = spec.strip().partition(":")[0].lower()
        return self.fallback if name in self.bots and not self.built else spec

    def warning(self) -> str | None:
        """One line saying what is weaker here, or None when the kernel is built."""
        if self.built:
            return None
        return (
            f"{self.game}: compiled search kernel missing (no C compiler at install): "
            f"{self.label} play as {self.fallback}, and {self.lacking}; "
            "reinstall with a C compiler for full strength"
        )

    def check_analysis(self) -> None:
        """``Unavailable`` (``NO_KERNEL``) unless the kernel the analysis searches with
        is built."""
        if not self.built:
            raise Unavailable(NO_KERNEL)
