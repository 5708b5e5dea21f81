"""The package as it is distributed (issue 38): the license, the citation, the changelog,
and a wheel and sdist that build, pass ``twine check`` and carry the package data.

The citation is checked against the Citation File Format 1.2.0 schema, kept in
tests/data/cff-1.2.0.schema.json (https://citation-file-format.github.io/1.2.0/schema.json,
CC-BY-4.0; the ``cffconvert`` validator pins an old jsonschema, so the schema is read here
with the jsonschema the test extra already has).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def test_license_is_the_mit_text_pyproject_names() -> None:
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert PYPROJECT["project"]["license"] == "MIT"
    assert text.startswith("MIT License\n\nCopyright (c) 2026 the ono99 authors\n")
    assert 'THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND' in text


def test_citation_is_valid_cff_1_2_0_with_the_package_version() -> None:
    import jsonschema
    import yaml

    schema = json.loads((ROOT / "tests/data/cff-1.2.0.schema.json").read_text(encoding="utf-8"))
    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))
    jsonschema.validate(cff, schema, format_checker=jsonschema.FormatChecker())
    assert cff["cff-version"] == "1.2.0"
    assert cff["version"] == PYPROJECT["project"]["version"]
    assert cff["license"] == PYPROJECT["project"]["license"]


def test_citation_schema_refuses_a_broken_citation() -> None:
    """The check above can fail: a citation without authors is not CFF."""
    import jsonschema
    import yaml

    schema = json.loads((ROOT / "tests/data/cff-1.2.0.schema.json").read_text(encoding="utf-8"))
    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))
    del cff["authors"]
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(cff, schema)


def test_changelog_keeps_a_changelog_form() -> None:
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert text.startswith("# Changelog\n")
    versions = re.findall(r"^## \[([^\]]+)\]", text, re.M)
    assert versions[0] == "Unreleased"
    assert PYPROJECT["project"]["version"] in versions
    for section in re.findall(r"^### (.+)$", text, re.M):
        assert section in {"Added", "Changed", "Deprecated", "Removed", "Fixed", "Security"}


def _tree(tmp: Path) -> Path:
    """The files a build reads, copied (the build writes its egg-info next to them):
    never the compiled caches of the working tree."""
    src = tmp / "src-tree"
    ignore = shutil.ignore_patterns("__pycache__", "*.egg-info", "*.pyc")
    shutil.copytree(ROOT / "src", src / "src", ignore=ignore)
    for name in ["pyproject.toml", "README.md", "LICENSE", "CITATION.cff", "CHANGELOG.md"]:
        shutil.copy2(ROOT / name, src / name)
    shutil.copy2(ROOT / "MANIFEST.in", src / "MANIFEST.in")
    return src


def test_wheel_and_sdist_build_pass_twine_check_and_carry_the_package_data(
    tmp_path: Path,
) -> None:
    import build  # noqa: F401  (the test extra has build and twine: never a silent skip)
    import twine  # noqa: F401

    out = tmp_path / "dist"
    # --no-isolation: the build runs with the setuptools installed here, offline
    subprocess.run(
        [
            sys.executable,
            "-m",
            "build",
            "--no-isolation",
            "--outdir",
            str(out),
            str(_tree(tmp_path)),
        ],
        check=True,
        capture_output=True,
    )
    wheels, sdists = sorted(out.glob("*.whl")), sorted(out.glob("*.tar.gz"))
    assert len(wheels) == 1 and len(sdists) == 1
    check = subprocess.run(
        [sys.executable, "-m", "twine", "check", "--strict", str(wheels[0]), str(sdists[0])],
        capture_output=True,
        text=True,
    )
    assert check.returncode == 0, check.stdout + check.stderr
    names = set(zipfile.ZipFile(wheels[0]).namelist())
    data = ROOT / "src" / "ono99"
    expected = {"ono99/py.typed", "ono99/locale/ono99.pot", "ono99/tui/app.tcss"}
    expected |= {f"ono99/{p.relative_to(data).as_posix()}" for p in data.glob("locale/*/*/*.mo")}
    expected |= {
        f"ono99/{p.relative_to(data).as_posix()}"
        for p in (data / "web" / "static").rglob("*")
        if p.is_file()
    }
    # the model zoo (docs/baselines.md): policy:zoo/NAME must play from an installed wheel
    expected |= {f"ono99/envs/zoo/{p.name}" for p in (data / "envs" / "zoo").glob("*.npz")}
    assert len([n for n in expected if n.endswith(".mo")]) == 5  # ta, gu, uz, my, kn
    # three baselines of mattel2022 and mini's two learned policies
    assert len([n for n in expected if n.endswith(".npz")]) == 5
    assert expected <= names, sorted(expected - names)
    assert not [n for n in names if "__pycache__" in n or n.endswith((".nbi", ".nbc"))]
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)
    with tarfile.open(sdists[0]) as sdist:
        members = {m.split("/", 1)[1] for m in sdist.getnames() if "/" in m}
    assert {"LICENSE", "CITATION.cff", "CHANGELOG.md", "README.md"} <= members
