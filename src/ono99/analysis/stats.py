"""The report's figures: pure functions from the games' facts to ``summary.json``.

Rates come with Wilson 95 % intervals (:func:`~ono99.arena.tournament.wilson`, a shared
win counting as a fraction), means with a normal-approximation 95 % interval of the
mean. Nothing here plays, reads files or produces words.
"""

from __future__ import annotations

import math
import statistics
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from ono99.analysis.collect import BUST_SITUATIONS, GameData
from ono99.arena.tournament import wilson
from ono99.cards import action_code
from ono99.rules import make_rules

__all__ = ["summarize", "rate", "describe", "histogram"]


def _r(x: float) -> float:
    return round(x, 6)


def rate(hits: float, n: int) -> dict[str, Any]:
    """``hits`` out of ``n`` with its Wilson 95 % interval.

    >>> rate(50, 100)
    {'n': 100, 'hits': 50, 'rate': 0.5, 'ci95': [0.403832, 0.596168]}
    """
    lo, hi = wilson(hits, n)
    return {
        "n": n,
        "hits": _r(hits) if isinstance(hits, float) else hits,
        "rate": _r(hits / n) if n else 0.0,
        "ci95": [_r(lo), _r(hi)],
    }


def _quantile(xs: Sequence[float], q: float) -> float:
    """The ``q`` quantile of sorted ``xs`` (linear between order statistics)."""
    k = (len(xs) - 1) * q
    lo = math.floor(k)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (k - lo)


def describe(values: Sequence[float]) -> dict[str, Any]:
    """Mean (with its 95 % interval), median, 10th and 90th percentiles, min, max.

    >>> d = describe([1, 2, 3, 4])
    >>> d["mean"], d["median"], d["min"], d["max"]
    (2.5, 2.5, 1, 4)
    """
    xs = sorted(values)
    if not xs:
        return {"n": 0, "mean": 0.0, "ci95": [0.0, 0.0], "median": 0.0, "p10": 0.0,
                "p90": 0.0, "min": 0, "max": 0}  # fmt: skip
    mean = statistics.fmean(xs)
    half = 1.959963984540054 * statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else 0.0
    return {
        "n": len(xs),
        "mean": _r(mean),
        "ci95": [_r(mean - half), _r(mean + half)],
        "median": _r(_quantile(xs, 0.5)),
        "p10": _r(_quantile(xs, 0.1)),
        "p90": _r(_quantile(xs, 0.9)),
        "min": xs[0],
        "max": xs[-1],
    }


