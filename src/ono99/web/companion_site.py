"""The companion without a server: the Python the page runs, Pyodide, and the static site.

The page follows a game in the browser with the project's own Python
(:mod:`ono99.web.companion_core` and the engine under it) run by Pyodide. This module
builds what that takes, for ``ono99 serve`` and for ``ono99 companion-site DIR``:

- :func:`python_archive`: a zip of the installed ``ono99`` modules the page imports, found
  by following the imports from :data:`ENTRY` (so it stays right whatever the package's
  layout), and the compiled catalogs; always the same code as the server's.
- :func:`pyodide_source`: where Pyodide's files are. ``ONO99_PYODIDE`` names a folder
  holding them (``scripts/fetch_pyodide.py`` fetches them from npm), ``cdn`` the official
  CDN, ``off`` no engine in the page; unset, :func:`default_pyodide_dir` when it holds
  them, else the CDN.
- :func:`write_site`: the companion as a static site (no server, no websocket).

No web framework is imported here: the export works without the ``web`` extra.
"""

from __future__ import annotations

import ast
import hashlib
import io
import json
import os
import shutil
import zipfile
from functools import cache
from pathlib import Path
from typing import Any

import ono99
from ono99.i18n import LANGUAGES, LOCALE_DIR, N_, os_reason
from ono99.web.announce import catalog_json

__all__ = [
    "ENTRY", "PYODIDE_VERSION", "PYODIDE_CDN", "PYODIDE_FILES", "PYODIDE_ENV", "SiteError",
    "python_archive", "python_modules", "default_pyodide_dir", "pyodide_source",
    "pyodide_missing", "site_config", "write_site", "STATIC", "PACKAGE",
]  # fmt: skip

#: the module the page imports (its imports bring the rest)
ENTRY = "ono99.web.companion_core"
#: the Pyodide release the page runs (npm package ``pyodide``; Python 3.14)
PYODIDE_VERSION = "314.0.8"
PYODIDE_CDN = f"https://cdn.jsdelivr.net/pyodide/v{PYODIDE_VERSION}/full/"
#: the files of Pyodide's npm package the page loads (no extra Python package is needed)
PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
PYODIDE_ENV = "ONO99_PYODIDE"
STATIC = Path(__file__).parent / "static"
PACKAGE = Path(ono99.__file__).parent
#: the page's files besides its JavaScript modules (all of static/js/ the page imports)
_SHELL = ("style.css", "cards.css", "companion.css", "companion.webmanifest", "companion-icon.svg")
#: a folder written by write_site holds this file (so that it may be written again)
_MARK = "companion-site.json"


class SiteError(Exception):
    """A static site that cannot be written (a one-line message to translate)."""

    def __init__(self, template: str, **params: Any) -> None:
        super().__init__(template)
        self.template = template
        self.params = params


# ---------------------------------------------------------------- the Python the page runs


def _module_path(name: str) -> tuple[Path, bool] | None:
    """The file of module ``name`` of the ono99 package, and whether it is a package."""
    parts = name.split(".")[1:]
    base = PACKAGE.joinpath(*parts)
    if (base / "__init__.py").is_file():
        return base / "__init__.py", True
    if base.with_suffix(".py").is_file():
        return base.with_suffix(".py"), False
    return None


def _type_checking(node: ast.stmt) -> bool:
    if not isinstance(node, ast.If):
        return False
    t = node.test
    return (isinstance(t, ast.Name) and t.id == "TYPE_CHECKING") or (
        isinstance(t, ast.Attribute) and t.attr == "TYPE_CHECKING"
    )


def _imports(tree: ast.Module, name: str, is_pkg: bool) -> set[str]:
    """Every module ``tree`` imports at run time (``if TYPE_CHECKING:`` blocks left out);
    ``from a import b`` counts ``a.b`` too, in case ``b`` is a module."""
    found: set[str] = set()
    here = name if is_pkg else name.rpartition(".")[0]
    todo: list[ast.AST] = list(tree.body)
    while todo:
        node = todo.pop()
        if isinstance(node, ast.stmt) and _type_checking(node):
            todo.extend(node.orelse)  # type: ignore[attr-defined]
            continue
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parent = here.split(".")
                parent = parent[: len(parent) - node.level + 1]
                mod = ".".join([*parent, *([node.module] if node.module else [])])
            else:
                mod = node.module or ""
            found.add(mod)
            found.update(f"{mod}.{a.name}" for a in node.names if a.name != "*")
        todo.extend(ast.iter_child_nodes(node))
    return found


@cache
def python_modules(entry: str = ENTRY) -> tuple[dict[str, Path], frozenset[str]]:
    """The ono99 modules ``entry`` needs (name -> file, parent packages included) and
    the top-level names of the other modules they import."""
    files: dict[str, Path] = {}
    outside: set[str] = set()
    todo = [entry]
    while todo:
        name = todo.pop()
        if name in files:
            continue
        if name.split(".")[0] != "ono99":
            outside.add(name.split(".")[0])
            continue
        found = _module_path(name)
        if found is None:
            continue  # ``from ono99.x import Name``: a name, not a module
        path, is_pkg = found
        files[name] = path
        parent = name.rpartition(".")[0]
        if parent:
            todo.append(parent)
        todo.extend(_imports(ast.parse(path.read_bytes()), name, is_pkg))
    outside.discard("__future__")
    return files, frozenset(outside)


