"""When the bots may use their compiled parts: the heuristic and its rollouts on the fast
engine (:mod:`ono99.bots.fast_rollout`).

The compiled heuristic and rollouts make the same choices and give the same values as the
Python ones, so whether they are used changes no move, only the time. This module decides
when, without importing Numba itself: the search (:mod:`ono99.bots.ismcts`) and the hand
inference (:mod:`ono99.bots.inference`) ask :func:`module`.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import threading
from typing import Any

__all__ = ["FAST_ROLLOUTS", "module"]

#: The compiled rollouts and heuristic (the same values, so the same moves). "auto": used
#: once ready; the first time on a machine Numba compiles them (tens of seconds), in a
#: background process, and the Python rollouts play until then, so nobody waits on a bot's
#: first move. True: compiled (or loaded) now, in this process. False: never. Without Numba
#: (``ono99[fast]``) the Python rollouts always play.
FAST_ROLLOUTS: bool | str = "auto"

_fast_lock = threading.Lock()
_fast_state = "unknown"  # "warming", "ready" or "off"
_fast_module: Any = None
_warming: subprocess.Popen[bytes] | None = None
_warming_pid = 0  # the process that started the warm-up (a forked child starts its own)
_WARM = (
    "from ono99.bots.fast_rollout import warm; warm();"
    " from ono99.bots.fast_evaluate import warm as warm_evaluator; warm_evaluator()"
)


def module() -> Any:
    """The compiled rollouts' module when it may be used now, else None (see
    :data:`FAST_ROLLOUTS`)."""
    global _fast_state, _fast_module, _warming, _warming_pid
    if FAST_ROLLOUTS is False:
        return None
    with _fast_lock:
        if _fast_state == "warming" and _warming_pid != os.getpid():
            _fast_state = "unknown"  # a forked child: its parent's warm-up is not its own
        if _fast_state == "unknown" and importlib.util.find_spec("numba") is None:
            _fast_state = "off"
        if _fast_state != "warming" and _fast_state != "unknown":
            return _fast_module if _fast_state == "ready" else None
        if FAST_ROLLOUTS is True or (_warming is not None and _warming.poll() is not None):
            if _warming is not None and _warming.returncode != 0:
                _fast_state = "off"  # it could not compile here: the Python rollouts play
                return None
            from ono99.bots import fast_evaluate, fast_rollout

            fast_rollout.warm()  # compiled in the background: loaded from the cache now
            fast_evaluate.warm()
            _fast_module, _fast_state = fast_rollout, "ready"
            return _fast_module
        if _fast_state == "unknown":
            _warming = subprocess.Popen(
                [sys.executable, "-c", _WARM],
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            )  # fmt: skip
            _warming_pid = os.getpid()
            _fast_state = "warming"
        return None
