"""The import contract (.importlinter, issue 23): the layers point one way — the engine
at the bottom, then the bots, the arena, the front ends — the front ends do not import
each other, and the engine imports no web, terminal, database or network library."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def test_the_import_contract_is_kept() -> None:
    exe = shutil.which("lint-imports") or str(Path(sys.executable).parent / "lint-imports")
    done = subprocess.run(
        [exe, "--config", str(REPO / ".importlinter"), "--no-cache"],
        cwd=REPO, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert "0 broken" in done.stdout


def test_the_contract_catches_an_upward_import(tmp_path: Path) -> None:
    """The check can fail: a contract that forbids what the engine really imports breaks."""
    config = tmp_path / "contract.ini"
    config.write_text(
        "[importlinter]\nroot_package = ono99\n\n"
        "[importlinter:contract:x]\nname = x\ntype = forbidden\n"
        "source_modules =\n    ono99.game\nforbidden_modules =\n    ono99.rules\n",
        encoding="utf-8",
    )
    exe = shutil.which("lint-imports") or str(Path(sys.executable).parent / "lint-imports")
    done = subprocess.run([exe, "--config", str(config), "--no-cache"], cwd=REPO,
                          capture_output=True, text=True, timeout=300)  # fmt: skip
    assert done.returncode != 0 and "BROKEN" in done.stdout
