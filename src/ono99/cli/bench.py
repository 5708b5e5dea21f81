"""``ono99 bench``: engine throughput under random legal play."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from ono99.bench import run_bench
from ono99.cli import params
from ono99.cli.base import app
from ono99.cli.long_run import check_range
from ono99.cli.options import check_engine, check_seed_option, parse_options
from ono99.i18n import _

#: the longest ``--seconds`` (an hour: the rate is steady after a few seconds)
MAX_SECONDS = 3600


@app.command(help=_("Random legal play at full speed: games and decision steps per second."))
def bench(
    rules: params.Rules = "mattel2022",
    players: params.Players = 4,
    seconds: Annotated[
        float, typer.Option("--seconds", help=_("How long to run (0.01 to 3600 seconds)."))
    ] = 5.0,
    engine: params.Engine = "reference",
    option: Annotated[
        list[str] | None, typer.Option("--option", help=_("Rule option key=value."))
    ] = None,
    seed: Annotated[int, typer.Option("--seed", help=_("Seed of the random play."))] = 0,
    as_json: params.Json = False,
) -> None:
    """Random legal play at full speed: games and decision steps per second."""
    check_engine(engine)
    check_range("--seconds", seconds, 0.01, MAX_SECONDS)
    check_seed_option(seed)
    result = run_bench(rules, players, seconds, parse_options(option), seed, engine=engine)
    if as_json:
        print(json.dumps(result))
    else:
        print(
            _(
                "{rules}, {players} players, {engine} engine: {games} games, {steps} steps"
                " in {seconds} s = {games_per_s} games/s, {steps_per_s} steps/s"
            ).format(
                rules=result["rules"],
                players=players,
                engine=result["engine"],
                games=result["games"],
                steps=result["steps"],
                seconds=f"{result['seconds']:.2f}",
                games_per_s=f"{result['games_per_s']:,.0f}",
                steps_per_s=f"{result['steps_per_s']:,.0f}",
            )
        )
