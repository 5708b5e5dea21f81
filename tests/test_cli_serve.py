"""``ono99 serve`` refuses what it cannot do with one line and exit status 2, before it
touches the database (issue 26): a busy port, an address it cannot listen on."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("uvicorn", reason="ono99 serve needs the web extra: pip install -e '.[test]'")


def serve(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ono99", "serve", *args],
        capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL,
    )  # fmt: skip


def test_a_busy_port_is_one_line_exit_2(tmp_path: Path) -> None:
    db = tmp_path / "tables.db"
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        p = serve("--host", "127.0.0.1", "--port", str(port), "--db", f"sqlite:///{db}")
    assert p.returncode == 2, (p.stdout, p.stderr)
    assert p.stderr.splitlines() == [
        f"ono99: error: port {port} on 127.0.0.1 is in use (another server?); choose another "
        "with --port"
    ]
    assert p.stdout == ""
    assert not db.exists()  # the database was not opened, nor created


def test_a_busy_port_in_tamil(tmp_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        p = serve("--lang", "ta", "--port", str(port), "--db", f"sqlite:///{tmp_path / 'x.db'}")
    assert p.returncode == 2 and len(p.stderr.splitlines()) == 1, p.stderr
    assert str(port) in p.stderr and "--port" in p.stderr and "is in use" not in p.stderr


@pytest.mark.parametrize("host", ["no such host!", "203.0.113.7"])
def test_an_address_it_cannot_listen_on(tmp_path: Path, host: str) -> None:
    """A name that does not resolve; an address this machine does not have (TEST-NET-3)."""
    db = tmp_path / "tables.db"
    p = serve("--host", host, "--port", "0", "--db", f"sqlite:///{db}")
    assert p.returncode == 2, (p.stdout, p.stderr)
    lines = p.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(
        f"ono99: error: cannot listen on {host} port 0: "
    )
    assert "Traceback" not in p.stderr and "Errno" not in p.stderr and p.stdout == ""
    assert not db.exists()
