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


def _private_imports(root: Path) -> list[str]:
    """``from ono99.x import _name`` and ``module._name`` across modules (gettext's ``_``
    is the one shared underscore name)."""
    import ast

    found = []
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        modules = {"k"}  # `from ono99.fast import core as k` and the like
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("ono99"):
                for alias in node.names:
                    if alias.name.startswith("_") and alias.name != "_":
                        found.append(f"{path.name}:{node.lineno} imports {alias.name}")
                    modules.add(alias.asname or alias.name)
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id in modules
                and node.attr.startswith("_")
                and not node.attr.startswith("__")
            ):
                found.append(f"{path.name}:{node.lineno} uses {node.value.id}.{node.attr}")
    return found


def test_no_module_uses_another_modules_private_names(tmp_path: Path) -> None:
    """What one module shares with another is in its public names (issue 23); the check
    itself finds a planted private import."""
    assert _private_imports(REPO / "src" / "ono99") == []
    (tmp_path / "m.py").write_text("from ono99.game import _rng\n", encoding="utf-8")
    assert _private_imports(tmp_path) == ["m.py:1 imports _rng"]


def _private_method_calls(root: Path) -> list[str]:
    """``obj._method`` where ``_method`` is a private method of a class of another module:
    the module neither defines nor assigns that name itself, nor subclasses the class that
    defines it (a subclass may use what it inherits)."""
    import ast

    trees = {p: ast.parse(p.read_text(encoding="utf-8")) for p in sorted(root.rglob("*.py"))}
    methods: dict[str, set[str]] = {}  # private method -> the classes that define it
    for tree in trees.values():
        for c in (n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)):
            for f in c.body:
                if isinstance(f, ast.FunctionDef | ast.AsyncFunctionDef) and (
                    f.name.startswith("_") and not f.name.startswith("__")
                ):
                    methods.setdefault(f.name, set()).add(c.name)
    found = []
    for path, tree in trees.items():
        own: set[str] = set()
        bases: set[str] = set()
        for n in ast.walk(tree):
            if isinstance(n, ast.ClassDef):
                own.update(
                    f.name for f in n.body if isinstance(f, ast.FunctionDef | ast.AsyncFunctionDef)
                )
                bases.update(b.id for b in n.bases if isinstance(b, ast.Name))
            elif isinstance(n, ast.Attribute) and isinstance(n.ctx, ast.Store):
                own.add(n.attr)
            elif isinstance(n, ast.Constant) and isinstance(n.value, str):
                own.add(n.value)  # __slots__ entries
        for n in ast.walk(tree):
            if (
                isinstance(n, ast.Attribute)
                and n.attr in methods
                and not (isinstance(n.value, ast.Name) and n.value.id in ("self", "cls"))
                and n.attr not in own
                and not methods[n.attr] & bases
            ):
                found.append(f"{path.name}:{n.lineno} calls {ast.unparse(n)}")
    return found


def test_no_module_calls_another_modules_private_methods(tmp_path: Path) -> None:
    """A class's private methods are its module's own: another module calls the public
    ones (the web hub calls its tables' ``sync``, not ``_sync``); the check itself finds a
    planted call."""
    assert _private_method_calls(REPO / "src" / "ono99") == []
    (tmp_path / "a.py").write_text(
        "class T:\n    def _sync(self):\n        pass\n", encoding="utf-8"
    )
    (tmp_path / "b.py").write_text("def f(t):\n    t._sync()\n", encoding="utf-8")
    assert _private_method_calls(tmp_path) == ["b.py:2 calls t._sync"]


#: the most branches one function may have (radon's cyclomatic complexity; issue 34): past
#: this a function does several jobs and wants splitting
MAX_COMPLEXITY = 25


def _complexity(source: str) -> list[tuple[str, int]]:
    from radon.complexity import cc_visit

    out = []
    for block in cc_visit(source):
        out.append((block.fullname, block.complexity))
        out += [
            (f"{block.fullname}.{c.name}", c.complexity) for c in getattr(block, "closures", [])
        ]
    return out


def test_no_function_is_too_complex() -> None:
    too = [
        f"{path.relative_to(REPO)}: {name} ({cc})"
        for path in sorted((REPO / "src" / "ono99").rglob("*.py"))
        for name, cc in _complexity(path.read_text(encoding="utf-8"))
        if cc > MAX_COMPLEXITY
    ]
    assert not too, "\n".join(too)


def test_the_complexity_check_can_fail() -> None:
    branches = "".join(f"    if x == {i}:\n        return {i}\n" for i in range(MAX_COMPLEXITY))
    [(name, cc)] = _complexity(f"def f(x):\n{branches}    return -1\n")
    assert name == "f" and cc == MAX_COMPLEXITY + 1
