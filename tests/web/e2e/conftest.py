"""Fixtures of the browser tests: Debian's Chromium driven by Playwright for Python.

Playwright's own browser download is not used: ``ONO99_CHROMIUM`` (default
``/usr/bin/chromium``) is launched headless. Without Chromium or the ``playwright``
package the tests skip locally, and fail when ``CI`` is set (CI must run them).
Screenshots go to ``tests/web/e2e/artifacts/`` (git-ignored), to be looked at.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ARTIFACTS = Path(__file__).parent / "artifacts"
CHROMIUM = os.environ.get("ONO99_CHROMIUM", "/usr/bin/chromium")


def _unavailable(reason: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"browser tests cannot run in CI: {reason}")
    pytest.skip(reason)


#: how long a page waits for the state a test needs (ms): Playwright's 30 s default was
#: exceeded on a loaded 2-core machine (a service worker taking control, seen once); the
#: tests wait for states, never for a time, so a longer bound only matters when it fails
WAIT_MS = 90_000


def _patient(browser: Any) -> None:
    """Every context and page the tests open waits up to :data:`WAIT_MS`."""
    new_context, new_page = browser.new_context, browser.new_page

    def context(*args: Any, **kwargs: Any) -> Any:
        ctx = new_context(*args, **kwargs)
        ctx.set_default_timeout(WAIT_MS)
        return ctx

    def page(*args: Any, **kwargs: Any) -> Any:
        p = new_page(*args, **kwargs)
        p.set_default_timeout(WAIT_MS)
        return p

    browser.new_context, browser.new_page = context, page


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    """A headless Chromium, one per test module: Playwright's sync API keeps an event loop
    running in the thread while it is open, and any asyncio test run after it in the same
    process (the terminal game's, under xdist's work stealing) failed with "Runner.run()
    cannot be called from a running event loop"."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("playwright is not installed: pip install -e '.[test]'")
    if not (Path(CHROMIUM).is_file() or shutil.which(CHROMIUM)):
        _unavailable(f"no Chromium at {CHROMIUM} (apt-get install chromium, or set ONO99_CHROMIUM)")
    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=["--no-sandbox", "--disable-gpu"]
        )
        _patient(browser)
        yield browser
        browser.close()


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


@pytest.fixture(scope="module")
def pyodide() -> Path:
    """The folder ``scripts/fetch_pyodide.py`` fills (the companion's browser tests that
    follow games in the page); missing, these tests skip locally and fail in CI."""
    from ono99.web.companion_site import default_pyodide_dir, pyodide_missing

    env = os.environ.get("ONO99_PYODIDE")
    folder = Path(env) if env and env not in ("cdn", "off") else default_pyodide_dir()
    if pyodide_missing(folder):
        _unavailable(f"no Pyodide in {folder}: python scripts/fetch_pyodide.py")
    return folder


@pytest.fixture
def py_server(tmp_path: Path, pyodide: Path) -> Iterator[Any]:
    """An ``ono99 serve`` of this test's own whose page follows games with Pyodide."""
    from server_helpers import Server

    srv = Server(f"sqlite:///{tmp_path / 'web.db'}", tmp_path / "server.log", str(pyodide))
    yield srv.start()
    srv.stop()
