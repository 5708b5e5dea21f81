"""Tournament logic: line-ups, seat rotation, seeds, one game, and the tally.

Duplicate format: the ``players`` games of one rotation block (games ``i`` with the
same ``i // players``) are dealt from the same seed, so every entry plays every seat
of the same deal; the luck of the deal cancels out and fewer games tell bots apart.

Determinism: game ``i`` is played with the game seed ``"arena:K:<i // players>"`` and
the bot in seat ``s`` is made with a seed derived from (K, i, s) only, so a game's result does
not depend on which worker plays it or in what order (backends just map
:func:`play_games` over chunks of game indices and the results are sorted).

Bots in a game see only views: :func:`play_game` passes ``game.view(seat)`` to
``bot.act`` and never the game.
"""

from __future__ import annotations

import hashlib
import math
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ono99.bots import make_bot
from ono99.cards import DRAW
from ono99.errors import IllegalAction
from ono99.game import Game
from ono99.i18n import N_, _
from ono99.rules import make_rules

__all__ = [
    "MAX_GAMES",
    "MAX_ITERATIONS",
    "ArenaSpec",
    "GameResult",
    "entry_names",
    "make_spec",
    "play_game",
    "play_games",
    "tally",
    "wilson",
    "t_quantile",
    "bot_seed",
    "game_seed",
    "deal_game",
    "next_actor",
]


#: the most games one tournament (``ono99 arena``, ``ono99 analyze``) plays
MAX_GAMES = 1_000_000
#: the most iterations of an ``ismcts:N`` bot (seconds a decision; more would never end)
MAX_ITERATIONS = 100_000


def _check_iterations(bot: str) -> None:
    """``ismcts:N`` with N above :data:`MAX_ITERATIONS`: a one-line ValueError, before the
    bot is made."""
    name, _sep, rest = bot.partition(":")
    first = rest.split(":")[0]
    if name == "ismcts" and first.isdigit() and (len(first) > 9 or int(first) > MAX_ITERATIONS):
        raise ValueError(
            _("ismcts:N takes at most {most} iterations, not {iterations}").format(
                most=f"{MAX_ITERATIONS:,}", iterations=first
            )
        )


@dataclass(frozen=True)
class ArenaSpec:
    """What to play. ``bots`` are the names as given; ``names`` the entries' display
    names (a name given twice becomes ``name#2``); ``lineup`` the entry index of each
    seat before rotation (seats filled cyclically when players > bots)."""

    bots: tuple[str, ...]
    names: tuple[str, ...]
    players: int
    rules: str
    options: Mapping[str, Any] = field(hash=False)
    games: int
    seed: int

    @property
    def lineup(self) -> tuple[int, ...]:
        return tuple(i % len(self.bots) for i in range(self.players))

    def seating(self, game: int) -> tuple[int, ...]:
        """Entry index in each seat of game ``game``: the line-up rotated by ``game``
        places, so over every ``players`` games each entry sits in each seat equally."""
        n = self.players
        lineup = self.lineup
        r = game % n
        return tuple(lineup[(s - r) % n] for s in range(n))


def entry_names(bots: Sequence[str]) -> tuple[str, ...]:
    """Display names: the second ``heuristic`` is ``heuristic#2``, the third ``#3``.

    >>> entry_names(["heuristic", "random", "heuristic"])
    ('heuristic', 'random', 'heuristic#2')
    """
    seen: dict[str, int] = {}
    out = []
    for b in bots:
        seen[b] = seen.get(b, 0) + 1
        out.append(b if seen[b] == 1 else f"{b}#{seen[b]}")
    return tuple(out)


