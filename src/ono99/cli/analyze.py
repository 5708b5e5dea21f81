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

from ono99.cli import app, fail
from ono99.cli.long_run import check_workers, long_run, show_progress
from ono99.cli.options import check_engine, check_seed_option, parse_options
from ono99.errors import Ono99Error
from ono99.i18n import _, translate_error


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
    rules: Annotated[
        str, typer.Option("--rules", help=_("Preset: mattel2022, classic1980, gamerules."))
    ] = "mattel2022",
    players: Annotated[int, typer.Option("--players", help=_("Number of players."))] = 4,
    games: Annotated[
        int, typer.Option("--games", help=_("Games to play (rounded up to a multiple of players)."))
    ] = 400,
    bots: Annotated[
        str,
        typer.Option(
            "--bots",
            help=_(
                "Comma-separated bots: random, greedy, heuristic, ismcts, ismcts:N "
                "(N iterations), or a level easy/medium/hard/expert. A name may repeat."
            ),
        ),
    ] = "heuristic",
    option: Annotated[
        list[str] | None,
        typer.Option(
            "--option", help=_("Rule option key=value (repeatable), e.g. scoring=points.")
        ),
    ] = None,
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
    backend: Annotated[
        str, typer.Option("--backend", help=_("local (processes) or ray."))
    ] = "local",
    workers: Annotated[
        int | None, typer.Option("--workers", help=_("Worker processes (default: all CPU cores)."))
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help=_("Print one JSON object."))] = False,
) -> None:
    """Rules analysis: play many games and write report.html with the raw data."""
    check_engine(engine, fast=False)
    if backend not in ("local", "ray"):
        raise fail(_("--backend must be local or ray, not {backend}").format(backend=repr(backend)))
    check_workers(workers)
    if not out.strip():
        raise fail(_("--out needs the name of a folder"))
    folder = Path(out)
    from ono99.analysis import analyze as run_analysis
    from ono99.analysis.output import FILES, check_folder, write_outputs
    from ono99.arena import RayMissing, make_spec

    if seed is None:
        seed = secrets.randbits(64)
    try:
        check_seed_option(seed)
        options = parse_options(option)
        spec = make_spec(bots.split(","), players, rules, options, games, seed)  # fail early
    except (Ono99Error, ValueError) as e:
        raise fail(translate_error(e)) from None
    try:
        check_folder(folder)
    except OSError as e:
        raise fail(
            _("cannot write to {path}: {reason}").format(
                path=str(out), reason=e.strerror or type(e).__name__
            )
        ) from None
    if backend == "ray":
        try:
            import ray  # noqa: F401
        except ImportError:
            raise fail(_("the ray backend needs Ray: pip install 'ono99[ray]'")) from None
    try:
        with long_run(spec.games, show_progress(as_json)) as progress:
            summary, data = run_analysis(
                bots.split(","), players, rules, options, games, seed, backend, workers, progress
            )
    except RayMissing:
        raise fail(_("the ray backend needs Ray: pip install 'ono99[ray]'")) from None
    try:
        write_outputs(folder, summary, data)
    except OSError as e:
        raise fail(
            _("cannot write to {path}: {reason}").format(
                path=str(out), reason=e.strerror or type(e).__name__
            )
        ) from None
    if as_json:
        print(json.dumps(summary, ensure_ascii=False))
        return
    from ono99.analysis.report import findings

    for line in findings(summary):
        print(line)
    print(_("report: {path}").format(path=str(folder / FILES[0])))
