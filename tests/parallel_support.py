"""How the suite runs in parallel: pytest-xdist (``make test`` runs ``pytest -n``), with
a scheduler of this module's (``UnitScheduling``) for ``-n``'s default ``--dist load``
and for ``--dist loadscope``.

Which tests share a worker: those of a module that use a fixture of module (or class)
scope -- its server, its browser, its Ray cluster -- form one unit, sent whole to one
worker, so that each such fixture starts once, as in a serial run. The module's
parameters of that scope (``storage``: its SQLite and its PostgreSQL half, each with a
server of its own) split it into one unit per value. Every other test is a unit of its
own, run wherever a worker is free.

A group measured longer than ``SPLIT_ABOVE`` runs in parts (runs of consecutive tests,
each part with fixtures of its own), so that it ends no later than the others: its
tests must not count on what an earlier test of the module left in the server. A
module marked ``whole_unit`` (``pytestmark = pytest.mark.whole_unit``) never does.

Which start first: the longest units, by the seconds ``DURATIONS`` holds for them (a
measured run: ``--record-durations``), so that no long unit starts last and forms a
tail while the other workers idle.

The workers collect the tests (the controller does not): each writes every test's unit
to a file the controller named (``UNITS_KEY`` in its ``workerinput``), which the
scheduler reads. (xdist's own ``--dist loadgroup`` would carry groups in the test ids,
which the pytest in use no longer lets it change: pytest-xdist issue 1386.)"""

from __future__ import annotations

import json
import math
import os
import re
import shutil
import tempfile
from collections import Counter, defaultdict
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:  # xdist: only when it runs these hooks
    from xdist.remote import Producer
    from xdist.scheduler.protocol import Scheduling
    from xdist.workermanage import WorkerController

DURATIONS = Path(__file__).with_name("durations.json")
#: what a test of a unit missing from ``DURATIONS`` (a new one) is taken to last, in seconds
UNKNOWN_TEST = 1.0
#: the shortest unit ``--record-durations`` writes down (shorter ones order as unknown)
RECORDED_FROM = 1.0
SHARED_SCOPES = {"module", "class", "package"}
#: a group measured longer (in seconds) is run in parts of about this length, on several
#: workers at once: a part's browser and server start in seconds, a long group would end
#: last of all
SPLIT_ABOVE = 250.0
#: the marker of a module never run in parts, whatever its length: its module-scoped
#: fixtures cost more to start twice than the parts would gain (a package install)
WHOLE = "whole_unit"
PART = re.compile(r"~\d+/(\d+)$")
UNITS_KEY = "tabletop_units"  # in a worker's ``workerinput``: the file of the units


def group_of(item: pytest.Item) -> str | None:
    """The name of the unit ``item`` shares with others, or None when it runs alone."""
    info = getattr(item, "_fixtureinfo", None)  # absent from doctests
    if info is None:
        return None
    if not any(d and d[-1].scope in SHARED_SCOPES for d in info.name2fixturedefs.values()):
        return None
    module = item.nodeid.split("::", 1)[0]
    callspec = getattr(item, "callspec", None)
    if callspec is None:
        return module
    scopes = callspec._arg2scope  # each parameter's scope
    values = [
        _named(name, value, callspec.indices[name])
        for name, value in sorted(callspec.params.items())
        if name in scopes and scopes[name].value in SHARED_SCOPES
    ]
    return "|".join([module, *values])


def _named(name: str, value: object, index: int) -> str:
    """A parameter in a unit's name, the same in every worker (as ``str`` of an object,
    with its address, would not be)."""
    if isinstance(value, str | int | float | bool) or value is None:
        return f"{name}={value}"
    return f"{name}#{index}"


def units(items: list[pytest.Item]) -> dict[str, str]:
    """Each test's unit: its own id, or its group -- a part of it (``GROUP~2/3``) when
    the group lasted longer than ``SPLIT_ABOVE``: its tests in runs of consecutive
    ones, each run with fixtures of its own."""
    unit = {item.nodeid: group_of(item) or item.nodeid for item in items}
    durations = load_durations()
    members: defaultdict[str, list[str]] = defaultdict(list)
    for nodeid, name in unit.items():
        if name != nodeid:
            members[name].append(nodeid)
    whole = {
        group for item in items if item.get_closest_marker(WHOLE) and (group := unit[item.nodeid])
    }
    for name, ids in members.items():
        parts = min(len(ids), math.ceil(durations.get(name, 0.0) / SPLIT_ABOVE))
        parts = 1 if name in whole else parts
        for index, nodeid in enumerate(ids if parts > 1 else ()):
            unit[nodeid] = f"{name}~{index * parts // len(ids) + 1}/{parts}"
    return unit