def make_spec(
    bots: Sequence[str],
    players: int | None = None,
    rules: str = "mattel2022",
    options: Mapping[str, Any] | None = None,
    games: int = 100,
    seed: int = 0,
) -> ArenaSpec:
    """Validate a tournament (raises :class:`ValueError` with a one-line reason).

    ``games`` is rounded up to a multiple of ``players`` so that seats rotate evenly. A
    single bot plays itself: each seat is an entry of its own (``random``, ``random#2``...),
    since one entry holding every seat could not be compared or rated."""
    bots = [b.strip() for b in bots]
    if not bots or any(not b for b in bots):
        raise ValueError(_("--bots needs a comma-separated list of bot names"))
    made = []
    for b in bots:
        _check_iterations(b)
        made.append(make_bot(b, 0))  # unknown names fail here
    n = len(bots) if players is None else players
    if n < len(bots):
        raise ValueError(
            _("{bots} bots need at least {bots} players, not {players}").format(
                bots=len(bots), players=n
            )
        )
    r = make_rules(rules, options)
    r.check_players(n)
    for bot in made:  # e.g. a learned policy trained for another player count
        bot.check_game(r, n)
    if not 1 <= games <= MAX_GAMES:
        raise ValueError(
            _("{option} must be from {low} to {high}, not {value}").format(
                option="--games", low=1, high=f"{MAX_GAMES:,}", value=games
            )
        )
    games = math.ceil(games / n) * n
    if len(bots) == 1:  # a bot against itself: one entry per seat (random, random#2, ...)
        bots = bots * n
    return ArenaSpec(
        bots=tuple(bots),
        names=entry_names(bots),
        players=n,
        rules=rules,
        options=dict(r.options),
        games=games,
        seed=seed,
    )


def game_seed(spec: ArenaSpec, game: int) -> int:
    """The deal seed of game ``game`` (128 bits, from the arena's seed and the block only):
    shared by its rotation block (duplicate format)."""
    h = hashlib.blake2b(f"arena:{spec.seed}:{game // spec.players}".encode(), digest_size=16)
    return int.from_bytes(h.digest(), "big")


def bot_seed(seed: int, game: int, seat: int) -> int:
    """The seed of the bot in ``seat`` of game ``game`` (from these three only)."""
    h = hashlib.blake2b(f"arena-bot:{seed}:{game}:{seat}".encode(), digest_size=8)
    return int.from_bytes(h.digest(), "big") >> 1


@dataclass
class GameResult:
    index: int
    #: entry index per seat
    seating: tuple[int, ...]
    #: winning seats (several for a shared win)
    winners: tuple[int, ...]
    #: finishing place per seat, 1 = winner
    places: tuple[int, ...]
    decisions: int
    #: decision times in ms, per entry
    times: dict[int, list[float]]


def _places(g: Game) -> tuple[int, ...]:
    """Winner(s) 1st; players still in the game next (fewer points first in points
    mode); eliminated players after them, the last one out best."""
    n = g.n
    w = g.winner
    winners = set(w if isinstance(w, list) else [w])
    key: dict[int, tuple[int, int]] = {}
    out = g.out
    for s in range(n):
        if s in winners:
            key[s] = (0, 0)
        elif s in out:
            key[s] = (2, -out.index(s))
        else:
            key[s] = (1, g.scores[s] if g.scores is not None else 0)
    order = sorted(set(key.values()))
    return tuple(order.index(key[s]) + 1 for s in range(n))


def deal_game(spec: ArenaSpec, index: int) -> Game:
    """The engine game of game ``index``: its seating's names and its block's deal."""
    return Game(
        make_rules(spec.rules, spec.options),
        [spec.names[e] for e in spec.seating(index)],
        seed=game_seed(spec, index),
        events=False,
    )


def next_actor(g: Game) -> int | None:
    """Who acts now in a game between bots (None: the game is over). Bots draw at once
    (R-DRAW-1): a pending draw wins its race with the next play."""
    acting = g.acting()
    if not acting:
        return None
    seat = next((s for s, acts in acting.items() if acts == (DRAW,)), g.to_move)
    assert seat is not None
    return seat


def play_game(spec: ArenaSpec, index: int, timed: bool = True) -> GameResult:
    """Play game ``index`` of the tournament; each bot sees only its own view."""
    seating = spec.seating(index)
    g = deal_game(spec, index)
    bots = [make_bot(spec.bots[e], bot_seed(spec.seed, index, s)) for s, e in enumerate(seating)]
    times: dict[int, list[float]] = {e: [] for e in set(seating)}
    clock = time.perf_counter
    decisions = 0
    while (seat := next_actor(g)) is not None:
        view = g.view(seat)
        t0 = clock()
        action = bots[seat].act(view)
        dt = (clock() - t0) * 1000.0
        if action not in view.legal:
            raise IllegalAction(
                N_("bot {bot} chose {action}, not one of {legal}"),
                bot=spec.names[seating[seat]], action=repr(action), legal=str(view.legal),
            )  # fmt: skip
        if action != DRAW and timed:
            times[seating[seat]].append(dt)
        g.apply(action)
        decisions += 1
    w = g.winner
    winners = tuple(w) if isinstance(w, list) else (w,) if w is not None else ()
    return GameResult(index, seating, winners, _places(g), decisions, times)


