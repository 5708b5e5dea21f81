"""``ono99 replay FILE``: replay a game record (RULES.md R-REC)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from ono99.cli import params
from ono99.cli.base import app, fail, use_language
from ono99.cli.options import check_engine
from ono99.errors import Ono99Error, RecordError, RulesError
from ono99.i18n import N_, _, os_reason, translate_error
from ono99.narrate import narrate, you_seat
from ono99.records import (
    RECORD_LIMIT,
    ParsedRecord,
    ReplayError,
    apply_move,
    load_record,
    state_json,
)
from ono99.termsafe import terminal_safe


def read_text(path: str) -> str:
    """The file's text, read no further than a record can be (``RECORD_LIMIT`` bytes, as
    ``POST /api/replay`` takes): ``/dev/zero`` or a huge file is a one-line error."""
    try:
        if path == "-":
            data = sys.stdin.buffer.read(RECORD_LIMIT + 1)
        else:
            with Path(path).open("rb") as f:
                data = f.read(RECORD_LIMIT + 1)
        if len(data) > RECORD_LIMIT:
            raise RecordError(
                N_("{path} is larger than a game record can be ({limit} bytes)"),
                path=path, limit=f"{RECORD_LIMIT:,}",
            )  # fmt: skip
        return data.decode("utf-8")
    except FileNotFoundError:
        raise RecordError(N_("no such file: {path}"), path=path) from None
    except IsADirectoryError:
        raise RecordError(N_("{path} is a directory, not a game record"), path=path) from None
    except (OSError, UnicodeDecodeError) as e:
        raise RecordError(
            N_("cannot read {path}: {reason}"), path=path, reason=os_reason(e)
        ) from None


def _read_or_fail(path: str, as_json: bool) -> str:
    try:
        return read_text(path)
    except RecordError as e:
        if as_json:
            print(json.dumps({"error": str(e), "move": None}))
        raise fail(translate_error(e)) from None


def _tracking_record(text: str) -> dict[str, Any] | None:
    """The parsed record when ``text`` is a tracked game's record, else None."""
    from ono99.tracking import is_tracking_record

    try:
        data = json.loads(text.removeprefix("\ufeff"))
    except (ValueError, RecursionError):
        return None
    return data if is_tracking_record(data) else None


@app.command(
    help=_("Replay a game record; tell it move by move, or print the final state (--json).")
)
def replay(
    file: Annotated[
        str, typer.Argument(metavar="FILE", help=_("Game record (JSON), or - for stdin."))
    ],
    as_json: Annotated[
        bool, typer.Option("--json", help=_("Print the final state as JSON."))
    ] = False,
    engine: params.Engine = "reference",
    lang: Annotated[
        str | None, typer.Option("--lang", help=_("Language of the narration."))
    ] = None,
) -> None:
    """Replay a game record; tell it move by move, or print the final state (--json)."""
    check_engine(engine)
    use_language(lang)
    text = _read_or_fail(file, as_json)
    tracked = _tracking_record(text)
    if tracked is not None:  # a table companion's game (docs/companion.md)
        from ono99.cli.replay_tracking import replay_tracking

        if engine == "fast":
            raise fail(_("a table companion's record replays on the reference engine only"))
        raise typer.Exit(replay_tracking(tracked, as_json))
    try:
        rec: ParsedRecord = load_record(text)
        if engine == "fast" and as_json:
            raise typer.Exit(_replay_fast_json(rec))
        game = rec.new_game(events=not as_json)
    except (RecordError, RulesError) as e:
        if as_json:
            print(json.dumps({"error": str(e), "move": None}))  # English, as in the contract
        raise fail(translate_error(e)) from None
    # --engine fast without --json: the fast engine keeps no announcement log, so the
    # reference tells the game and the fast engine's outcome must match it (below).
    fast = _fast_outcome(rec) if engine == "fast" else None
    printed = 0
    you = you_seat(game.names)  # the human of a terminal game: told as "You play 7"

    def tell() -> None:
        nonlocal printed
        # Told as a spectator hears it: no one's drawn cards (the record's hands are public
        # only in --json).
        events = game.events_for(None, printed)
        for ev in events:
            line = narrate(ev, game.names, game.rules, you=you)
            if line:  # a record's names may hold control characters: never raw
                print(terminal_safe(line))
        printed += len(events)

    for i, move in enumerate(rec.moves):
        if not as_json:
            tell()
        try:
            apply_move(game, i, move)
        except (ReplayError, RecordError) as e:
            # ReplayError: this move is not a move or not legal now; RecordError: a later
            # deal of the record does not fit the seats still in the game, so the record
            # is bad (move null), not this move
            index = e.move if isinstance(e, ReplayError) else None
            error: Ono99Error = e
            if as_json:  # the English message, as in the contract
                print(json.dumps({"error": str(error), "move": index}))
            else:
                tell()
                _check_fast(fast, {"error": str(error), "move": index})
            raise fail(translate_error(error)) from None
    if as_json:
        print(json.dumps(state_json(game)))
    else:
        tell()
        _check_fast(fast, state_json(game))


def _fast_outcome(rec: ParsedRecord) -> dict[str, Any]:
    """The record replayed on the fast engine: its final state, or ``{"error", "move"}``
    as ``--json`` prints them (and the error itself, under ``_error``)."""
    from ono99.fast.game import replay as replay_fast

    try:
        return replay_fast(rec).state_json()
    except ReplayError as e:
        return {"error": str(e), "move": e.move, "_error": e}
    except RecordError as e:  # a later deal that does not fit: the record is bad
        return {"error": str(e), "move": None, "_error": e}


def _replay_fast_json(rec: ParsedRecord) -> int:
    """``--json --engine fast``: print the fast engine's outcome; the exit status."""
    outcome = _fast_outcome(rec)
    error = outcome.pop("_error", None)
    print(json.dumps(outcome))
    if error is None:
        return 0
    raise fail(translate_error(error))


def _check_fast(fast: dict[str, Any] | None, told: dict[str, Any]) -> None:
    """The fast engine must end where the reference's narration ended."""
    if fast is None:
        return
    fast.pop("_error", None)
    if fast != told:
        raise fail(_("the fast engine and the reference disagree on this record"), 1)
