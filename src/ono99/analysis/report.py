"""``report.html``: the summary as one self-contained page (inline CSS and SVG, no
script, no external file), in the current language (:mod:`ono99.i18n`).

Every number on the page comes from the summary (:func:`ono99.analysis.stats.summarize`)
and is written with :func:`pct` (rates) or :func:`num` (everything else), so a test can
find each figure of ``summary.json`` on the page.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

from ono99.analysis.collect import BUST_SITUATIONS
from ono99.analysis.svg import bar_chart, line_chart
from ono99.i18n import N_, _, get_language

__all__ = ["findings", "num", "pct", "render"]

#: what was going on at a bust (collect.BUST_SITUATIONS), in words
SITUATIONS = {
    "play2_first": N_("owing two (Play 2), no first play"),
    "play2_second": N_("owing two (Play 2), no second play"),
    "after_reverse": N_("right after a Reverse"),
    "other": N_("other"),
}

CSS = """
:root{--fg:#1d2330;--muted:#5b6475;--bar:#3b6fb6;--accent:#c2452d;--line:#d6dae2;--bg:#fff}
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI","Noto Sans","Noto Sans Tamil",
"Noto Sans Gujarati","Noto Sans Kannada","Noto Sans Myanmar",sans-serif;color:var(--fg);
background:var(--bg)}
main{max-width:52rem;margin:0 auto;padding:1rem}
h1{font-size:1.5rem;margin:.5rem 0}h2{font-size:1.2rem;margin:2rem 0 .5rem;
border-bottom:2px solid var(--line)}
.meta{color:var(--muted)}.finding{font-weight:600}
svg.chart{width:100%;height:auto;max-width:40rem;display:block;margin:.5rem 0}
.chart .bar{fill:var(--bar)}.chart .grid{stroke:var(--line)}.chart .axis{stroke:var(--fg)}
.chart .tick{font-size:13px;fill:var(--fg)}.chart .label{font-size:14px;fill:var(--muted)}
.chart .whisker{stroke:var(--fg);stroke-width:1.5;fill:none}
.chart .ref{stroke:var(--accent);stroke-width:2;stroke-dasharray:6 4}
.chart .line{fill:none;stroke-width:2.5}.chart .s0{stroke:var(--accent);fill:var(--accent)}
.chart .s1{stroke:var(--bar);fill:var(--bar)}.chart polyline.line{fill:none}
.scroll{overflow-x:auto}
table{border-collapse:collapse;margin:.5rem 0;font-size:.95rem}
th,td{padding:.3rem .5rem;border-bottom:1px solid var(--line);text-align:right}
td{white-space:nowrap}th:first-child,td:first-child{text-align:left;white-space:normal}
footer{margin-top:2rem;color:var(--muted);font-size:.9rem}
"""


def pct(x: float) -> str:
    """A rate as the page writes it: ``0.2534`` -> ``25.3 %``."""
    return f"{x * 100:.1f} %"


def num(x: float) -> str:
    """A number as the page writes it: integers as they are, others to 1 decimal."""
    return str(int(x)) if float(x).is_integer() else f"{x:.1f}"


def _ci(r: Mapping[str, Any]) -> str:
    lo, hi = r["ci95"]
    return f"{pct(lo)} – {pct(hi)}"


def _h2(title: str) -> str:
    return f"<h2>{escape(title)}</h2>"


def _table(head: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    th = "".join(f"<th>{escape(h)}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{escape(c)}</td>" for c in row) + "</tr>" for row in rows)
    return f'<div class="scroll"><table><thead><tr>{th}</tr></thead><tbody>{body}</tbody></table></div>'


def _best_card(s: Mapping[str, Any]) -> tuple[str, Mapping[str, Any]] | None:
    """The card whose presence in the opening hand moves the win rate most."""
    impact = s["cards"]["opening_hand"]
    rows = [(c, r) for c, r in impact.items() if r["with"]["n"] and r["without"]["n"]]
    if not rows:
        return None
    return max(rows, key=lambda cr: abs(cr[1]["with"]["rate"] - cr[1]["without"]["rate"]))


def findings(s: Mapping[str, Any]) -> list[str]:
    """The report's plain-language findings, one sentence each, in the current language."""
    out = []
    seats = s["seats"]
    first = seats["wins"][0]
    lo, hi = first["ci95"]
    out.append(
        _(
            "The first player (left of the dealer) wins {rate} of games (95% CI {lo} – {hi}); "
            "a fair seat would win {fair}."
        ).format(rate=pct(first["rate"]), lo=pct(lo), hi=pct(hi), fair=pct(seats["fair"]))
    )
    if seats["unfair"]:
        out.append(
            _("Seats whose 95% CI leaves out the fair share: {seats}.").format(
                seats=", ".join(str(x + 1) for x in seats["unfair"])
            )
        )
    else:
        out.append(_("Every seat's 95% CI holds the fair share: no seat advantage shows."))
    length = s["length"]
    moves = length["moves"]
    out.append(
        _(
            "A game takes {median} moves (median; 10th to 90th percentile: {p10} to {p90}) "
            "and {turns} turns per player."
        ).format(
            median=num(moves["median"]),
            p10=num(moves["p10"]),
            p90=num(moves["p90"]),
            turns=num(length["turns_per_player"]["median"]),
        )
    )
    if "rounds" in length:
        out.append(
            _("A game lasts {median} rounds (median; at most {max}).").format(
                median=num(length["rounds"]["median"]), max=num(length["rounds"]["max"])
            )
        )
    busts = s["busts"]
    if busts["count"]:
        sit = busts["situations"]
        p2 = sit["play2_first"]["hits"] + sit["play2_second"]["hits"]
        out.append(
            _(
                "{play2} of busts come under a Play 2 obligation (R-P2-4) and {reverse} "
                "right after a Reverse; the median total at a bust is {total}."
            ).format(
                play2=pct(p2 / busts["count"]),
                reverse=pct(sit["after_reverse"]["rate"]),
                total=num(busts["totals"]["median"]),
            )
        )
    best = _best_card(s)
    if best is not None:
        card, r = best
        out.append(
            _(
                "Players dealt a {card} in their opening hand win {with_} of games, "
                "players without one {without}."
            ).format(card=card, with_=pct(r["with"]["rate"]), without=pct(r["without"]["rate"]))
        )
    skill = s.get("skill")
    if skill:
        deal = skill["deal"]
        out.append(
            _(
                "In the {games} games reviewed, the deal predicted {share} of the outcome "
                "(Brier skill score); the player the deal favoured won {fav} of them "
                "(by chance: {even})."
            ).format(
                games=skill["games"],
                share=pct(deal["share"]),
                fav=pct(deal["favourite_won"]["rate"]),
                even=pct(deal["even"]),
            )
        )
    return out


