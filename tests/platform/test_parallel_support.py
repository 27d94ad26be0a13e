"""The parallel suite's own rules (tests/parallel_support.py, server_support.free_port):
tests that share a fixture of module scope stay together, one unit per parameter of that
scope; the longest units go first; a port handed to one process is locked against all
others until the server has it."""

from __future__ import annotations

import subprocess
import sys

import pytest

import parallel_support
from server_support import PORT_LOCKS, free_port

MODULE = "tests/platform/test_parallel_support.py"


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def shared(request: pytest.FixtureRequest) -> str:
    """A stand-in for the module's ``storage``: what a unit is split by."""
    return str(request.param)


def mine(request: pytest.FixtureRequest) -> list[pytest.Item]:
    return [item for item in request.session.items if item.nodeid.startswith(MODULE)]


def test_a_module_fixture_keeps_its_tests_together_one_unit_per_parameter(
    shared: str, request: pytest.FixtureRequest
) -> None:
    users = [item for item in mine(request) if "shared" in item.fixturenames]
    assert {parallel_support.group_of(item) for item in users} == {
        f"{MODULE}|shared=sqlite",
        f"{MODULE}|shared=postgresql",
    }
    assert parallel_support.group_of(request.node) == f"{MODULE}|shared={shared}"


def test_a_test_without_a_shared_fixture_is_a_unit_of_its_own(
    request: pytest.FixtureRequest,
) -> None:
    assert parallel_support.group_of(request.node) is None
    assert parallel_support.units([request.node])[request.node.nodeid] == request.node.nodeid


def test_the_longest_units_go_first_each_in_its_order(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    items = mine(request)
    unit = parallel_support.units(items)
    last = items[-1].nodeid
    monkeypatch.setattr(parallel_support, "load_durations", lambda: {last: 1000.0})
    ordered = list(items)
    parallel_support.longest_first(ordered, unit)
    assert ordered[0].nodeid == last
    # the others, of a test each and unknown, take a second each: the order they had
    assert [item.nodeid for item in ordered[1:]] == [item.nodeid for item in items[:-1]]


LOCK = """
import fcntl, os, sys
fd = os.open(sys.argv[1], os.O_RDWR)
try:
    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
except OSError:
    sys.exit(3)
"""


def test_a_port_handed_out_is_locked_against_other_processes() -> None:
    ports = {free_port() for _ in range(5)}
    assert len(ports) == 5  # never twice to this process either
    for port in ports:
        done = subprocess.run([sys.executable, "-c", LOCK, str(PORT_LOCKS / str(port))])
        assert done.returncode == 3, port


def test_a_group_measured_long_runs_in_parts_of_consecutive_tests(
    shared: str, request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    group = f"{MODULE}|shared={shared}"
    ids = [item.nodeid for item in mine(request) if parallel_support.group_of(item) == group]
    assert len(ids) == 2  # this test and the first one of the module
    long = {group: parallel_support.SPLIT_ABOVE * 5}
    monkeypatch.setattr(parallel_support, "load_durations", lambda: long)
    unit = parallel_support.units(mine(request))
    # never more parts than tests
    assert [unit[nodeid] for nodeid in ids] == [f"{group}~1/2", f"{group}~2/2"]
    assert parallel_support.expected(f"{group}~1/2", 1, long) == long[group] / 2
    assert parallel_support.group_of_unit(f"{group}~2/2") == group
    monkeypatch.setattr(parallel_support, "load_durations", dict)
    assert {parallel_support.units(mine(request))[nodeid] for nodeid in ids} == {group}
    monkeypatch.setattr(parallel_support, "load_durations", lambda: long)
    marked = pytest.mark.whole_unit.mark  # as if the module were marked whole_unit
    for item in mine(request):
        monkeypatch.setattr(item, "get_closest_marker", lambda name, d=None: marked)
    assert {parallel_support.units(mine(request))[nodeid] for nodeid in ids} == {group}
