"""The scheduler of ``pytest -n`` (see ``parallel_support``): xdist's scheduling by
scopes, each scope a unit of ``parallel_support``, with one unit queued at a time."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from xdist.remote import Producer
from xdist.scheduler import LoadScopeScheduling
from xdist.workermanage import WorkerController


class UnitScheduling(LoadScopeScheduling):
    """Hands out whole units, in the order the workers collected them (longest first:
    xdist's reordering by number of tests is off)."""

    def __init__(self, config: pytest.Config, log: Producer | None, units_file: Path) -> None:
        super().__init__(config, log)
        config.option.loadscopereorder = False
        self.units_file = units_file
        self.unit: dict[str, str] | None = None

    def _split_scope(self, nodeid: str) -> str:
        if self.unit is None:  # first asked once every worker has collected (and written)
            self.unit = json.loads(self.units_file.read_text())
        return self.unit.get(nodeid, nodeid)

    def _reschedule(self, node: WorkerController) -> None:
        """As xdist's, but a worker gets its next unit only when it has one test left
        (the one it runs, as it must know the next to start it): a worker busy with a
        long test then holds no other long one back from the workers that are free."""
        if node.shutting_down:
            return
        if not self.workqueue:
            node.shutdown()
            return
        if self._pending_of(self.assigned_work[node]) > 1:
            return
        self._assign_work_unit(node)
