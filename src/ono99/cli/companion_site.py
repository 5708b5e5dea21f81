"""``ono99 companion-site DIR``: the table companion as a static site (docs/companion.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ono99.cli.base import app, fail
from ono99.i18n import _


@app.command(
    "companion-site",
    help=_(
        "Write the table companion out as a static site: it follows games in the browser, "
        "with no server, from any static host."
    ),
)
def companion_site(
    folder: Annotated[
        Path,
        typer.Argument(
            metavar="FOLDER", help=_("The folder to write: new, empty, or an earlier site.")
        ),
    ],
    pyodide: Annotated[
        str | None,
        typer.Option(
            "--pyodide",
            help=_(
                "Pyodide: a folder holding its files (python scripts/fetch_pyodide.py fills "
                "one), or cdn to load it from its CDN. Default: ONO99_PYODIDE, else that "
                "folder, else cdn."
            ),
        ),
    ] = None,
) -> None:
    """Write the table companion out as a static site."""
    from ono99.web.companion_site import SiteError, pyodide_source, write_site

    try:
        written = write_site(folder, pyodide_source(pyodide))
    except SiteError as e:
        raise fail(_(e.template).format(**e.params)) from None
    size = sum(p.stat().st_size for p in written)
    print(
        _("{count} files ({size} MB) in {folder}: open index.html from a static host").format(
            count=len(written), size=f"{size / 1e6:.1f}", folder=folder
        )
    )