def histogram(values: Sequence[int], bins: int = 20) -> dict[str, Any]:
    """Counts of ``values`` in equal-width integer bins ``[start, start + width)``.

    >>> histogram([1, 2, 2, 9], bins=4)
    {'start': 1, 'width': 3, 'counts': [3, 0, 1]}
    """
    if not values:
        return {"start": 0, "width": 1, "counts": []}
    lo, hi = min(values), max(values)
    width = max(1, math.ceil((hi - lo + 1) / bins))
    counts = [0] * ((hi - lo) // width + 1)
    for v in values:
        counts[(v - lo) // width] += 1
    return {"start": lo, "width": width, "counts": counts}


def _shares(games: Sequence[GameData], n: int) -> list[float]:
    """Wins per seat (a shared win split)."""
    wins = [0.0] * n
    for g in games:
        for s in g.winners:
            wins[s] += 1.0 / len(g.winners)
    return wins


def _whole(x: float) -> float:
    """``x`` as an int where it is one (a count, unless a shared place split it)."""
    return int(x) if x == int(x) else x


def _seats(games: Sequence[GameData], n: int) -> dict[str, Any]:
    wins = _shares(games, n)
    # "first out": placed last (R-END-3: of those put out at the first round's end, the
    # most points, not the lowest seat); a last place shared is split
    first_out = [0.0] * n
    for g in games:
        if g.out:
            worst = max(g.places) if g.places else 0
            last = [s for s, p in enumerate(g.places) if p == worst] or g.out[:1]
            for s in last:
                first_out[s] += 1.0 / len(last)
    with_out = sum(1 for g in games if g.out)
    rows = [rate(wins[s], len(games)) for s in range(n)]
    fair = 1.0 / n
    return {
        "fair": _r(fair),
        "wins": rows,
        # seats whose interval leaves out the fair share 1/n
        "unfair": [s for s, r in enumerate(rows) if not r["ci95"][0] <= fair <= r["ci95"][1]],
        "first_out": [rate(_whole(first_out[s]), with_out) for s in range(n)],
    }


def _length(games: Sequence[GameData], mode: str) -> dict[str, Any]:
    moves = [g.moves for g in games]
    out: dict[str, Any] = {
        "moves": describe(moves),
        "moves_histogram": histogram(moves),
        "plays": describe([g.plays for g in games]),
        "turns_per_player": describe([t for g in games for t in g.turns]),
    }
    if mode != "elimination":
        rounds = [g.rounds for g in games]
        out["rounds"] = describe(rounds)
        out["rounds_histogram"] = histogram(rounds)
    return out


def _busts(games: Sequence[GameData]) -> dict[str, Any]:
    busts = [b for g in games for b in g.busts]
    n = len(busts)
    counts = Counter(b["situation"] for b in busts)
    totals = [b["total"] for b in busts]
    return {
        "count": n,
        "per_game": describe([len(g.busts) for g in games]),
        "situations": {s: rate(counts[s], n) for s in BUST_SITUATIONS},
        "totals": describe(totals),
        "totals_counts": {str(t): c for t, c in sorted(Counter(totals).items())},
    }


def _cards(games: Sequence[GameData], deck: Sequence[int], floor: bool) -> dict[str, Any]:
    kinds = [c for c in range(16) if deck[c]]
    plays = [sum(seat[c] for g in games for seat in g.played) for c in range(16)]
    all_plays = sum(plays)
    totals: Counter[int] = Counter()
    for g in games:
        for t, k in g.totals.items():
            totals[int(t)] += k
    return {
        "plays": {action_code(c): rate(plays[c], all_plays) for c in kinds},
        "opening_hand": {action_code(c): _opening_impact(games, c) for c in kinds},
        "totals_counts": {str(t): k for t, k in sorted(totals.items())},
        "total_after_play": describe(sorted(t for t, k in totals.items() for _ in range(k))),
        "floor_zero": floor,
        **_rare(games, plays[11], all_plays),
    }


def _rare(games: Sequence[GameData], minus10: int, all_plays: int) -> dict[str, Any]:
    """How often the rarer things happened: the floor at 0, a total below 0, a reshuffle,
    four 99s at once, a draw lost."""
    return {
        "floor_hits": rate(sum(g.floor_hits for g in games), minus10),
        "floor_games": _games_with(games, [g.floor_hits for g in games]),
        "negative_plays": rate(sum(g.negative_plays for g in games), all_plays),
        "negative_games": _games_with(games, [g.negative_plays for g in games]),
        "min_total": min((g.min_total for g in games), default=0),
        "reshuffles": describe([g.reshuffles for g in games]),
        "reshuffle_games": _games_with(games, [g.reshuffles for g in games]),
        "four99": sum(g.four99 for g in games),
        "four99_games": _games_with(games, [g.four99 for g in games]),
        "draws_lost": sum(g.draws_lost for g in games),
        "draws_lost_games": _games_with(games, [g.draws_lost for g in games]),
    }


def _games_with(games: Sequence[GameData], counts: Sequence[int]) -> dict[str, Any]:
    """The rate of games in which ``counts`` (one a game) is not 0."""
    return rate(sum(1 for k in counts if k), len(games))


def _opening_impact(games: Sequence[GameData], c: int) -> dict[str, Any]:
    """The win rate of the seats dealt card ``c`` in their opening hand, and of the rest."""
    held_wins = held = free_wins = free = 0.0
    for g in games:
        share = {s: 1.0 / len(g.winners) for s in g.winners}
        for s, hand in enumerate(g.opening):
            if c in hand:
                held += 1
                held_wins += share.get(s, 0.0)
            else:
                free += 1
                free_wins += share.get(s, 0.0)
    return {"with": rate(held_wins, int(held)), "without": rate(free_wins, int(free))}


def _trajectory(games: Sequence[GameData]) -> dict[str, Any]:
    """Mean tokens (or points) after round r of the eventual winner(s) and of the other
    players still in the game, over the games still going after round r (rounds up to
    the 90th percentile of the round count)."""
    if not games or not any(g.trajectory for g in games):
        return {"rounds": [], "winner": [], "others": [], "games": []}
    last = max(1, math.ceil(_quantile(sorted(len(g.trajectory) for g in games), 0.9)))
    winner: list[float] = []
    others: list[float] = []
    count: list[int] = []
    for r in range(last):
        w_vals: list[float] = []
        o_vals: list[float] = []
        k = 0
        for g in games:
            if len(g.trajectory) <= r:
                continue
            k += 1
            row = g.trajectory[r]
            for s, v in enumerate(row):
                if v < 0:  # eliminated (token modes)
                    continue
                (w_vals if s in g.winners else o_vals).append(v)
        count.append(k)
        winner.append(_r(statistics.fmean(w_vals)) if w_vals else 0.0)
        others.append(_r(statistics.fmean(o_vals)) if o_vals else 0.0)
    return {"rounds": list(range(1, last + 1)), "winner": winner, "others": others,
            "games": count}  # fmt: skip


def _bots(games: Sequence[GameData]) -> dict[str, Any]:
    """Win rate per bot name over the seats it held (a shared win split)."""
    seats: Counter[str] = Counter()
    wins: dict[str, float] = {}
    for g in games:
        for s, b in enumerate(g.bots):
            seats[b] += 1
            if s in g.winners:
                wins[b] = wins.get(b, 0.0) + 1.0 / len(g.winners)
    return {b: rate(wins.get(b, 0.0), seats[b]) for b in sorted(seats)}


def _skill(games: Sequence[GameData], n: int) -> dict[str, Any] | None:
    """The reviewed games' figures (docs/analyze.md "How much is skill"): per bot, the
    win chance its decisions lost (:func:`_skill_bots`); and how much of the outcome the
    deal predicted (:func:`_skill_deal`)."""
    seats = [(g, s, r) for g in games if g.review for s, r in enumerate(g.review)]
    if not seats:
        return None
    return {
        "games": sum(1 for g in games if g.review),
        "bots": _skill_bots(seats),
        "deal": _skill_deal(games, seats, n),
    }


def _skill_bots(seats: list[tuple[GameData, int, dict[str, Any]]]) -> dict[str, Any]:
    """Per bot, over its reviewed seats: the decisions, the win chance each lost, the
    mistakes, the loss per game."""
    by_bot: dict[str, list[dict[str, Any]]] = {}
    for g, s, r in seats:
        by_bot.setdefault(g.bots[s], []).append(r)
    bots = {}
    for b in sorted(by_bot):
        rs = by_bot[b]
        losses = [x for r in rs for x in r["losses"]]
        decisions = sum(r["decisions"] for r in rs)
        bots[b] = {
            "seats": len(rs),
            "decisions": decisions,
            "loss": describe(losses),
            "mistakes": rate(sum(r["mistakes"] for r in rs), decisions),
            "loss_per_game": describe([sum(r["losses"]) for r in rs]),
        }
    return bots


def _skill_deal(
    games: Sequence[GameData], seats: list[tuple[GameData, int, dict[str, Any]]], n: int
) -> dict[str, Any]:
    """How much of the outcome the deal predicted: a Brier skill score, 1 - mean((result -
    dealt)^2) / mean((result - 1/n)^2), the part of the outcome's squared error that knowing
    each seat's dealt win chance removes (0: the deal says nothing, 1: it decides the
    game); and how often the seat the deal favoured won."""
    done = [(r["start"], r["result"]) for _, _, r in seats if r["result"] is not None]
    even = 1.0 / n
    brier_deal = statistics.fmean((res - st) ** 2 for st, res in done) if done else 0.0
    brier_even = statistics.fmean((res - even) ** 2 for _, res in done) if done else 0.0
    favourite = 0.0
    finished = [g for g in games if g.review and all(r["result"] is not None for r in g.review)]
    for g in finished:
        assert g.review is not None
        top = max(r["start"] for r in g.review)
        fav = [r for r in g.review if r["start"] == top]
        favourite += statistics.fmean(r["result"] for r in fav)
    return {
        "dealt": describe([st for st, _ in done]),
        "brier_deal": _r(brier_deal),
        "brier_even": _r(brier_even),
        "share": _r(1.0 - brier_deal / brier_even) if brier_even else 0.0,
        "favourite_won": rate(favourite, len(finished)),
        "even": _r(even),
    }


def summarize(games: Sequence[GameData], meta: Mapping[str, Any]) -> dict[str, Any]:
    """Every figure of the report. ``meta`` holds at least ``rules``, ``options`` and
    ``players``; it is copied into the summary as it is (seed, bots, backend...)."""
    rules = make_rules(meta["rules"], meta.get("options") or {})
    n = int(meta["players"])
    mode = rules.mode
    return {
        **meta,
        "mode": mode,
        "games": len(games),
        "seats": _seats(games, n),
        "length": _length(games, mode),
        "busts": _busts(games),
        "cards": _cards(games, rules.deck, rules.floor_zero),
        "trajectory": _trajectory(games) if mode != "elimination" else None,
        "bots": _bots(games),
        "skill": _skill(games, n),
    }
