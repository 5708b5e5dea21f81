"""``ono99 replay`` of a tracked game's record (the table companion, docs/companion.md):
the taps told move by move, or the final public state (``--json``); hands unknown."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from ono99.errors import Ono99Error, RecordError
from ono99.i18n import N_, translate_error
from ono99.narrate import narrate
from ono99.termsafe import terminal_safe
from ono99.tracking import Tracker

__all__ = ["replay_tracking"]


def _final(t: Tracker) -> dict[str, Any]:
    s = t.state()
    keys = ("rules", "options", "total", "direction", "to_move", "draw_pile", "out", "tokens",
            "scores", "round", "winner", "owes_two", "pending_draw")  # fmt: skip
    out = {k: s[k] for k in keys}
    out["players"] = list(t.names)
    out["hands"] = [None] * len(t.names)  # a tracked game's hands are not known
    out["hand_sizes"] = s["hand_sizes"]
    out["moves"] = len(t.taps)
    out["tracking"] = True
    return out


def replay_tracking(data: Mapping[str, Any], as_json: bool) -> int:
    """Replay a tracked game's record as ``ono99 replay`` does; returns 0, and raises the
    one-line error exit (status 2) for a bad record or the first move that cannot be."""
    from ono99.cli.base import fail

    moves = data.get("moves", [])
    try:
        if not isinstance(moves, list):
            raise RecordError(N_("moves must be a list of move codes"))
        t = Tracker.from_record({**data, "moves": []})
    except Ono99Error as e:
        if as_json:
            print(json.dumps({"error": str(e), "move": None}))
        raise fail(translate_error(e)) from None

    def tell(events: list[Any]) -> None:
        if as_json:
            return
        for ev in events:
            line = narrate(ev.heard_by(None), t.names, t.rules)
            if line:
                print(terminal_safe(line))

    tell(t.last_events)
    for i, move in enumerate(moves):
        try:
            if not isinstance(move, str):
                raise RecordError(N_("moves must be a list of move codes"))
            events = t.tap(move)
        except Ono99Error as e:
            err = RecordError(
                N_("move {index} ({move}): {reason}"), index=i, move=repr(move), reason=e
            )
            if as_json:
                print(json.dumps({"error": str(err), "move": i}))
            raise fail(translate_error(err)) from None
        tell(events)
    if as_json:
        print(json.dumps(_final(t)))
    return 0