def play_games(spec: ArenaSpec, indices: Iterable[int]) -> list[GameResult]:
    """Play the given games in order (what a worker does with its chunk)."""
    return [play_game(spec, i) for i in indices]


def wilson(wins: float, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """Wilson score interval of a win rate (95 % by default).

    >>> lo, hi = wilson(50, 100)
    >>> round(lo, 3), round(hi, 3)
    (0.404, 0.596)
    """
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    lo = 0.0 if wins <= 0 else max(0.0, centre - half)
    hi = 1.0 if wins >= n else min(1.0, centre + half)
    return (lo, hi)


def _percentile(sorted_xs: list[float], q: float) -> float:
    if not sorted_xs:
        return 0.0
    k = (len(sorted_xs) - 1) * q
    lo = math.floor(k)
    hi = min(lo + 1, len(sorted_xs) - 1)
    return sorted_xs[lo] + (sorted_xs[hi] - sorted_xs[lo]) * (k - lo)


def t_quantile(p: float, df: int) -> float:
    """The ``p`` quantile (``p`` ≥ 0.5) of Student's t with ``df`` degrees of freedom.

    Exact for ``df`` ≤ 200 (bisection on the closed form of the t distribution for whole
    degrees of freedom, Abramowitz & Stegun 26.7.3–4), the Cornish–Fisher expansion above
    (off by less than 1e-6 there); no SciPy in the core install.

    >>> round(t_quantile(0.975, 1), 3), round(t_quantile(0.975, 10), 3)
    (12.706, 2.228)
    >>> round(t_quantile(0.975, 10_000), 3)
    1.96
    """
    if df < 1 or not 0.5 <= p < 1:
        raise ValueError(f"t_quantile needs df >= 1 and 0.5 <= p < 1, not df={df}, p={p}")
    if df > 200:
        z = _normal_quantile(p)
        return (
            z
            + (z**3 + z) / (4 * df)
            + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df**2)
            + (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * df**3)
        )
    central = 2 * p - 1  # P(|T| <= t)
    lo, hi = 0.0, 1.0
    while _t_central(hi, df) < central:
        hi *= 2
    for _i in range(100):
        mid = (lo + hi) / 2
        if _t_central(mid, df) < central:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def _t_central(t: float, df: int) -> float:
    """P(|T| <= t) for Student's t with a whole number ``df`` of degrees of freedom."""
    theta = math.atan(t / math.sqrt(df))
    c2 = math.cos(theta) ** 2
    if df % 2 == 1:
        term, acc = math.cos(theta), 0.0
        if df > 1:
            acc = term
            for k in range(3, df - 1, 2):
                term *= c2 * (k - 1) / k
                acc += term
        return (2 / math.pi) * (theta + math.sin(theta) * acc)
    term, acc = 1.0, 1.0
    for k in range(2, df - 1, 2):
        term *= c2 * (k - 1) / k
        acc += term
    return math.sin(theta) * acc


