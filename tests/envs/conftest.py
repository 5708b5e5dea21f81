"""The RL environments need the ``rl`` extra (CI installs it with ``test``)."""

import pytest

pytest.importorskip("numpy")
pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")
