"""The base install (``pip install tabletop``, no extras; what ``make serve`` installs)
leaves out the research, PostgreSQL, plotting and test packages, imports, serves the
page and plays against a bot, and says which extra a feature needs where one does.
On a machine without a C compiler it installs too, without the bots' search kernels:
the planner levels play as greedy, and the server, the terminal and the benchmark say
so.

It installs the package from a copy of this checkout into a new venv, as a user
would (pip fetches the build and runtime dependencies from the configured index).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

from server_support import free_port

ROOT = Path(__file__).resolve().parents[2]
#: in parallel runs, one worker for the module: each part would install the package anew
pytestmark = pytest.mark.whole_unit

#: what only an extra brings (distribution names, normalised): none in the base install
EXTRA_ONLY = {
    # rl
    "numpy",
    "gymnasium",
    "pettingzoo",
    "open-spiel",
    "torch",
    "stable-baselines3",
    "sb3-contrib",
    "dm-tree",
    # pg, plot
    "psycopg",
    "psycopg-binary",
    "matplotlib",
    # test
    "playwright",
    "pytest",
    "hypothesis",
    "mypy",
    "ruff",
    "httpx",
    "aiosmtpd",
}

#: the only modules that need an extra to import (each says so, or is reached only
#: through one that does): the research package and the games' research encodings,
#: the NMBR 9 learned value's training, and the PostgreSQL store
NEEDS_EXTRA = {
    "tabletop.research",
    "tabletop.games.novaluna.encoding",
    "tabletop.games.novaluna.layout",
    "tabletop.games.novaluna.chance",
    "tabletop.games.novaluna.fastchance",
    "tabletop.games.nmbr9.encoding",
    "tabletop.games.nmbr9.window",
    "tabletop.games.nmbr9.information",
    "tabletop.games.nmbr9.observation",
    "tabletop.games.nmbr9.fastchance",
    "tabletop.games.nmbr9.learning.train",  # training the learned value (numpy)
    "tabletop.games.nmbr9.learning.__main__",
    "tabletop.server.pgstore",
    "tabletop.server.dbcopy",
}

#: prints {module: the missing module's name} for every tabletop module that fails
IMPORT_ALL = """
import importlib, json, pkgutil, tabletop
failed = {}
for info in pkgutil.walk_packages(tabletop.__path__, "tabletop."):
    try:
        importlib.import_module(info.name)
    except ModuleNotFoundError as err:
        failed[info.name] = [err.name, str(err)]
print(json.dumps(failed))
"""


def normalised(name: str) -> str:
    return name.lower().replace("_", "-").replace(".", "-")


@pytest.fixture(scope="module")
def venv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A venv with the base install of a copy of this checkout (its own builds, caches
    and compiled kernels left behind, so it builds as a fresh clone would)."""
    done, target = install(tmp_path_factory.mktemp("lean"), clean_env())
    assert done.returncode == 0, done.stdout + done.stderr
    return target


def install(root: Path, env: dict[str, str]) -> tuple[subprocess.CompletedProcess[str], Path]:
    """``pip install`` of a copy of this checkout into a new venv under ``root``, with
    ``env``: pip's answer and the venv."""
    source = root / "source"
    source.mkdir()
    for name in ("pyproject.toml", "setup.py", "README.md"):
        shutil.copy2(ROOT / name, source / name)
    shutil.copytree(
        ROOT / "src",
        source / "src",
        ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.egg-info"),
    )
    target = root / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(target)], check=True, env=clean_env())
    pip = [str(target / "bin" / "python"), "-m", "pip", "install", "--quiet"]
    done = subprocess.run([*pip, str(source)], capture_output=True, text=True, env=env)
    return done, target


def clean_env() -> dict[str, str]:
    """This environment without what would make the venv's Python import this
    checkout's sources (or this venv's packages) instead of its own install."""
    return {
        key: value
        for key, value in os.environ.items()
        if key not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "PYTHONSTARTUP")
    }


