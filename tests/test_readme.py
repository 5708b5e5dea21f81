"""The README's examples must stay true (python-chess doctests its README too).

Every ```python block of README.md runs: blocks with ``>>>`` examples as doctests, other
blocks as plain code. The Quick start section is checked against CONTRACTS.md.
"""

from __future__ import annotations

import doctest
import json
import re
from pathlib import Path

import pytest

from ono99 import replay

README = Path(__file__).resolve().parent.parent / "README.md"
TEXT = README.read_text(encoding="utf-8")
#: the documents whose ```python blocks run: the README and the pages its examples moved to
#: (issue 26: the README is a front page, the examples live in docs/python.md)
DOCS = ["README.md", "docs/python.md"]
BLOCKS = [
    (doc, text.count("\n", 0, m.start()) + 2, m.group(1))
    for doc in DOCS
    for text in [(README.parent / doc).read_text(encoding="utf-8")]
    for m in re.finditer(r"^```python\n(.*?)^```", text, re.M | re.S)
]
#: the README's front page stays short (issue 26)
README_LIMIT = 8_000


def test_docs_have_python_examples() -> None:
    assert any(">>>" in code for doc, _, code in BLOCKS if doc == "docs/python.md")
    assert any(">>>" not in code for doc, _, code in BLOCKS if doc == "docs/python.md")


@pytest.mark.parametrize(("doc", "line", "code"), BLOCKS, ids=[f"{d}:{n}" for d, n, _ in BLOCKS])
def test_readme_python_block(doc: str, line: int, code: str) -> None:
    if ">>>" not in code:
        exec(compile(code, f"{doc}:{line}", "exec"), {"__name__": "readme"})
        return
    parser = doctest.DocTestParser()
    test = parser.get_doctest(code, {}, f"{doc}:{line}", str(README.parent / doc), line - 1)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{doc} block at line {line}: see the doctest output above"


def test_readme_is_a_front_page() -> None:
    """Issue 26: at most 8 K characters; the pictures of both front ends are there and
    exist; every link to a local file points at one that exists."""
    assert len(TEXT) <= README_LIMIT, len(TEXT)
    images = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", TEXT)
    assert "docs/images/terminal-game-en.png" in images
    assert any("web-table" in i for i in images)
    for target in re.findall(r"\]\(([^)#]+)\)", TEXT):
        if "://" not in target:
            assert (README.parent / target).exists(), target
    for word in ("## Quick start", "Keys", "ono99 play", "ono99 serve"):
        assert word in TEXT


def test_moved_docs_links_resolve() -> None:
    """The pages the README's long sections moved to link to files that exist."""
    for doc in ["docs/python.md", "docs/records.md", "docs/play.md", "docs/speed.md",
                "docs/web.md", "docs/deploy.md", "docs/strength.md"]:  # fmt: skip
        text = (README.parent / doc).read_text(encoding="utf-8")
        for target in re.findall(r"\]\(([^)#]+)\)", text):
            if "://" not in target:
                assert (README.parent / doc).parent.joinpath(target).exists(), (doc, target)


def test_quick_start_contract() -> None:
    """CONTRACTS.md: the first fenced block of "Quick start" holds exactly two command
    lines, and .ci/run runs the second."""
    m = re.search(r"^#+\s*Quick start.*?$(.*?)^```[^\n]*\n(.*?)^```", TEXT, re.M | re.S)
    assert m, "README has no Quick start section with a fenced block"
    lines = [ln.strip() for ln in m.group(2).splitlines() if ln.strip()]
    assert len(lines) == 2
    assert "ono99 play" in lines[0]
    ci = (README.parent / ".ci" / "run").read_text(encoding="utf-8")
    assert lines[1] in ci


#: Every rule ID of the normative rules text (RULES.md); docs/rules.md explains each.
RULE_IDS = (
    [f"R-SET-{i}" for i in range(1, 7)]
    + [f"R-TURN-{i}" for i in range(1, 5)]
    + ["R-LIM-1", "R-LIM-2"]
    + [f"R-99-{i}" for i in range(1, 6)]
    + ["R-REV-1", "R-REV-2", "R-M10-1", "R-H-1"]
    + [f"R-P2-{i}" for i in range(1, 7)]
    + [f"R-END-{i}" for i in range(1, 5)]
    + ["R-DRAW-1", "R-REC"]
)


def test_rules_doc_covers_every_rule() -> None:
    doc = (README.parent / "docs" / "rules.md").read_text(encoding="utf-8")
    missing = [rule for rule in RULE_IDS if f"**{rule}**" not in doc and f"({rule})" not in doc]
    assert not missing


@pytest.mark.parametrize("doc", ["docs/records.md", "docs/rules.md"])
def test_example_records_replay(doc: str) -> None:
    """The example records in the docs are legal games."""
    text = (README.parent / doc).read_text(encoding="utf-8")
    records = re.findall(r"^```json\n(.*?)^```", text, re.M | re.S)
    assert records
    for rec in records:
        game = replay(json.loads(rec))
        assert len(game.moves) == len(json.loads(rec)["moves"])


def _ci_tail() -> str:
    """The part of .ci/run from the README's test line on (the lines that decide its status)."""
    ci = (README.parent / ".ci" / "run").read_text(encoding="utf-8")
    start = ci.index('# README "Quick start", line 2')
    return ci[start:]


@pytest.mark.parametrize(
    ("pip", "fast", "slow", "status", "ran_slow"),
    [
        (0, 0, 0, 0, True),  # all pass
        (1, 0, 0, 1, False),  # the install fails: nothing else runs
        (0, 1, 0, 1, False),  # a fast test fails: CI fails before the slow suites
        (0, 5, 0, 5, False),  # "no tests ran" in line 2 is a failure
        (0, 0, 1, 1, True),  # a slow test fails
        (0, 0, 5, 5, True),  # "no tests ran" for -m slow is a failure too
    ],
)
def test_ci_run_exit_status(
    tmp_path: Path, pip: int, fast: int, slow: int, status: int, ran_slow: bool
) -> None:
    """.ci/run runs line 2, then `pytest -m slow`; its exit status is right in every case
    (checked with stand-ins for pip and python that exit with the given codes)."""
    import subprocess

    log = tmp_path / "log"
    (tmp_path / "pip").write_text(f"#!/bin/sh\necho pip >> {log}\nexit {pip}\n")
    (tmp_path / "python").write_text(
        f'#!/bin/sh\necho "$*" >> {log}\ncase "$*" in *"-m slow"*) exit {slow};; esac\n'
        f"exit {fast}\n"
    )
    for name in ("pip", "python"):
        (tmp_path / name).chmod(0o755)
    script = tmp_path / "tail.sh"
    script.write_text("set -euo pipefail\n" + _ci_tail())
    env = {"PATH": f"{tmp_path}:/usr/bin:/bin"}
    proc = subprocess.run(["bash", str(script)], env=env, capture_output=True, text=True)
    assert proc.returncode == status, proc.stderr
    assert ("-m pytest -m slow" in log.read_text()) == ran_slow