def _normal_quantile(p: float) -> float:
    """The standard normal quantile (bisection on ``erf``; p in (0, 1))."""
    lo, hi = -40.0, 40.0
    for _i in range(200):
        mid = (lo + hi) / 2
        if 0.5 * (1 + math.erf(mid / math.sqrt(2))) < p:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def _pairs(
    spec: ArenaSpec, results: Sequence[GameResult], seats: list[list[int]]
) -> list[dict[str, Any]]:
    """Every pair of entries compared block by block (duplicate format).

    A block is the ``players`` games of one deal, every entry in every seat, so each block
    gives one paired difference: entry a's win share per game per seat held minus b's.
    Blocks are independent (fresh deals), so their mean difference ``diff`` has the standard
    error ``se`` = sd / √blocks, and ``ci95`` is the t-interval diff ± t(0.975, blocks − 1)
    × se. Why a t-interval over blocks and not a bootstrap: the blocks are the independent
    units (games of one block share a deal), the interval is deterministic (no resampling
    seed), exact when the differences are normal and close to it otherwise with the dozens of
    blocks a tournament has, where a percentile bootstrap covers too little; and it pools
    across parts from ``diff``, ``se`` and ``blocks`` alone (benchmarks/pool_runs.py).
    ``z`` = diff / se (the t statistic): z > 1.645 says a is stronger at one-sided 95 %.
    With fewer than two blocks there is no interval (``ci95`` is null)."""
    k = len(spec.names)
    per_seat = [max(1, sum(seats[e])) for e in range(k)]
    n_games = max(1, len(results))
    blocks: dict[int, list[float]] = {}
    sizes: dict[int, int] = {}
    for r in results:
        b = r.index // spec.players
        share = blocks.setdefault(b, [0.0] * k)
        sizes[b] = sizes.get(b, 0) + 1
        for s in r.winners:
            share[r.seating[s]] += 1.0 / len(r.winners)
    out = []
    for a in range(k):
        for b in range(a + 1, k):
            ds = []
            for blk, share in blocks.items():
                # win share per game, divided by seats held per game
                sa = share[a] / sizes[blk] / (per_seat[a] / n_games)
                sb = share[b] / sizes[blk] / (per_seat[b] / n_games)
                ds.append(sa - sb)
            m = len(ds)
            mean = sum(ds) / m if m else 0.0
            var = sum((d - mean) ** 2 for d in ds) / (m - 1) if m > 1 else 0.0
            se = math.sqrt(var / m) if m else 0.0
            ci: list[float] | None = None
            if m > 1:
                half = t_quantile(0.975, m - 1) * se
                ci = [round(mean - half, 6), round(mean + half, 6)]
            out.append(
                {
                    "a": spec.names[a],
                    "b": spec.names[b],
                    "diff": round(mean, 6),
                    "se": round(se, 6),
                    "ci95": ci,
                    "z": round(mean / se, 3) if se > 0 else None,
                    "blocks": m,
                }
            )
    return out


def tally(spec: ArenaSpec, results: Sequence[GameResult]) -> dict[str, Any]:
    """The tournament's JSON result (CONTRACTS.md ``ono99 arena --json``) from the games'
    results, in game order: per bot games, wins (a shared win counts 1/k), win rate,
    Wilson 95 % interval, decision time percentiles (every call of ``act`` except
    draws, forced moves included), games per seat; and ``pairs``, the block-paired
    comparison of every two entries with its 95 % interval (:func:`_pairs`)."""
    results = sorted(results, key=lambda r: r.index)
    k = len(spec.names)
    games = [0] * k
    wins = [0.0] * k
    seats = [[0] * spec.players for _ in range(k)]
    times: list[list[float]] = [[] for _ in range(k)]
    decisions = 0
    for r in results:
        decisions += r.decisions
        present = sorted(set(r.seating))
        for e in present:
            games[e] += 1
        for s, e in enumerate(r.seating):
            seats[e][s] += 1
        for s in r.winners:
            wins[r.seating[s]] += 1.0 / len(r.winners)
        for e, ts in r.times.items():
            times[e].extend(ts)
    bots: dict[str, Any] = {}
    for e, name in enumerate(spec.names):
        n = games[e]
        lo, hi = wilson(wins[e], n)
        ts = sorted(times[e])
        bots[name] = {
            "bot": spec.bots[e],
            "games": n,
            "wins": round(wins[e], 6),
            "win_rate": round(wins[e] / n, 6) if n else 0.0,
            "ci95": [round(lo, 6), round(hi, 6)],
            "decision_ms": {
                "p50": round(_percentile(ts, 0.5), 4),
                "p99": round(_percentile(ts, 0.99), 4),
                "decisions": len(ts),
            },
            "seats": seats[e],
        }
    return {
        "bots": bots,
        "pairs": _pairs(spec, results, seats),
        "rules": spec.rules,
        "options": dict(spec.options),
        "players": spec.players,
        "games": len(results),
        "seed": spec.seed,
        "decisions": decisions,
    }
