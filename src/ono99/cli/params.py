"""Command-line options that several subcommands take, declared once (Typer reads a
reused ``Annotated`` type as the same option in each command).

Imported by the subcommand modules only, after ``--lang`` has set the language (as their
own help texts are): the help is worded at import.
"""

from __future__ import annotations

from typing import Annotated

import typer

from ono99.i18n import _

__all__ = [
    "Rules", "Players", "Games", "Bots", "RuleOptions", "Backend", "Workers", "Json", "Engine",
]  # fmt: skip

Rules = Annotated[
    str, typer.Option("--rules", help=_("Preset: mattel2022, classic1980, gamerules, mini."))
]
Players = Annotated[int, typer.Option("--players", help=_("Number of players."))]
Games = Annotated[
    int, typer.Option("--games", help=_("Games to play (rounded up to a multiple of players)."))
]
Bots = Annotated[
    str,
    typer.Option(
        "--bots",
        # every name make_bot takes (tests/test_cli_help_bots.py holds the list to the
        # registry; written out here so that the help needs no import of the bots)
        help=_(
            "Comma-separated bots: {bots}, ismcts:N (N iterations), policy:PATH (a learned "
            "policy file), or a level {levels}. A name may repeat."
        ).format(
            bots="random, greedy, heuristic, ismcts, optimal", levels="easy/medium/hard/expert"
        ),
    ),
]
RuleOptions = Annotated[
    list[str] | None,
    typer.Option("--option", help=_("Rule option key=value (repeatable), e.g. scoring=points.")),
]
Backend = Annotated[str, typer.Option("--backend", help=_("local (processes) or ray."))]
Workers = Annotated[
    int | None, typer.Option("--workers", help=_("Worker processes (default: all CPU cores)."))
]
Json = Annotated[bool, typer.Option("--json", help=_("Print one JSON object."))]
#: ``--engine`` of the subcommands that run on either engine (``bench``, ``replay``)
Engine = Annotated[
    str,
    typer.Option("--engine", help=_("reference, or fast (compiled: pip install 'ono99[fast]').")),
]