def _skill(s: Mapping[str, Any]) -> str:
    skill = s.get("skill")
    review = s.get("review") or {}
    if not skill:
        return "<p>" + escape(
            _("No game was reviewed (--review 0): run with --review K to value the decisions "
              "of K games.")
        ) + "</p>"  # fmt: skip
    bots = skill["bots"]
    deal = skill["deal"]
    intro = _(
        "{games} games were reviewed as `ono99 review` does (docs/review.md): each decision "
        "with a choice valued from the deciding seat's own view, {samples} worlds a "
        "decision, every seat then playing the heuristic. A decision's loss is the win chance "
        "it gave away against the best move; a mistake loses 5 points or more, clearly."
    ).format(games=skill["games"], samples=review.get("samples", "?"))
    labels = list(bots)
    chart = bar_chart(
        labels, [b["loss"]["mean"] for b in bots.values()],
        low=[max(0.0, b["loss"]["ci95"][0]) for b in bots.values()],
        high=[b["loss"]["ci95"][1] for b in bots.values()],
        percent=True, title=_("Win chance lost per decision"),
        x_label=_("bot"), y_label=_("mean loss per decision"),
    )  # fmt: skip
    table = _table(
        [_("bot"), _("decisions"), _("mean loss per decision"), _("95% CI"),
         _("mistakes (share of decisions)"), _("lost per game")],
        [
            [b, str(r["decisions"]), pct(r["loss"]["mean"]),
             f'{pct(r["loss"]["ci95"][0])} – {pct(r["loss"]["ci95"][1])}',
             pct(r["mistakes"]["rate"]), pct(r["loss_per_game"]["mean"])]
            for b, r in bots.items()
        ],
    )  # fmt: skip
    dealt = deal["dealt"]
    deal_text = _(
        "The deal: each seat's win chance when the game began, before any decision, ranged "
        "from {p10} to {p90} (10th to 90th percentile). It predicted {share} of the outcome "
        "(Brier score {brier} against {even_brier} for an even {even} each); the seat it "
        "favoured won {fav} of the games (95% CI {lo} – {hi}). The rest is the draws and "
        "the decisions."
    ).format(
        p10=pct(dealt["p10"]), p90=pct(dealt["p90"]), share=pct(deal["share"]),
        brier=f'{deal["brier_deal"]:.3f}', even_brier=f'{deal["brier_even"]:.3f}',
        even=pct(deal["even"]), fav=pct(deal["favourite_won"]["rate"]),
        lo=pct(deal["favourite_won"]["ci95"][0]), hi=pct(deal["favourite_won"]["ci95"][1]),
    )  # fmt: skip
    return f"<p>{escape(intro)}</p>" + chart + table + f"<p>{escape(deal_text)}</p>"


