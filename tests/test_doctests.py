"""Doctests of the public modules (python-chess style: examples that must stay true)."""

import doctest
import importlib
import os
import pkgutil

import pytest

import ono99

MODULES = sorted(
    m.name
    for m in pkgutil.walk_packages(ono99.__path__, "ono99.")
    if not m.name.startswith(("ono99.cli", "ono99.tui", "ono99.web"))
)


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name: str) -> None:
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as e:  # an optional extra is not installed
        if os.environ.get("CI"):  # CI installs every extra the tests use
            pytest.fail(str(e))
        pytest.skip(str(e))
    result = doctest.testmod(module)
    assert result.failed == 0
