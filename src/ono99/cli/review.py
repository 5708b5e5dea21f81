"""``ono99 review FILE``: how well a recorded game was played (CONTRACTS.md, docs/review.md)."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from ono99.bots import compiled
from ono99.bots.evaluate import DEFAULT_SAMPLES
from ono99.bots.review import MISTAKE, Review, review_game
from ono99.cli import params
from ono99.cli.base import app, fail, use_language
from ono99.cli.columns import columns
from ono99.cli.long_run import check_range
from ono99.cli.options import check_seed_option
from ono99.cli.replay import read_text
from ono99.errors import Ono99Error, RecordError
from ono99.i18n import N_, _, ngettext, translate_error
from ono99.records import ParsedRecord, load_record
from ono99.rules import Rules
from ono99.termsafe import terminal_safe
from ono99.texts import move_name, preset_title

#: the most worlds a decision may ask for (a review of a long game at this takes hours)
MAX_SAMPLES = 100_000


def _is_tracked(text: str) -> bool:
    """Whether ``text`` is a table companion's record (docs/companion.md): real cards,
    of which only the plays are known."""
    from ono99.tracking import is_tracking_record

    try:
        return is_tracking_record(json.loads(text.removeprefix("\ufeff")))
    except (ValueError, RecursionError):
        return False


def _pct(p: float) -> str:
    return f"{100 * p:.1f}%"


def _interval(lo: float, hi: float) -> str:
    return f"[{100 * lo:.1f}–{100 * hi:.1f}%]"


def _text(review: Review, rec: ParsedRecord, rules: Rules, names: list[str]) -> str:
    lines = [
        _("Review of {title}: {samples} worlds a decision, seed {seed}").format(
            title=preset_title(rules), samples=review.samples, seed=review.seed
        ),
        _(
            "A mistake loses {threshold} of win chance or more, clearly more than the sampling noise."
        ).format(threshold=_pct(MISTAKE)),
        "",
    ]
    for d in review.decisions:
        name = terminal_safe(names[d.seat])
        played = move_name(d.played, rules)
        win = _pct(d.values.option(d.played).win)
        if d.loss <= 0.0:
            line = _("move {move}, {name}: {card} ({win}), the best choice").format(
                move=d.move, name=name, card=played, win=win
            )
        else:
            best = d.values.best
            fmt = (
                _("move {move}, {name}: {card} ({win}); {best} was better ({best_win}): "
                  "a mistake, {loss} lost")
                if d.mistake
                else _("move {move}, {name}: {card} ({win}); {best} was better ({best_win}): "
                       "{loss} lost")
            )  # fmt: skip
            line = fmt.format(
                move=d.move, name=name, card=played, win=win,
                best=move_name(best.action, rules), best_win=_pct(best.win), loss=_pct(d.loss),
            )  # fmt: skip
        lines.append(line)
        options = "   ".join(
            f"{move_name(o.action, rules)} {_pct(o.win)} {_interval(*o.ci95)}"
            for o in d.values.options
        )
        lines.append("    " + options)
    if not review.decisions:
        lines.append(_("No decision with a choice to review."))
    lines.append("")
    # TRANSLATORS: columns of the review's table, one row a player: the decisions with a
    # choice, the mean win chance lost a decision, the mistakes, the win chance the deal
    # gave the player before anyone decided anything, and the player's share of the win
    rows = [[_("player"), _("decisions"), _("mean loss"), _("mistakes"), _("dealt"),
             _("result")]]  # fmt: skip
    for s in review.seats:
        result = "—" if s.result is None else f"{s.result:g}"
        rows.append(
            [terminal_safe(names[s.seat]), str(s.decisions), _pct(s.mean_loss), str(s.mistakes),
             f"{_pct(s.start.win)} {_interval(*s.start.ci95)}", result]
        )  # fmt: skip
    lines += columns(rows, [12, 9, 9, 8, 10, 6])
    won = [s for s in review.seats if s.result]
    if won and rec.moves:
        lines.append("")
        lines.append(
            ngettext(
                "The deal gave the winner {dealt} of winning before any decision.",
                "The deal gave the winners {dealt} of winning before any decision.",
                len(won),
            ).format(dealt=", ".join(_pct(s.start.win) for s in won))
        )
    return "\n".join(lines)


@app.command(
    help=_(
        "Value every decision of a game record: each legal card's win chance, what each move lost."
    )
)
def review(
    file: Annotated[
        str, typer.Argument(metavar="FILE", help=_("Game record (JSON), or - for stdin."))
    ],
    seat: Annotated[
        int | None, typer.Option("--seat", help=_("Review this seat only (0 is the first)."))
    ] = None,
    seed: Annotated[
        int,
        typer.Option(
            "--seed", help=_("Seed of the sampled worlds: the same seed, the same values.")
        ),
    ] = 0,
    samples: Annotated[
        int,
        typer.Option("--samples", help=_("Worlds sampled a decision: more is slower and sharper.")),
    ] = DEFAULT_SAMPLES,
    as_json: params.Json = False,
    lang: Annotated[str | None, typer.Option("--lang", help=_("Language of the review."))] = None,
) -> None:
    """Value every decision of a game record: each legal card's win chance, what each move lost."""
    use_language(lang)
    check_range("--samples", samples, 1, MAX_SAMPLES)
    try:
        check_seed_option(seed)
        text = read_text(file)
        if _is_tracked(text):
            raise RecordError(
                N_("a table companion's record cannot be reviewed: its players' hands were "
                   "never recorded")
            )  # fmt: skip
        rec = load_record(text)
        game = rec.new_game(events=False)
        if seat is not None and not 0 <= seat < game.n:
            raise RecordError(
                N_("--seat must be from 0 to {last}, not {seat}"), last=game.n - 1, seat=seat
            )
        # the compiled rollouts now (loaded from Numba's cache, or compiled once), not
        # the Python ones while they load: the same values, a fraction of the time
        compiled.FAST_ROLLOUTS = True
        result = review_game(rec, seat=seat, seed=seed, samples=samples)
    except Ono99Error as e:
        raise fail(translate_error(e)) from None
    if as_json:
        print(json.dumps(result.to_json()))
    else:
        print(_text(result, rec, game.rules, game.names))