def _seats(s: Mapping[str, Any]) -> str:
    seats = s["seats"]
    rows = seats["wins"]
    labels = [str(i + 1) for i in range(len(rows))]
    chart = bar_chart(
        labels, [r["rate"] for r in rows],
        low=[r["ci95"][0] for r in rows], high=[r["ci95"][1] for r in rows],
        ref=seats["fair"], percent=True, title=_("Who wins by seat"),
        x_label=_("seat (1 = first to play)"), y_label=_("win rate"),
    )  # fmt: skip
    elim = any(r["n"] for r in seats["first_out"])
    head = [_("seat"), _("wins"), _("win rate"), _("95% CI (Wilson)")]
    if elim:
        head.append(_("first out"))
    table_rows = []
    for i, r in enumerate(rows):
        row = [labels[i], num(r["hits"]), pct(r["rate"]), _ci(r)]
        if elim:
            row.append(pct(seats["first_out"][i]["rate"]))
        table_rows.append(row)
    return chart + _table(head, table_rows)


def _hist_chart(h: Mapping[str, Any], title: str, x_label: str, y_label: str) -> str:
    start, width, counts = h["start"], h["width"], h["counts"]
    labels = [str(start + i * width) for i in range(len(counts))]
    return bar_chart(labels, counts, title=title, x_label=x_label, y_label=y_label)


def _length(s: Mapping[str, Any]) -> str:
    length = s["length"]
    out = _hist_chart(length["moves_histogram"], _("Game length"), _("moves per game"),
                      _("games"))  # fmt: skip
    rows = []
    keys = [("moves", _("moves per game")), ("turns_per_player", _("turns per player"))]
    if "rounds" in length:
        keys.append(("rounds", _("rounds per game")))
    for key, label in keys:
        d = length[key]
        rows.append([label, num(d["mean"]), f"{num(d['ci95'][0])} – {num(d['ci95'][1])}",
                     num(d["median"]), f"{num(d['p10'])} – {num(d['p90'])}", num(d["max"])])  # fmt: skip
    # TRANSLATORS: columns of a table of game lengths: mean (average), its 95% interval,
    # median, the 10th to 90th percentile range, maximum
    head = ["", _("mean"), _("95% CI"), _("median"), _("10–90 %"), _("max")]
    out += _table(head, rows)
    if "rounds_histogram" in length:
        out += _hist_chart(length["rounds_histogram"], _("rounds per game"), _("rounds per game"),
                           _("games"))  # fmt: skip
    return out


def _busts(s: Mapping[str, Any]) -> str:
    busts = s["busts"]
    if not busts["count"]:
        return ""
    rows = [
        [_(SITUATIONS[k]), num(busts["situations"][k]["hits"]), pct(busts["situations"][k]["rate"]),
         _ci(busts["situations"][k])]
        for k in BUST_SITUATIONS
    ]  # fmt: skip
    out = _table([_("situation"), _("busts"), _("share"), _("95% CI (Wilson)")], rows)
    counts = {int(t): c for t, c in busts["totals_counts"].items()}
    lo, hi = min(counts), max(counts)
    labels = [str(t) for t in range(lo, hi + 1)]
    out += bar_chart(labels, [counts.get(t, 0) for t in range(lo, hi + 1)],
                     title=_("total at the bust"), x_label=_("total at the bust"),
                     y_label=_("busts"))  # fmt: skip
    return out


