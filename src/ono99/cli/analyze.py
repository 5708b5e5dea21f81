"""``ono99 analyze``: the rules-analysis report (CONTRACTS.md, docs/analyze.md).

Plays ``--games`` games of ``--bots`` through the arena's backends (so ``--backend ray``
works as in ``ono99 arena`` and the same ``--seed`` gives the same data whatever the
backend and worker count) and writes ``report.html`` and the raw data into ``--out``.
"""

from __future__ import annotations

import json
import secrets
from pathlib import Path
from typing import Annotated

import typer

from ono99.cli import params
from ono99.cli.base import app, fail
from ono99.cli.long_run import check_backend, check_range, check_ray, games_run
from ono99.cli.options import check_engine, check_seed_option, parse_options
from ono99.cli.review import MAX_SAMPLES
from ono99.errors import Ono99Error
from ono99.i18n import _, os_reason, translate_error


@app.command(
    help=_(
        "Rules analysis: play many games and write a report (seat advantage, game length, "
        "busts, cards) as report.html with the raw data."
    )
)
def analyze(
    out: Annotated[
        str,
        typer.Option("--out", metavar="DIR", help=_("Folder for report.html and the raw data.")),
    ],
    rules: params.Rules = "mattel2022",
    players: params.Players = 4,
    games: params.Games = 400,
    bots: params.Bots = "heuristic",
    option: params.RuleOptions = None,
    seed: Annotated[
        int | None,
        typer.Option(
            "--seed", help=_("Seed (default: a fresh random one, written into summary.json).")
        ),
    ] = None,
    engine: Annotated[
        str,
        typer.Option("--engine", help=_("reference only: bots play on the reference engine.")),
    ] = "reference",
    review: Annotated[
        int,
        typer.Option(
            "--review",
            metavar="K",
            help=_(
                "Review K of the games (spread over the run) for the report's \"how much is "
                'skill"; 0: none.'
            ),
        ),
    ] = 10,
    samples: Annotated[
        int,
        typer.Option(
            "--samples", metavar="N", help=_("Worlds each reviewed decision is valued from.")
        ),
    ] = 100,
    backend: params.Backend = "local",
    workers: params.Workers = None,
    as_json: params.Json = False,
) -> None:
    """Rules analysis: play many games and write report.html with the raw data."""
    check_engine(engine, fast=False)
    check_backend(backend, workers)
    if not out.strip():
        raise fail(_("--out needs the name of a folder"))
    # more than --games reviews them all (the default of 10 with fewer games, say)
    check_range("--review", review, 0, 1_000_000)
    check_range("--samples", samples, 1, MAX_SAMPLES)
    folder = Path(out)
    from ono99.analysis import analyze as run_analysis
    from ono99.analysis.output import FILES, check_folder, write_outputs
    from ono99.arena import make_spec

    if seed is None:
        seed = secrets.randbits(64)
    try:
        check_seed_option(seed)
        spec = make_spec(bots.split(","), players, rules, parse_options(option), games, seed)
    except (Ono99Error, ValueError) as e:
        raise fail(translate_error(e)) from None
    try:
        check_folder(folder)
    except OSError as e:
        raise fail(
            _("cannot write to {path}: {reason}").format(
                path=str(out), reason=translate_error(os_reason(e))
            )
        ) from None
    check_ray(backend)
    with games_run(spec.games, as_json) as progress:
        summary, data = run_analysis(spec, backend, workers, progress, review, samples)
    try:
        write_outputs(folder, summary, data)
    except OSError as e:
        raise fail(
            _("cannot write to {path}: {reason}").format(
                path=str(out), reason=translate_error(os_reason(e))
            )
        ) from None
    if as_json:
        print(json.dumps(summary, ensure_ascii=False))
        return
    from ono99.analysis.report import findings

    for line in findings(summary):
        print(line)
    print(_("report: {path}").format(path=str(folder / FILES[0])))
