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
    for b in bots:
        _check_iterations(b)
        make_bot(b, 0)  # unknown names fail here
    n = len(bots) if players is None else players
    if n < len(bots):
        raise ValueError(
            _("{bots} bots need at least {bots} players, not {players}").format(
                bots=len(bots), players=n
            )
        )
    r = make_rules(rules, options)
    if not r.min_players <= n <= r.max_players:
        raise ValueError(
            _("{preset} is for {low} to {high} players, not {count}").format(
                preset=rules, low=r.min_players, high=r.max_players, count=n
            )
        )
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


def game_seed(spec: ArenaSpec, game: int) -> str:
    """The deal seed of game ``game``: shared by its rotation block (duplicate format)."""
    return f"arena:{spec.seed}:{game // spec.players}"


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
    #: finishing place per seat, 1 = winner (openskill ranks)
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


def _pairs(
    spec: ArenaSpec, results: Sequence[GameResult], seats: list[list[int]]
) -> list[dict[str, Any]]:
    """Every pair of entries compared block by block (duplicate format): the mean over
    rotation blocks of the difference of their win shares per seat held, its standard
    error and z = diff / se. z > 1.645: the first is stronger with 95 % confidence."""
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
            out.append(
                {
                    "a": spec.names[a],
                    "b": spec.names[b],
                    "diff": round(mean, 6),
                    "se": round(se, 6),
                    "z": round(mean / se, 3) if se > 0 else None,
                    "blocks": m,
                }
            )
    return out


def tally(spec: ArenaSpec, results: Sequence[GameResult]) -> dict[str, Any]:
    """The tournament's JSON result (CONTRACTS.md ``ono99 arena --json``) from the games'
    results, in game order: per bot games, wins (a shared win counts 1/k), win rate,
    Wilson 95 % interval, decision time percentiles (every call of ``act`` except
    draws, forced moves included), games per seat, openskill (Plackett–Luce) rating;
    and ``pairs``, the block-paired comparison of every two entries."""
    from openskill.models import PlackettLuce

    results = sorted(results, key=lambda r: r.index)
    k = len(spec.names)
    games = [0] * k
    wins = [0.0] * k
    seats = [[0] * spec.players for _ in range(k)]
    times: list[list[float]] = [[] for _ in range(k)]
    model = PlackettLuce()
    ratings = [model.rating(name=name) for name in spec.names]
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
        # an entry holding several seats is ranked by its best seat
        best = {e: min(p for s, p in enumerate(r.places) if r.seating[s] == e) for e in present}
        new = model.rate([[ratings[e]] for e in present], ranks=[float(best[e]) for e in present])
        for e, team in zip(present, new, strict=True):
            ratings[e] = team[0]
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
            "rating": {
                "mu": round(ratings[e].mu, 4),
                "sigma": round(ratings[e].sigma, 4),
                "ordinal": round(ratings[e].ordinal(), 4),
            },
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