def group_of_unit(name: str) -> str:
    """The group a part (``GROUP~2/3``) belongs to; any other unit itself."""
    return PART.sub("", name)


def expected(name: str, tests: int, durations: dict[str, float]) -> float:
    """The seconds a unit of ``tests`` tests is taken to last: as measured (a part, its
    share of its group's), else ``UNKNOWN_TEST`` a test."""
    part = PART.search(name)
    if part is not None and group_of_unit(name) in durations:
        return durations[group_of_unit(name)] / int(part[1])
    return durations.get(name, UNKNOWN_TEST * tests)


def load_durations() -> dict[str, float]:
    if not DURATIONS.exists():
        return {}
    durations: dict[str, float] = json.loads(DURATIONS.read_text())
    return durations


def longest_first(items: list[pytest.Item], unit: dict[str, str]) -> None:
    """Put the longest units first (the scheduler hands them out in this order), the
    items of a unit in their order (pytest's: a module's storages apart). A unit
    ``DURATIONS`` lacks is taken to last ``UNKNOWN_TEST`` seconds a test."""
    durations = load_durations()
    tests = Counter(unit.values())
    seconds = {name: expected(name, count, durations) for name, count in tests.items()}
    position = {name: index for index, name in enumerate(dict.fromkeys(unit.values()))}
    items.sort(key=lambda item: (-seconds[unit[item.nodeid]], position[unit[item.nodeid]]))


class ParallelPlugin:
    """The hooks: in the controller of ``-n``, it names the units' file and makes the
    scheduler; in a worker, it orders the tests and writes their units."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.folder: Path | None = None  # the controller's, for the units' file

    @pytest.hookimpl(optionalhook=True)
    def pytest_configure_node(self, node: WorkerController) -> None:
        if self.folder is None:
            self.folder = Path(tempfile.mkdtemp(prefix="tt-units-"))
        node.workerinput[UNITS_KEY] = str(self.folder / "units.json")

    @pytest.hookimpl(optionalhook=True)
    def pytest_xdist_make_scheduler(
        self, config: pytest.Config, log: Producer
    ) -> Scheduling | None:
        if config.getvalue("dist") not in ("load", "loadscope") or self.folder is None:
            return None  # xdist's own
        from parallel_scheduler import UnitScheduling

        return UnitScheduling(config, log, self.folder / "units.json")

    def pytest_collection_modifyitems(self, items: list[pytest.Item]) -> None:
        workerinput = getattr(self.config, "workerinput", None)
        if workerinput is None or UNITS_KEY not in workerinput:
            return
        unit = units(items)
        longest_first(items, unit)
        path = Path(workerinput[UNITS_KEY])
        mine = path.with_name(f"{workerinput['workerid']}.json")
        mine.write_text(json.dumps(unit))
        os.replace(mine, path)  # whole, whichever worker writes last

    def pytest_unconfigure(self) -> None:
        if self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)


class DurationRecorder:
    """``--record-durations``: at the end, writes the seconds of every unit (setup,
    call and teardown of its tests) of at least ``RECORDED_FROM`` to ``DURATIONS``,
    keeping those of units this run did not run. Registered in the process that
    reports (the controller under ``-n``, which learns the units from the workers'
    file)."""

    def __init__(self, plugin: ParallelPlugin) -> None:
        self.plugin = plugin
        self.unit: dict[str, str] = {}  # a serial run's
        self.seconds: defaultdict[str, float] = defaultdict(float)

    def pytest_collection_modifyitems(self, items: list[pytest.Item]) -> None:
        self.unit = units(items)

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        self.seconds[report.nodeid] += report.duration

    def pytest_sessionfinish(self) -> None:
        unit = self.unit or self._units_of_workers()
        per_unit: defaultdict[str, float] = defaultdict(float)
        for nodeid, seconds in self.seconds.items():
            per_unit[group_of_unit(unit.get(nodeid, nodeid))] += seconds
        durations = load_durations()
        durations.update({u: round(s, 1) for u, s in per_unit.items() if s >= RECORDED_FROM})
        ordered = dict(sorted(durations.items(), key=lambda pair: -pair[1]))
        DURATIONS.write_text(json.dumps(ordered, indent=0) + "\n")

    def _units_of_workers(self) -> dict[str, str]:
        if self.plugin.folder is None or not (self.plugin.folder / "units.json").exists():
            return {}
        found: dict[str, str] = json.loads((self.plugin.folder / "units.json").read_text())
        return found
