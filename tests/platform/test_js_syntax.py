"""Every JavaScript module of the page parses (a duplicate import or a stray conflict
marker stops the whole page, and only a browser test would notice)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

import tabletop

MODULES = sorted(Path(tabletop.__file__).parent.rglob("*.js"))


@pytest.mark.skipif(shutil.which("node") is None, reason="needs Node.js")
@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.name)
def test_the_module_parses(path: Path) -> None:
    checked = subprocess.run(
        ["node", "--input-type=module", "--check"],
        input=path.read_bytes(),
        capture_output=True,
        timeout=30,
    )
    assert checked.returncode == 0, checked.stderr.decode(errors="replace")


def test_the_page_has_modules() -> None:
    assert len(MODULES) > 10
