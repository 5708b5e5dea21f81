"""``ono99 replay FILE``: replay a game record (RULES.md R-REC)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer

from ono99.cli import app, fail
from ono99.errors import RecordError, RulesError
from ono99.narrate import narrate
from ono99.records import ParsedRecord, ReplayError, load_record, state_json


def _read(path: str) -> str:
    try:
        if path == "-":
            return sys.stdin.read()
        return Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise RecordError(f"no such file: {path}") from None
    except IsADirectoryError:
        raise RecordError(f"{path} is a directory, not a game record") from None
    except (OSError, UnicodeDecodeError) as e:
        raise RecordError(f"cannot read {path}: {e}") from None


@app.command()
def replay(
    file: Annotated[str, typer.Argument(help="Game record (JSON), or - for stdin.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the final state as JSON.")] = False,
    engine: Annotated[
        str, typer.Option("--engine", help="reference (fast: not built yet).")
    ] = "reference",
    lang: Annotated[str | None, typer.Option("--lang", help="Language of the narration.")] = None,
) -> None:
    """Replay a game record; tell it move by move, or print the final state (--json)."""
    from ono99.i18n import set_language

    if engine not in ("reference", "fast"):
        raise fail(f"--engine must be reference or fast, not {engine!r}")
    if engine == "fast":
        raise fail("the fast engine is not part of this build yet; use --engine reference")
    try:
        set_language(lang)
    except ValueError as e:
        raise fail(str(e)) from None
    try:
        rec: ParsedRecord = load_record(_read(file))
        game = rec.new_game(events=not as_json)
    except (RecordError, RulesError) as e:
        if as_json:
            print(json.dumps({"error": str(e), "move": None}))
        raise fail(str(e)) from None
    printed = 0

    def tell() -> None:
        nonlocal printed
        events = game.events or []
        for ev in events[printed:]:
            line = narrate(ev, game.names, game.rules)
            if line:
                print(line)
        printed = len(events)

    from ono99.cards import parse_action
    from ono99.errors import IllegalAction

    for i, move in enumerate(rec.moves):
        if not as_json:
            tell()
        try:
            game.apply(parse_action(move))
        except (IllegalAction, RecordError) as e:
            err = ReplayError(f"move {i} ({move!r}): {e}", i)
            if as_json:
                print(json.dumps({"error": str(err), "move": i}))
            else:
                tell()
            raise fail(str(err), 1) from None
    if as_json:
        print(json.dumps(state_json(game)))
    else:
        tell()
