"""``ono99 arena``: bot tournaments (CONTRACTS.md).

Seats rotate so every bot plays every seat equally (``--games`` is rounded up to a
multiple of ``--players``). A bot name given twice is reported as ``name``,
``name#2``; with more players than bots, seats are filled cyclically
(``--bots a,b --players 3`` seats a, b, a) and an entry holding several seats wins a
game when any of its seats wins (a shared win counts as a fraction). A single bot
plays itself: ``--bots random --players 3`` seats ``random``, ``random#2``, ``random#3``.
"""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer

from ono99.cli import params
from ono99.cli.base import app, fail
from ono99.cli.columns import columns
from ono99.cli.long_run import check_backend, check_ray, games_run
from ono99.cli.options import check_seed_option, parse_options
from ono99.errors import Ono99Error
from ono99.i18n import _, translate_error


def _table(result: dict[str, Any]) -> str:
    preset = result["rules"] + (f" {json.dumps(result['options'])}" if result["options"] else "")
    lines = [
        _(
            "{rules} — players: {players}, games: {games}, seed: {seed}, "
            "backend: {backend}, workers: {workers}"
        ).format(
            rules=preset,
            players=result["players"],
            games=result["games"],
            seed=result["seed"],
            backend=result["backend"],
            workers=result["workers"],
        ),
        "",
    ]
    bots = result["bots"]
    rows = [
        # TRANSLATORS: column headers of the arena table (ono99 arena); "p50 ms" and
        # "p99 ms" are the median and 99th percentile of a bot's decision time
        [_("bot"), _("games"), _("wins"), _("win rate"), _("95% CI (Wilson)"), _("p50 ms"),
         _("p99 ms")],
    ]  # fmt: skip
    for name, b in sorted(bots.items(), key=lambda kv: -kv[1]["win_rate"]):
        lo, hi = b["ci95"]
        rows.append(
            [name, str(b["games"]), f"{b['wins']:.2f}", f"{b['win_rate']:.3f}",
             f"[{lo:.3f}, {hi:.3f}]", f"{b['decision_ms']['p50']:.2f}",
             f"{b['decision_ms']['p99']:.2f}"]
        )  # fmt: skip
    lines += columns(rows, [20, 6, 9, 9, 17, 8, 8])
    # TRANSLATORS: columns of the arena's paired comparison; "pair" is
    # "bot a − bot b"; the edge is a's win share per seat held minus b's,
    # averaged over blocks (the games of one deal, every bot in every
    # seat); the interval is Student's t interval over those blocks
    rows = [[_("pair"), _("edge per seat"), _("95% CI (paired t)"), _("blocks")]]
    for p in result.get("pairs", []):
        ci = p["ci95"]
        interval = "—" if ci is None else f"[{ci[0]:+.3f}, {ci[1]:+.3f}]"
        rows.append([f"{p['a']} − {p['b']}", f"{p['diff']:+.3f}", interval, str(p["blocks"])])
    if len(rows) > 1:
        lines += ["", *columns(rows, [20, 8, 17, 6])]
    return "\n".join(lines)


@app.command(
    help=_("Play bots against each other with rotated seats; win rates, 95% CIs, paired edges.")
)
def arena(
    bots: params.Bots,
    players: Annotated[
        int | None, typer.Option("--players", help=_("Players per game (default: number of bots)."))
    ] = None,
    rules: params.Rules = "mattel2022",
    option: params.RuleOptions = None,
    games: params.Games = 100,
    seed: Annotated[int, typer.Option("--seed", help=_("Tournament seed."))] = 0,
    backend: params.Backend = "local",
    workers: params.Workers = None,
    as_json: params.Json = False,
) -> None:
    """Play bots against each other with rotated seats; win rates, 95% CIs, paired edges."""
    check_backend(backend, workers)
    from ono99.arena import make_spec, run_tournament

    if any(b.strip().startswith("policy:") for b in bots.split(",")):
        try:  # registers policy:PATH, a learned policy (docs/learning.md)
            import ono99.envs.policy  # noqa: F401
        except ImportError as e:
            raise fail(str(e)) from None
    try:
        check_seed_option(seed)
        spec = make_spec(bots.split(","), players, rules, parse_options(option), games, seed)
    except (Ono99Error, ValueError) as e:
        raise fail(translate_error(e)) from None
    check_ray(backend)
    with games_run(spec.games, as_json) as progress:
        result = run_tournament(spec, backend, workers, progress)
    if as_json:
        print(json.dumps(result))
    else:
        print(_table(result))