@cache
def python_archive() -> bytes:
    """The zip the page unpacks into Pyodide's file system: ``ono99/...`` as installed,
    with the catalogs. The same bytes for the same code (fixed dates, sorted)."""
    files, _ = python_modules()
    entries = {str(p.relative_to(PACKAGE.parent).as_posix()): p for p in files.values()}
    for mo in sorted(LOCALE_DIR.glob("*/LC_MESSAGES/*.mo")):
        entries[str(mo.relative_to(PACKAGE.parent).as_posix())] = mo
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for arc in sorted(entries):
            info = zipfile.ZipInfo(arc, date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            z.writestr(info, entries[arc].read_bytes())
    return out.getvalue()


# ---------------------------------------------------------------- Pyodide


def default_pyodide_dir() -> Path:
    """Where ``scripts/fetch_pyodide.py`` puts Pyodide: the user's data folder."""
    try:
        import platformdirs

        folder = Path(platformdirs.user_data_dir("ono99", appauthor=False))
    except ImportError:  # pragma: no cover
        folder = Path.home() / ".local" / "share" / "ono99"
    return folder / "pyodide" / PYODIDE_VERSION


def pyodide_missing(folder: Path) -> list[str]:
    """The files of :data:`PYODIDE_FILES` that ``folder`` lacks."""
    return [f for f in PYODIDE_FILES if not (folder / f).is_file()]


def pyodide_source(value: str | None = None) -> Path | str | None:
    """Where the page gets Pyodide: a folder, the CDN's URL, or None (no engine in the
    page: it follows games on the server only). ``value`` (else ``ONO99_PYODIDE``):
    a folder, ``cdn`` or ``off``; a folder without Pyodide's files raises SiteError."""
    if value is None:
        value = os.environ.get(PYODIDE_ENV) or None
    if value is None:
        folder = default_pyodide_dir()
        return PYODIDE_CDN if pyodide_missing(folder) else folder
    if value == "off":
        return None
    if value == "cdn":
        return PYODIDE_CDN
    folder = Path(value).expanduser()
    missing = pyodide_missing(folder)
    if missing:
        raise SiteError(
            N_("no Pyodide in {folder} (it lacks {file}): run python scripts/fetch_pyodide.py"),
            folder=str(folder),
            file=missing[0],
        )
    return folder


def site_config(server: bool, source: Path | str | None) -> dict[str, Any]:
    """``companion-site.json``: what the page and its service worker load, as addresses
    relative to the page (which sits beside the service worker)."""
    pyodide: str | None
    if source is None:
        pyodide = None
    elif isinstance(source, Path):
        pyodide = f"companion-pyodide/{PYODIDE_VERSION}/"
    else:
        pyodide = source
    return {
        "server": server,
        "page": "companion" if server else "index.html",
        "pyodide": pyodide,
        "pyodide_version": PYODIDE_VERSION,
        "pyodide_files": list(PYODIDE_FILES),
        "python": "companion-python.zip",
        "python_hash": hashlib.sha256(python_archive()).hexdigest()[:16],
        "i18n": "api/i18n/{lang}" if server else "i18n/{lang}.json",
        "languages": list(LANGUAGES),
        "modules": sorted(p.name for p in (STATIC / "js").glob("*.js")),
    }


# ---------------------------------------------------------------- the static site


def _check_dir(folder: Path) -> None:
    if folder.exists() and not folder.is_dir():
        raise SiteError(N_("{folder} is not a folder"), folder=str(folder))
    if folder.is_dir() and any(folder.iterdir()) and not (folder / _MARK).is_file():
        raise SiteError(
            N_("{folder} is not empty (give a new or empty folder, or an earlier site)"),
            folder=str(folder),
        )


def write_site(folder: Path, source: Path | str | None) -> list[Path]:
    """Write the companion into ``folder`` as a static site: open ``index.html`` from any
    static host; the games are followed in the browser (Pyodide from ``source``: a folder,
    copied in, or a URL the page loads it from). Answers the files written."""
    if source is None:
        raise SiteError(N_("a static site needs Pyodide: give a folder or cdn"))
    _check_dir(folder)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for old in ("static", "i18n", "companion-pyodide"):
            shutil.rmtree(folder / old, ignore_errors=True)
        return _write(folder, source)
    except OSError as e:
        raise SiteError(
            N_("cannot write {folder}: {reason}"), folder=str(folder), reason=os_reason(e)
        ) from None


def _write(folder: Path, source: Path | str) -> list[Path]:
    written: list[Path] = []

    def put(rel: str, data: bytes) -> None:
        path = folder / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        written.append(path)

    html = (STATIC / "companion.html").read_text(encoding="utf-8")
    # the page's link home: the site's own start (on the server it is /companion)
    put("index.html", html.replace('href="companion"', 'href="./"').encode())
    for name in _SHELL:
        data = (STATIC / name).read_bytes()
        if name == "companion.webmanifest":
            manifest = json.loads(data)
            manifest.update(start_url="../index.html", scope="../")
            data = json.dumps(manifest, indent=2, ensure_ascii=False).encode()
        put(f"static/{name}", data)
    for js in sorted((STATIC / "js").glob("*.js")):
        if js.name == "companion-sw.js":
            put("companion-sw.js", js.read_bytes())  # beside the page: its scope is the site
        else:
            put(f"static/js/{js.name}", js.read_bytes())
    for lang in LANGUAGES:
        put(f"i18n/{lang}.json", json.dumps(catalog_json(lang), ensure_ascii=False).encode())
    put("companion-python.zip", python_archive())
    if isinstance(source, Path):
        for name in PYODIDE_FILES:
            put(f"companion-pyodide/{PYODIDE_VERSION}/{name}", (source / name).read_bytes())
    config = site_config(False, source)
    put(_MARK, json.dumps(config, indent=2).encode())
    return written
