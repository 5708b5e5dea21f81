"""Fixtures of the web tests: real ``ono99 serve`` processes on loopback."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from server_helpers import Server


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One server per test process (xdist worker), on its own SQLite file."""
    folder = tmp_path_factory.mktemp("ono99-serve")
    srv = Server(f"sqlite:///{folder / 'web.db'}", folder / "server.log").start()
    yield srv
    srv.stop()


@pytest.fixture
def fresh_server(tmp_path: Path) -> Iterator[Server]:
    """A server of this test's own (on its own SQLite file), for tests that kill it."""
    srv = Server(f"sqlite:///{tmp_path / 'web.db'}", tmp_path / "server.log").start()
    yield srv
    srv.stop()
