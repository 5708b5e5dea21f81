"""The companion without a server, server side (docs/companion.md "Without a server"): the
Python the page runs in Pyodide (built from the installed package, standard library only),
the endpoint a page sends its game to, the static site and its one-line errors."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from ono99.tracking import Tracker
from ono99.web.app import create_app
from ono99.web.companion_core import Local, game_data
from ono99.web.companion_site import (
    PACKAGE,
    PYODIDE_CDN,
    PYODIDE_FILES,
    SiteError,
    pyodide_source,
    python_archive,
    python_modules,
    site_config,
    write_site,
)

TAPS = ["7", "P2", "R", "10", "-10", "5", "9", "R", "8"]

_RUN_ARCHIVE = """
import json, sys
sys.path.insert(0, sys.argv[1])
from ono99.web.companion_core import Local
import ono99.web.companion_core as core
local = Local()
out = [json.loads(local.create("g", json.dumps({"rules": "mattel2022", "players": ["Ana", "Bo", "Cy"]}), "ta"))]
for tap in json.loads(sys.argv[2]):
    out.append(json.loads(local.change("g", "tap", json.dumps({"tap": tap}), "ta")))
mods = sorted(m for m in sys.modules if m.startswith("ono99"))
print(json.dumps({"answers": out, "file": core.__file__, "modules": mods}))
"""


def test_the_archive_is_the_installed_code_and_needs_only_the_standard_library(
    tmp_path: Path,
) -> None:
    """R-TURN-1, R-P2-6, R-REV-1: the archive holds the installed ono99 modules the page
    imports (found from its imports, whatever the package's layout) and the catalogs; run
    by a Python with nothing but the standard library and that archive, it answers as the
    server's own code does, word for word."""
    files, outside = python_modules()
    assert "ono99.tracking" in files and "ono99.web.companion_core" in files
    assert outside <= set(sys.stdlib_module_names), outside - set(sys.stdlib_module_names)
    assert not any(m.startswith(("ono99.web.app", "ono99.bots", "ono99.fast")) for m in files)
    data = python_archive()
    assert data == python_archive()  # the same bytes for the same code
    names = zipfile.ZipFile(io.BytesIO(data)).namelist()
    assert "ono99/locale/ta/LC_MESSAGES/ono99.mo" in names
    for path in files.values():
        arc = path.relative_to(PACKAGE.parent).as_posix()
        assert zipfile.ZipFile(io.BytesIO(data)).read(arc) == path.read_bytes()
    site = tmp_path / "site"
    zipfile.ZipFile(io.BytesIO(data)).extractall(site)
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    run = subprocess.run(
        [sys.executable, "-I", "-S", "-c", _RUN_ARCHIVE, str(site), json.dumps(TAPS)],
        capture_output=True, text=True, env=env, check=True,
    )  # fmt: skip
    got = json.loads(run.stdout)
    assert got["file"].startswith(str(site))  # -S: no site-packages, only the archive
    assert set(got["modules"]) <= set(files)
    local = Local()
    want = [json.loads(local.create("g", json.dumps({"rules": "mattel2022", "players": ["Ana", "Bo", "Cy"]}), "ta"))]  # fmt: skip
    want += [json.loads(local.change("g", "tap", json.dumps({"tap": t}), "ta")) for t in TAPS]
    assert got["answers"] == want
    assert want[-1]["state"]["total"] == 7 + 10 - 10 + 5 + 9 + 8


def test_the_local_games_answer_as_the_server(tmp_path: Path) -> None:
    """R-99-1, R-P2-6: the browser's games (Local) give the server's state, announcements
    and refusals; a refused tap changes nothing and says why in the page's language."""
    local = Local()
    body = {"rules": "mattel2022", "players": ["Ana", "Bo"], "first": 1}
    first = json.loads(local.create("g1", json.dumps(body), "en"))
    app = create_app(f"sqlite:///{tmp_path / 'c.db'}")
    with TestClient(app) as client:
        r = client.post("/api/companion", json=body)
        gid, v = r.json()["id"], r.json()["version"]
        assert first["state"] == r.json()["state"] and first["announce"] == r.json()["announce"]
        for tap in TAPS:
            mine = json.loads(local.change("g1", "tap", json.dumps({"tap": tap}), "gu"))
            r = client.post(f"/api/companion/{gid}/tap?lang=gu", json={"tap": tap, "version": v})
            v = r.json()["version"]
            assert mine["state"] == r.json()["state"]
            assert (mine["announce"], mine["say"]) == (r.json()["announce"], r.json()["say"])
        refused = json.loads(local.change("g1", "tap", json.dumps({"tap": "99"}), "en"))
        r = client.post(f"/api/companion/{gid}/tap", json={"tap": "99", "version": v})
        assert r.status_code == 400 and refused["error"] == r.json()["error"]
        assert refused["state"] == mine["state"]
        assert json.loads(local.change("g1", "undo", "{}", "en"))["state"]["steps"] == len(TAPS) - 1
        assert "error" in json.loads(local.change("nope", "undo", "{}", "en"))
        assert "error" in json.loads(local.create("g2", json.dumps({"players": "Ana"}), "en"))


def _record(taps: list[str]) -> dict[str, object]:
    t = Tracker("classic1980", ["Ana", "Bo", "Cy"])
    for tap in taps:
        t.tap(tap)
    return game_data(t)


def test_a_game_followed_in_the_browser_is_sent_to_the_server(tmp_path: Path) -> None:
    """R-REC: ``PUT /api/companion/{id}`` stores a game a page followed itself: new (base
    null), or on top of the version it started from; the same change twice counts once; a
    game changed meanwhile on another screen stands (409, with its record); a record that
    does not replay, or a bad base, is refused in one line and changes nothing."""
    app = create_app(f"sqlite:///{tmp_path / 'c.db'}")
    gid = "k83hmtb97RUdeRFmo1GGe1ha"
    with TestClient(app) as client:
        rec = _record(TAPS[:4])
        r = client.put(f"/api/companion/{gid}", json={"record": rec, "base": None, "req": "a" * 12})
        assert r.status_code == 201 and r.json()["version"] == 1 and r.json()["record"] == rec
        assert client.get(f"/api/companion/{gid}/record").json() == {
            k: v for k, v in rec.items() if k != "redo"
        }
        again = client.put(f"/api/companion/{gid}", json={"record": rec, "base": None})
        assert again.status_code == 200 and again.json()["version"] == 1
        rec2 = _record(TAPS)
        r = client.put(f"/api/companion/{gid}", json={"record": rec2, "base": 1, "req": "b" * 12})
        assert r.status_code == 200 and r.json()["version"] == 2
        assert r.json()["state"]["steps"] == len(TAPS)
        # its answer lost, sent again: counted once
        r = client.put(f"/api/companion/{gid}", json={"record": rec2, "base": 1, "req": "b" * 12})
        assert r.status_code == 200 and r.json()["version"] == 2
        # another screen changed the game: the server's game stands
        r = client.put(f"/api/companion/{gid}", json={"record": _record(TAPS[:2]), "base": 1})
        assert r.status_code == 409 and r.json()["record"] == rec2 and r.json()["version"] == 2
        bad = {**rec2, "moves": [*TAPS, "99"]}  # R-99-1: never playable in classic1980
        for body in ({"record": bad, "base": 2}, {"record": rec2, "base": "2"}, {"record": 5},
                     {"record": _record(TAPS[:3])}):  # fmt: skip
            r = client.put(f"/api/companion/{gid}", json=body)
            assert r.status_code in (400, 409) and "\n" not in r.json()["error"], body
        assert client.get(f"/api/companion/{gid}").json()["version"] == 2
        assert client.get(f"/api/companion/{gid}").json()["record"] == rec2
        r = client.put("/api/companion/short", json={"record": rec, "base": None})
        assert r.status_code == 404


def test_the_server_tells_the_page_where_pyodide_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The page learns from companion-site.json where Pyodide and its Python are: the
    server's folder (files served under the release's address), the CDN, or none."""
    folder = tmp_path / "pyodide"
    folder.mkdir()
    for name in PYODIDE_FILES:
        (folder / name).write_bytes(b"x")
    monkeypatch.setenv("ONO99_PYODIDE", str(folder))
    with TestClient(create_app(f"sqlite:///{tmp_path / 'c.db'}")) as client:
        cfg = client.get("/companion-site.json").json()
        assert cfg["server"] is True and cfg["pyodide"].startswith("companion-pyodide/")
        r = client.get(cfg["pyodide"] + "pyodide.mjs")
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/javascript")
        assert client.get(cfg["pyodide"] + "../nope/pyodide.mjs").status_code == 404
        assert client.get(cfg["pyodide"] + "secrets.txt").status_code == 404
        assert client.get("/companion-python.zip").content == python_archive()
        csp = client.get("/companion").headers["content-security-policy"]
        assert "'wasm-unsafe-eval'" in csp and "unsafe-inline" not in csp
    monkeypatch.setenv("ONO99_PYODIDE", "off")
    with TestClient(create_app(f"sqlite:///{tmp_path / 'd.db'}")) as client:
        assert client.get("/companion-site.json").json()["pyodide"] is None
    assert pyodide_source("cdn") == PYODIDE_CDN and pyodide_source("off") is None
    assert site_config(False, PYODIDE_CDN)["pyodide"] == PYODIDE_CDN
    with pytest.raises(SiteError):
        pyodide_source(str(tmp_path))


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ono99", *args], capture_output=True, text=True, timeout=120
    )


def test_the_static_site_and_its_one_line_errors(tmp_path: Path) -> None:
    """``ono99 companion-site DIR``: the page, its scripts, the catalogs, the Python and
    Pyodide in DIR, with no server in its addresses; a DIR that is a file, a folder of
    other things, or a folder without Pyodide is a one-line error (status 2), nothing
    written."""
    folder = tmp_path / "pyodide"
    folder.mkdir()
    for name in PYODIDE_FILES:
        (folder / name).write_bytes(name.encode())
    out = _cli("companion-site", str(tmp_path / "site"), "--pyodide", str(folder))
    assert out.returncode == 0, out.stderr
    site = tmp_path / "site"
    cfg = json.loads((site / "companion-site.json").read_text())
    assert cfg["server"] is False and cfg["i18n"] == "i18n/{lang}.json"
    for rel in ("index.html", "companion-sw.js", "static/js/companion.js", "static/js/local.js",
                "i18n/ta.json", "companion-python.zip", cfg["pyodide"] + "pyodide.asm.wasm"):  # fmt: skip
        assert (site / rel).is_file(), rel
    assert (site / "companion-python.zip").read_bytes() == python_archive()
    assert json.loads((site / "i18n/kn.json").read_text())["messages"]
    html = (site / "index.html").read_text()
    assert 'href="/' not in html and 'src="/' not in html  # relative: any host, any folder
    manifest = json.loads((site / "static/companion.webmanifest").read_text())
    assert manifest["start_url"] == "../index.html"
    again = _cli("companion-site", str(site), "--pyodide", "cdn")  # an earlier site: rewritten
    assert again.returncode == 0, again.stderr
    assert json.loads((site / "companion-site.json").read_text())["pyodide"] == PYODIDE_CDN
    other = tmp_path / "other"
    other.mkdir()
    (other / "notes.txt").write_text("mine")
    afile = tmp_path / "file"
    afile.write_text("x")
    for args in ([str(other), "--pyodide", "cdn"], [str(afile), "--pyodide", "cdn"],
                 [str(tmp_path / "new"), "--pyodide", str(tmp_path)],
                 [str(tmp_path / "new"), "--pyodide", "off"]):  # fmt: skip
        bad = _cli("companion-site", *args)
        assert bad.returncode == 2 and bad.stdout == "", args
        assert len(bad.stderr.strip().splitlines()) == 1 and "Traceback" not in bad.stderr
    assert sorted(p.name for p in other.iterdir()) == ["notes.txt"]
    assert not (tmp_path / "new").exists()
    with pytest.raises(SiteError):
        write_site(afile, PYODIDE_CDN)