def _cards(s: Mapping[str, Any]) -> str:
    cards = s["cards"]
    plays = cards["plays"]
    codes = list(plays)
    out = bar_chart(codes, [plays[c]["rate"] for c in codes], percent=True,
                    title=_("share of plays"), x_label=_("card"), y_label=_("share of plays"))  # fmt: skip
    rows = []
    for c in codes:
        imp = cards["opening_hand"][c]
        rows.append([c, num(plays[c]["hits"]), pct(plays[c]["rate"]),
                     f"{pct(imp['with']['rate'])} ({_ci(imp['with'])})",
                     f"{pct(imp['without']['rate'])} ({_ci(imp['without'])})"])  # fmt: skip
    out += _table(
        [_("card"), _("plays"), _("share of plays"), _("win rate with it in the opening hand"),
         _("win rate without it")],
        rows,
    )  # fmt: skip
    counts = {int(t): c for t, c in cards["totals_counts"].items()}
    if counts:
        lo, hi = min(counts), max(counts)
        out += bar_chart(
            [str(t) for t in range(lo, hi + 1)], [counts.get(t, 0) for t in range(lo, hi + 1)],
            title=_("running total after a play"), x_label=_("running total after a play"),
            y_label=_("plays"),
        )  # fmt: skip
    events: list[tuple[str, Any, Mapping[str, Any]]] = []
    if cards["floor_zero"]:
        events.append((_("-10 stopped at 0 (R-M10-1)"), cards["floor_hits"]["hits"],
                       cards["floor_games"]))  # fmt: skip
    else:
        events.append((_("plays that left the total below 0"), cards["negative_plays"]["hits"],
                       cards["negative_games"]))  # fmt: skip
    events.append((_("reshuffles (R-TURN-3)"), round(cards["reshuffles"]["mean"] * s["games"]),
                   cards["reshuffle_games"]))  # fmt: skip
    if s["rules"] == "mattel2022":
        events.append((_("four 99s discarded (R-99-3)"), cards["four99"], cards["four99_games"]))
    if (s.get("options") or {}).get("draw_penalty"):
        events.append((_("lost draws (R-DRAW-1)"), cards["draws_lost"], cards["draws_lost_games"]))
    out += _table(
        ["", _("count"), _("games with one"), _("95% CI (Wilson)")],
        [[label, num(k), pct(r["rate"]), _ci(r)] for label, k, r in events],
    )
    return out


def _trajectory(s: Mapping[str, Any]) -> str:
    t = s.get("trajectory")
    if not t or not t["rounds"]:
        return ""
    y_label = _("points") if s["mode"] == "points" else _("tokens left")
    return line_chart(
        t["rounds"], [(_("winner"), t["winner"]), (_("the others"), t["others"])],
        title=y_label, x_label=_("round"), y_label=y_label,
    ) + _table(
        [_("round"), _("winner"), _("the others"), _("games")],
        [[str(r), num(w), num(o), str(k)]
         for r, w, o, k in zip(t["rounds"], t["winner"], t["others"], t["games"], strict=True)],
    )  # fmt: skip


def _bots(s: Mapping[str, Any]) -> str:
    bots = s["bots"]
    if len(bots) < 2:
        return ""
    return _h2(_("bots")) + _table(
        [_("bot"), _("games"), _("wins"), _("win rate"), _("95% CI (Wilson)")],
        [[b, str(r["n"]), num(r["hits"]), pct(r["rate"]), _ci(r)] for b, r in bots.items()],
    )


def render(s: Mapping[str, Any], files: Sequence[str] = ()) -> str:
    """The whole page for summary ``s``; ``files``: the raw-data files beside it."""
    lang = get_language()
    preset = s["rules"] + (" " + ", ".join(f"{k}={v}" for k, v in s["options"].items())
                           if s.get("options") else "")  # fmt: skip
    title = _("ONO 99 rules analysis")
    meta = _("{preset}: {players} players, {games} games of {bots}; seed {seed}").format(
        preset=preset, players=s["players"], games=s["games"],
        bots=", ".join(dict.fromkeys(s["lineup"])), seed=s["seed"],
    )  # fmt: skip
    found = findings(s)
    parts = [
        f"<h1>{escape(title)}</h1>",
        f'<p class="meta">{escape(meta)}</p>',
        "<ul>" + "".join(f'<li class="finding">{escape(f)}</li>' for f in found) + "</ul>",
        _h2(_("Who wins by seat")),
        _seats(s),
        _h2(_("Game length")),
        _length(s),
        _h2(_("How players go out")),
        _busts(s),
        _h2(_("Cards")),
        _cards(s),
    ]
    traj = _trajectory(s)
    if traj:
        parts += [_h2(_("Tokens and points over the rounds")), traj]
    parts.append(_bots(s))
    parts += [_h2(_("How much is skill")), _skill(s)]
    if files:
        parts.append(
            "<footer>"
            + escape(
                _("Raw data beside this file: {files}. How each figure is computed: "
                  "docs/analyze.md.").format(files=", ".join(files))
            )
            + "</footer>"
        )  # fmt: skip
    return (
        f'<!doctype html>\n<html lang="{escape(lang)}" dir="ltr"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{escape(title)}</title><style>{CSS}</style></head><body><main>"
        + "\n".join(parts)
        + "</main></body></html>\n"
    )
