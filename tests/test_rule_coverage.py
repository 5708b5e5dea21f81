"""Every rule of RULES.md is named by at least one test (RULES.md preamble)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
REPO = TESTS.parent
RULES_MD = REPO / ".." / "shared" / "RULES.md"
RULE_ID = re.compile(r"R-[A-Z0-9]+-[0-9]+")


def _test_docstrings() -> dict[str, set[str]]:
    """Rule IDs named in the docstring of each test function, by test name."""
    found: dict[str, set[str]] = {}
    for path in sorted(TESTS.glob("test_*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith(
                "test"
            ):
                doc = ast.get_docstring(node) or ""
                found[f"{path.name}::{node.name}"] = set(RULE_ID.findall(doc))
    return found


def test_every_rule_is_named_by_a_test() -> None:
    """Each rule ID of RULES.md appears in the docstring of at least one test."""
    if not RULES_MD.is_file():
        pytest.skip(f"RULES.md not found at {RULES_MD} (the shared rules text is not checked out)")
    rules = set(RULE_ID.findall(RULES_MD.read_text(encoding="utf-8")))
    assert len(rules) >= 30  # the rules text really was read
    named = set().union(*_test_docstrings().values())
    missing = sorted(rules - named)
    assert not missing, f"rules named by no test: {', '.join(missing)}"
    unknown = sorted(named - rules)
    assert not unknown, f"tests name rules RULES.md does not have: {', '.join(unknown)}"
