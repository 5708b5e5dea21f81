"""The pages' JavaScript as code: type check (tsc on its JSDoc), lint (ESLint) and unit tests
(``node --test tests/js``), run here so that the README's test line holds them too.

They need Node and the locked dev packages (``npm ci``, which ``.ci/run`` runs): without them
the tests skip locally and fail in CI, like the browser tests.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from ono99.view import VIEW_JSON

ROOT = Path(__file__).resolve().parents[2]


def _npm(script: str) -> subprocess.CompletedProcess[str]:
    npm = shutil.which("npm")
    if npm is None or not (ROOT / "node_modules" / ".bin" / "tsc").exists():
        reason = "Node's dev packages are not installed: run `npm ci` at the repository root"
        if os.environ.get("CI"):
            pytest.fail(f"page code checks cannot run in CI: {reason}")
        pytest.skip(reason)
    return subprocess.run(
        [npm, "run", "--silent", script], cwd=ROOT, capture_output=True, text=True, timeout=600
    )


@pytest.mark.parametrize("script", ["typecheck", "lint", "test"])
def test_the_page_code_passes_its_checks(script: str) -> None:
    """`npm run typecheck|lint|test`: tsc --noEmit over the JSDoc types, ESLint's
    recommended rules, and the node unit tests of the pure modules all pass."""
    done = _npm(script)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-4000:]


def test_the_page_view_type_has_exactly_the_views_keys() -> None:
    """types/page.d.ts's `View` is VIEW_JSON (one declaration of a view as JSON): the
    pages' type check sees every key the server sends, and no other."""
    text = (ROOT / "types" / "page.d.ts").read_text(encoding="utf-8")
    body = re.search(r"interface View \{(.*?)\n\}", text, re.S)
    assert body is not None
    keys = re.findall(r"^\s+(\w+)\??:", body.group(1), re.M)
    assert keys == [k.name for k in VIEW_JSON]


def test_every_module_is_type_checked() -> None:
    """Every module of the pages starts with `// @ts-check`: tsc checks each one's JSDoc
    types (none is left out, the two pages' entry modules included)."""
    static = ROOT / "src" / "ono99" / "web" / "static" / "js"
    modules = sorted(static.glob("*.js"))
    assert len(modules) > 20
    untyped = [
        p.name for p in modules if not p.read_text(encoding="utf-8").startswith("// @ts-check\n")
    ]
    assert untyped == []