def run(venv: Path, *command: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    program = str(venv / "bin" / command[0])
    return subprocess.run(
        [program, *command[1:]],
        input=stdin,
        capture_output=True,
        text=True,
        env=clean_env(),
        timeout=120,
    )


def test_the_base_install_has_no_extra(venv: Path) -> None:
    listed = run(venv, "python", "-m", "pip", "list", "--format=json")
    assert listed.returncode == 0, listed.stderr
    installed = {normalised(row["name"]) for row in json.loads(listed.stdout)}
    assert "tabletop" in installed
    assert installed & EXTRA_ONLY == set()


def test_every_module_but_the_extras_ones_imports(venv: Path) -> None:
    done = run(venv, "python", "-c", IMPORT_ALL)
    assert done.returncode == 0, done.stderr
    failed = json.loads(done.stdout)
    assert set(failed) <= NEEDS_EXTRA, failed
    for _module, (missing, _message) in failed.items():
        assert normalised(missing.split(".")[0]) in {"numpy", "gymnasium", "psycopg"}
    # the research package names the extra to install
    assert "pip install 'tabletop[rl]'" in failed["tabletop.research"][1]


def test_a_feature_of_an_extra_says_which(venv: Path, tmp_path: Path) -> None:
    plot = run(
        venv, "novaluna", "tournament", "--bots", "random,greedy", "--plot", f"{tmp_path}/t.png"
    )
    assert plot.returncode == 2
    assert "pip install 'tabletop[plot]'" in plot.stderr
    assert "Traceback" not in plot.stderr
    pg = run(venv, "novaluna", "db", "migrate", "postgresql://nobody@127.0.0.1:1/none")
    assert pg.returncode == 1
    assert "pip install 'tabletop[pg]'" in pg.stderr
    assert "Traceback" not in pg.stderr


#: A game's module hosted outside the package, as its author type-checks it
OUTSIDE_GAME = """
from tabletop.core.errors import IllegalActionError
from tabletop.core.game import GameType, get_game


def refuse(seat: int) -> IllegalActionError:
    return IllegalActionError("seat {seat} may not act now", seat=seat)


def title(name: str) -> str:
    game: GameType = get_game(name)
    return game.title
"""


def test_an_outside_game_type_checks_against_the_install(venv: Path, tmp_path: Path) -> None:
    """The install carries ``py.typed`` (PEP 561): mypy reads its types, and an outside
    game that misuses them is told so, not that the package is untyped."""
    pytest.importorskip("mypy")
    (tmp_path / "outside.py").write_text(OUTSIDE_GAME)
    (tmp_path / "wrong.py").write_text(OUTSIDE_GAME.replace("-> str", "-> int"))
    mypy = [sys.executable, "-m", "mypy", "--strict", "--no-incremental"]
    mypy += ["--python-executable", str(venv / "bin" / "python")]
    checked = subprocess.run(
        [*mypy, "outside.py"], cwd=tmp_path, capture_output=True, text=True, env=clean_env()
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    wrong = subprocess.run(
        [*mypy, "wrong.py"], cwd=tmp_path, capture_output=True, text=True, env=clean_env()
    )
    assert wrong.returncode == 1
    assert 'Incompatible return value type (got "str", expected "int")' in wrong.stdout
    assert "import-untyped" not in wrong.stdout


@pytest.fixture
def server(venv: Path, tmp_path: Path) -> Iterator[str]:
    """``novaluna serve`` of the base install on a free port (bots without pauses);
    its URL."""
    with serving(venv, tmp_path) as url:
        yield url


@contextmanager
def serving(venv: Path, tmp_path: Path) -> Iterator[str]:
    """``novaluna serve`` of ``venv`` on a free port (bots without pauses), its output in
    ``tmp_path/serve.log``; its URL."""
    port = free_port()
    command = [str(venv / "bin" / "novaluna"), "serve", "--port", str(port), "--bot-pause", "0"]
    command += ["--db", str(tmp_path / "games.sqlite3")]
    log = tmp_path / "serve.log"
    with log.open("wb") as out:
        # a session of its own, so that stopping it stops its bot workers too
        proc = subprocess.Popen(
            command, stdout=out, stderr=subprocess.STDOUT, env=clean_env(), start_new_session=True
        )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            assert proc.poll() is None, f"the server exited:\n{log.read_text()}"
            assert time.monotonic() < deadline, f"the server did not start:\n{log.read_text()}"
            try:
                httpx.get(f"{url}/api/types", timeout=1)
                break
            except httpx.HTTPError:
                time.sleep(0.2)
        yield url
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert "Traceback" not in log.read_text()


def test_the_base_install_serves_and_plays(server: str) -> None:
    page = httpx.get(f"{server}/", timeout=10)
    assert page.status_code == 200
    assert "<html" in page.text.lower()
    # a game of each kind played out by bots: their worker processes run here too
    for game in ("nova-luna", "nmbr9"):
        state = play_out(server, game, ["greedy", "random"])
        assert state["game"]["type"] == game


def play_out(server: str, game: str, bots: list[str]) -> dict:
    """A game of ``bots`` created on ``server`` and played to its end; its last state."""
    seats = [{"kind": "bot", "bot": bot} for bot in bots]
    created = httpx.post(f"{server}/api/games", json={"type": game, "seats": seats})
    assert created.status_code == 201, created.text
    assert httpx.get(f"{server}{created.json()['url']}", timeout=10).status_code == 200
    deadline = time.monotonic() + 60
    while not (state := httpx.get(f"{server}/api/games/{created.json()['id']}").json())["over"]:
        assert time.monotonic() < deadline, f"the {game} game did not finish: {state}"
        time.sleep(0.2)
    return state


# -- without a C compiler ------------------------------------------------------------------

#: the compiled extensions (setup.py): all optional
EXTENSIONS = (
    "tabletop.games.novaluna.bots._solokernel",
    "tabletop.games.novaluna.bots._mctskernel",
    "tabletop.games.nmbr9.bots._nmbr9kernel",
    "tabletop.games.nmbr9._nmbr9fast",
    "tabletop.research._tensorfast",
    "tabletop.games.novaluna._novalunafast",
)
#: prints, per extension in ``names``, whether its compiled file is installed (a file
#: check: importing ``tabletop.research`` to find one needs the extra ``rl``)
BUILT = """
import importlib.machinery, json, pathlib, tabletop
root = pathlib.Path(tabletop.__file__).parent
suffixes = importlib.machinery.EXTENSION_SUFFIXES
def built(name):
    stem = root / name.removeprefix("tabletop.").replace(".", "/")
    return any(stem.with_name(stem.name + s).exists() for s in suffixes)
print(json.dumps([built(n) for n in {names!r}]))
"""
#: the planner levels' fallback, said where play starts
MISSING = "compiled search kernel missing (no C compiler at install)"


@pytest.fixture(scope="module")
def bare(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A venv with the base install made where no C compiler works: ``CC`` and the
    linker are ``false``, and so is every compiler on ``PATH``."""
    root = tmp_path_factory.mktemp("bare")
    broken = root / "no-compiler"
    broken.mkdir()
    for name in ("cc", "gcc", "c99", "clang", "x86_64-linux-gnu-gcc", "aarch64-linux-gnu-gcc"):
        (broken / name).write_text("#!/bin/sh\necho 'no C compiler here' >&2\nexit 1\n")
        (broken / name).chmod(0o755)
    env = clean_env() | {"CC": "false", "CXX": "false", "LDSHARED": "false"}
    env["PATH"] = f"{broken}{os.pathsep}{env.get('PATH', '')}"
    done, target = install(root, env)
    assert done.returncode == 0, done.stdout + done.stderr
    return target


def test_without_a_compiler_it_installs_without_the_kernels_and_imports(bare: Path) -> None:
    found = run(bare, "python", "-c", BUILT.format(names=EXTENSIONS))
    assert found.returncode == 0, found.stderr
    assert json.loads(found.stdout) == [False] * len(EXTENSIONS)  # no compiler, truly
    done = run(bare, "python", "-c", IMPORT_ALL)
    assert done.returncode == 0, done.stderr
    assert set(json.loads(done.stdout)) <= NEEDS_EXTRA  # the same as with the kernels


def test_without_a_compiler_the_bots_play_and_it_is_said(bare: Path, tmp_path: Path) -> None:
    records = tmp_path / "games.jsonl"
    played = run(
        bare, "nmbr9", "selfplay", "--games", "1", "--bots", "planner:strong,greedy",
        "--out", str(records),
    )  # fmt: skip
    assert played.returncode == 0, played.stderr
    assert MISSING in played.stderr and "the planner bots play as greedy" in played.stderr
    assert run(bare, "nmbr9", "replay", str(records)).returncode == 0  # a finished game
    solo = run(bare, "novaluna", "selfplay", "--games", "1", "--players", "1", "--bots", "solo")
    assert solo.returncode == 0, solo.stderr
    assert "the solo planner bots play as greedy" in solo.stderr
    # the analysis cannot: one line, exit status 2
    refused = run(bare, "nmbr9", "analyse", str(records))
    assert refused.returncode == 2
    assert refused.stderr.startswith("nmbr9 analyse: the analysis needs the compiled search")
    assert len(refused.stderr.splitlines()) == 1
    # the terminal says so as play starts; the benchmark above its figures
    save = ("--save", str(tmp_path / "played.json"))
    terminal = run(
        bare, "nmbr9", "play", "--bots", "planner", "--players", "2", *save, stdin="quit\n"
    )
    assert terminal.returncode == 0, terminal.stderr
    assert MISSING in " ".join(terminal.stdout.split())
    bench = run(bare, "novaluna", "bench", "--seconds", "0.01", "--runs", "1")
    assert bench.returncode == 0, bench.stderr
    assert MISSING in bench.stdout.splitlines()[0]
    for done in (played, solo, refused, terminal, bench):
        assert "Traceback" not in done.stdout + done.stderr


def test_without_a_compiler_it_serves_plays_and_refuses_analysis_in_words(
    bare: Path, tmp_path: Path
) -> None:
    with serving(bare, tmp_path) as url:
        state = play_out(url, "nmbr9", ["planner:normal", "planner:strong"])
        answer = httpx.post(f"{url}/api/games/{state['game']['id']}/analysis", timeout=10)
        assert answer.status_code == 503
        body = answer.json()
        assert body["error"].startswith("the analysis needs the compiled search kernel")
        assert body["key"] == body["error"]  # a msgid: the page shows it in its language
        types = httpx.get(f"{url}/api/types", timeout=10)
        assert types.status_code == 200
    log = (tmp_path / "serve.log").read_text()
    assert "NMBR 9: " + MISSING in log and "Nova Luna: " + MISSING in log
