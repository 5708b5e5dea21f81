"""``ono99 bench``: engine throughput under random legal play."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from ono99.bench import run_bench
from ono99.cli import app, fail
from ono99.cli.options import parse_options


@app.command()
def bench(
    rules: Annotated[
        str, typer.Option("--rules", help="Preset: mattel2022, classic1980, gamerules.")
    ] = "mattel2022",
    players: Annotated[int, typer.Option("--players", help="Number of players.")] = 4,
    seconds: Annotated[float, typer.Option("--seconds", help="How long to run.", min=0.01)] = 5.0,
    engine: Annotated[
        str, typer.Option("--engine", help="reference (fast: not built yet).")
    ] = "reference",
    option: Annotated[
        list[str] | None, typer.Option("--option", help="Rule option key=value.")
    ] = None,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the random play.")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Random legal play at full speed: games and decision steps per second."""
    if engine not in ("reference", "fast"):
        raise fail(f"--engine must be reference or fast, not {engine!r}")
    if engine == "fast":
        raise fail("the fast engine is not part of this build yet; use --engine reference")
    result = run_bench(rules, players, seconds, parse_options(option), seed)
    if as_json:
        print(json.dumps(result))
    else:
        print(
            f"{result['rules']}, {players} players, {result['engine']} engine: "
            f"{result['games']} games, {result['steps']} steps in {result['seconds']:.2f} s "
            f"= {result['games_per_s']:,.0f} games/s, {result['steps_per_s']:,.0f} steps/s"
        )
