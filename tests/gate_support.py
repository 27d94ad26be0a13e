"""The test's side of ``serve --test-gate`` (``tabletop.server.testgate``): hold the
servers' searches (strong bots, hints, analyses) so that a test catches one in
progress without racing its length against the machine's speed.

    gate = SearchGate(tmp_path / "gate")
    gate.close()                       # every search waits from now on
    server = ServerProcess(db, options=gate.options).start()
    ...                                # a bot's turn comes
    gate.wait_until_held()             # a search is held: kill its process, say
    gate.open()                        # and let them all go
"""

from __future__ import annotations

import time
from pathlib import Path

#: Bounds a hang only: a held search shows within a second on a quiet machine.
HANG_SECONDS = 60.0


class SearchGate:
    """A gate folder several server processes share (``options`` starts one with it)."""

    def __init__(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.folder = folder

    @property
    def options(self) -> tuple[str, ...]:
        return ("--test-gate", str(self.folder))

    def close(self, passes: int = 0) -> None:
        """Hold every search after the next ``passes`` ones."""
        (self.folder / "closed").write_text(str(passes))

    def open(self) -> None:
        """Let every held search go, and the later ones run at once."""
        (self.folder / "closed").unlink(missing_ok=True)

    def held(self) -> int:
        """How many searches wait at the gate now (each in its worker process)."""
        return len(list(self.folder.glob("waiting-*")))

    def wait_until_held(self, count: int = 1) -> None:
        """Return once ``count`` searches wait at the gate."""
        deadline = time.monotonic() + HANG_SECONDS
        while self.held() < count:
            assert time.monotonic() < deadline, f"{count} searches never reached the gate"
            time.sleep(0.02)
