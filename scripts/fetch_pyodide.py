#!/usr/bin/env python3
"""Fetch Pyodide, which the table companion runs in the browser, from the npm registry.

    python scripts/fetch_pyodide.py [FOLDER]

Puts the files the page loads (``ono99.web.companion_site.PYODIDE_FILES`` of the npm
package ``pyodide`` at ``PYODIDE_VERSION``) into FOLDER, by default the folder
``ono99 serve`` and ``ono99 companion-site`` look in (the user's data folder; another one
is named by ``ONO99_PYODIDE``). Nothing is done when they are there already. Needs npm
(``npm pack`` checks the package against the registry's checksum); without npm the page
loads Pyodide from its CDN instead (docs/companion.md).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))
from ono99.web.companion_site import (
    PYODIDE_FILES,
    PYODIDE_VERSION,
    default_pyodide_dir,
    pyodide_missing,
)


def fetch(folder: Path) -> None:
    if not pyodide_missing(folder):
        print(f"Pyodide {PYODIDE_VERSION} is in {folder}")
        return
    npm = shutil.which("npm")
    if npm is None:
        raise SystemExit("fetch_pyodide: npm is needed (or set ONO99_PYODIDE=cdn)")
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(
            [npm, "pack", f"pyodide@{PYODIDE_VERSION}", "--pack-destination", tmp, "--silent"],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        (tarball,) = Path(tmp).glob("pyodide-*.tgz")
        folder.mkdir(parents=True, exist_ok=True)
        with tarfile.open(tarball) as tar:
            for name in PYODIDE_FILES:
                member = tar.extractfile(f"package/{name}")
                if member is None:
                    raise SystemExit(f"fetch_pyodide: the package has no {name}")
                part = folder / f"{name}.part"
                part.write_bytes(member.read())
                part.replace(folder / name)  # a file is there whole or not at all
    print(f"Pyodide {PYODIDE_VERSION} fetched into {folder}")


if __name__ == "__main__":
    fetch(Path(sys.argv[1]) if len(sys.argv) > 1 else default_pyodide_dir())
