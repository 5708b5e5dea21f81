"""Every rule of the rules text is named by at least one test (RULES.md preamble).

The repo's own ``docs/rules.md`` carries every rule ID, so this runs on every clone; where the
shared normative ``RULES.md`` is checked out beside the repo, the two must hold the same IDs."""

from __future__ import annotations

import ast
import os
import re
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
REPO = TESTS.parent
DOCS_RULES = REPO / "docs" / "rules.md"
RULES_MD = REPO / ".." / "shared" / "RULES.md"
RULE_ID = re.compile(r"R-[A-Z0-9]+-[0-9]+")


def _test_docstrings() -> dict[str, set[str]]:
    """Rule IDs named in the docstring of each test function, by test name."""
    found: dict[str, set[str]] = {}
    for path in sorted(TESTS.rglob("test_*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith(
                "test"
            ):
                doc = ast.get_docstring(node) or ""
                found[f"{path.name}::{node.name}"] = set(RULE_ID.findall(doc))
    return found


def _ids(path: Path) -> set[str]:
    return set(RULE_ID.findall(path.read_text(encoding="utf-8")))


def test_every_rule_is_named_by_a_test() -> None:
    """Each rule ID of docs/rules.md appears in the docstring of at least one test, and
    every ID a test names is a rule."""
    rules = _ids(DOCS_RULES)
    assert len(rules) >= 30  # the rules text really was read
    named = set().union(*_test_docstrings().values())
    missing = sorted(rules - named)
    assert not missing, f"rules named by no test: {', '.join(missing)}"
    unknown = sorted(named - rules)
    assert not unknown, f"tests name rules docs/rules.md does not have: {', '.join(unknown)}"


def test_docs_rules_has_every_id_of_the_normative_text() -> None:
    """docs/rules.md tells every rule of the shared RULES.md, and no other (checked where
    the shared text is beside the repo, as in CI and on the developers' machines)."""
    if not RULES_MD.is_file():
        if os.environ.get("CI"):
            pytest.fail(f"RULES.md not found at {RULES_MD}")
        pytest.skip(f"RULES.md not found at {RULES_MD} (the shared rules text is not checked out)")
    assert _ids(DOCS_RULES) == _ids(RULES_MD)
