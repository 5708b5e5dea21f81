"""Differential tests: the engine against the independent reference in ``tests/oracle.py``.

Random games are played with the engine, written out with ``to_record`` (complete deals
for every round) and replayed move by move in a fresh engine and in the oracle, which
must agree on the set of legal moves and on every R-REC state field after every move.
Reshuffles (R-TURN-3) take the engine's new draw-pile order through the oracle's
``reshuffle`` callback, after checking that it holds exactly the discard pile.
"""

from __future__ import annotations

import itertools
import json
import random
import subprocess
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from ono99 import (
    ACTION_CODES,
    Game,
    ReplayError,
    RulesError,
    action_code,
    make_rules,
    state_json,
    to_record,
)
from ono99.records import apply_move, parse_record
from oracle import (
    DECKS,
    MATTEL,
    Oracle,
    OracleError,
    deck_of,
    from_record,
    hand_score,
    resolve_options,
)

FIELDS = (
    "total",
    "direction",
    "to_move",
    "hands",
    "draw_pile",
    "out",
    "tokens",
    "scores",
    "round",
    "winner",
    "owes_two",
)


MAX_PLAYERS = {"mattel2022": 6, "classic1980": 8, "gamerules": 8}


def configs() -> list[tuple[str, dict[str, Any]]]:
    """Every preset with every option combination (R-SET-6)."""
    out: list[tuple[str, dict[str, Any]]] = [("mattel2022", {})]
    for zero, pen in itertools.product((False, True), repeat=2):
        out.append(("classic1980", {"zero_ending_99": zero, "draw_penalty": pen}))
        for mode, target in itertools.product(("elimination", "lowest"), (100, 40)):
            out.append(
                (
                    "classic1980",
                    {
                        "scoring": "points",
                        "points_mode": mode,
                        "target": target,
                        "zero_ending_99": zero,
                        "draw_penalty": pen,
                    },
                )
            )
    out.append(("classic1980", {}))
    out += [("gamerules", {}), ("gamerules", {"draw_penalty": True})]
    return out


CONFIGS = configs()


def engine_draw_top_first(g: Game) -> list[str]:
    """The engine keeps its draw pile with the top card last."""
    return [action_code(c) for c in reversed(g.draw_pile)]


def biased_deal(preset: str, n: int, rng: random.Random) -> tuple[list[list[str]], list[str]]:
    """A full first deal with the special cards weighted towards the top, so that Play 2
    chains, Reverses, four ONO 99s (R-99-3) and zero-ending 99s (R-99-5) come up often."""
    cards = list(deck_of(preset).elements())
    weight = {"99": 6.0, "P2": 5.0, "R": 3.0, "H": 3.0, "-10": 2.0}
    keyed = sorted(cards, key=lambda c: rng.random() ** weight.get(c, 1.0), reverse=True)
    hands = [keyed[4 * i : 4 * i + 4] for i in range(n)]
    return hands, keyed[4 * n :]


_RAISE = {str(v): v for v in range(11)} | {"-10": -10, "99": 50}


def random_game(preset: str, options: dict[str, Any], n: int, seed: int) -> Game:
    """A finished engine game from random legal play (draws taken most of the time).

    Some games play "carefully" (at a total of 50 or more, mostly the move that keeps the
    total lowest, for the first 1500 moves), so that games run long enough to empty the
    draw pile (R-TURN-3). (Unlimited care need never end a 1980 game: its total may fall
    without limit, or two careful players hold it in a band forever.)"""
    rng = random.Random(seed)
    kwargs: dict[str, Any] = {"options": options, "seed": seed, "events": False}
    if rng.random() < 0.5:
        kwargs["dealer"] = rng.randrange(n)
    if rng.random() < 0.3:
        kwargs["deals"] = [biased_deal(preset, n, rng)]
    g = Game(preset, n, **kwargs)
    draw_bias = rng.choice((0.5, 0.9, 1.0))
    care = rng.choice((0.0, 0.0, 0.8, 0.97))
    for step in range(50000):
        acts = g.legal_actions()
        if not acts:
            break
        codes = [action_code(a) for a in acts]
        if "draw" in codes and rng.random() < draw_bias:
            g.apply(acts[codes.index("draw")])
        elif codes != ["draw"] and g.total >= 50 and step < 1500 and rng.random() < care:
            low = min(_RAISE.get(c, 0) for c in codes if c != "draw")
            g.apply(
                rng.choice([a for a, c in zip(acts, codes, strict=True) if _RAISE.get(c, 0) == low])
            )
        else:
            g.apply(rng.choice(acts))
    assert g.winner is not None, "R-END-4: every game ends"
    return g


class Stats:
    def __init__(self) -> None:
        self.games = 0
        self.steps = 0
        self.reshuffles = 0
        self.refused = 0  # illegal moves offered to the engine (and refused)
        self.guessed = 0  # reshuffles in a move that also ended the round
        self.hand_order = 0  # states whose hands hold the same cards in another order
        self.seen: Counter[str] = Counter()  # rule situations met (Oracle.seen)


def replaying(orders: list[list[str]]) -> Callable[[list[str], int], list[str]]:
    """A reshuffle callback that hands out ``orders`` in turn."""
    queue = list(orders)

    def reshuffle(cards: list[str], seat: int) -> list[str]:
        return queue.pop(0)

    return reshuffle


class RoundEnded(Exception):
    """A reshuffle in a move that also ended the round: the engine's pile is regathered."""

    def __init__(self, cards: list[str]) -> None:
        super().__init__("reshuffle before a round end")
        self.cards = cards


def compare_record(
    record: dict[str, Any],
    stats: Stats,
    trace: Callable[[int, str, Game, Oracle], None] | None = None,
) -> None:
    """Replay ``record`` in the engine and the oracle in lockstep and compare.

    R-TURN-3: the oracle takes each reshuffled order from the engine's draw pile after the
    same move (plus the cards the drawer took from it). When the move also ended the round,
    the engine's new pile is a fresh deal, so every possible drawn card is tried and one
    must give the engine's state."""
    eng = parse_record(record).new_game(events=False)
    step = {"k": -1, "round": eng.round}
    orders: list[list[str]] = []  # every reshuffle order used so far, in order

    def reshuffle(cards: list[str], seat: int) -> list[str]:
        # The engine has already made this move: its draw pile now is the new pile
        # less what the drawer took from it (the tail of the drawer's hand).
        if eng.round != step["round"]:
            raise RoundEnded(cards)
        rest = engine_draw_top_first(eng)
        drawn = Counter(cards) - Counter(rest)
        assert not Counter(rest) - Counter(cards), (
            f"move {step['k']}: R-TURN-3 the engine's reshuffled pile {rest} is not made "
            f"of the discard pile {cards}"
        )
        k = sum(drawn.values())
        eng_hand = [action_code(c) for c in eng.hands[seat]]
        tail = eng_hand[len(eng_hand) - k :] if k else []
        order = tail if Counter(tail) == drawn else sorted(drawn.elements())
        orders.append(order + rest)
        return order + rest

    where = f"{record['rules']} {record['options']} players={record['players']}"

    def mismatch(o: Oracle, k: int) -> str | None:
        e_legal = sorted(action_code(a) for a in eng.legal_actions())
        o_legal = sorted(o.legal())
        if e_legal != o_legal:
            return f"{where} after move {k}: legal moves differ: engine {e_legal} oracle {o_legal}"
        es = state_json(eng)
        os_ = o.state()
        for f in FIELDS:
            ev, ov = es[f], os_[f]
            if f == "hands":
                if ev != ov:
                    stats.hand_order += 1
                ev = [sorted(h) for h in ev]
                ov = [sorted(h) for h in ov]
            if ev != ov:
                return f"{where} after move {k}: {f}: engine {ev!r} oracle {ov!r}"
        if es["pending_draw"] != o.pending:
            return f"{where} after move {k}: pending_draw: engine {es['pending_draw']} oracle {o.pending}"
        if es["discard"] != o.discard:
            return f"{where} after move {k}: discard: engine {es['discard']} oracle {o.discard}"
        return None

    def guess(k: int, move: str, cards: list[str]) -> Oracle:
        for first in sorted(set(cards)):
            rest = list(cards)
            rest.remove(first)
            o = from_record(record, replaying([*orders, [first, *rest]]))
            for m in record["moves"][:k]:
                o.apply(m)
            try:
                o.apply(move)
            except OracleError:  # e.g. the next deal does not fit this guess
                continue
            if mismatch(o, k) is None:
                orders.append([first, *rest])
                o.reshuffle = reshuffle
                return o
        raise AssertionError(f"{where} after move {k}: no reshuffle order explains the engine")

    def refuses(k: int, legal: set[str]) -> None:
        """R-REC: a move the oracle calls illegal is refused, and nothing changes."""
        bad = rng.choice([c for c in ACTION_CODES if c not in legal])
        before = state_json(eng)
        with pytest.raises(ReplayError):
            apply_move(eng, k, bad)
        assert state_json(eng) == before, f"{where} move {k}: refused {bad!r} changed the state"
        stats.refused += 1

    rng = random.Random(len(record["moves"]))
    orc = from_record(record, reshuffle)
    problem = mismatch(orc, -1)
    assert problem is None, problem
    for k, move in enumerate(record["moves"]):
        step["k"] = k
        step["round"] = eng.round
        if k % 4 == 0:
            refuses(k, orc.legal())
        apply_move(eng, k, move)
        try:
            orc.apply(move)
        except RoundEnded as e:
            orc = guess(k, move, e.cards)
            stats.guessed += 1
        if trace is not None:
            trace(k, move, eng, orc)
        problem = mismatch(orc, k)
        assert problem is None, problem
        stats.steps += 1
    if orc.winner is not None:
        refuses(len(record["moves"]), set())  # R-REC: no move after the game has ended
    stats.games += 1
    stats.reshuffles += len(orders)
    stats.seen.update(orc.seen)


def games(preset: str, options: dict[str, Any], count: int, base: int) -> Iterator[Game]:
    hi = MAX_PLAYERS[preset]
    for i in range(count):
        n = 2 + i % (hi - 1)
        yield random_game(preset, options, n, base + i)


def run_config(preset: str, options: dict[str, Any], count: int, base: int = 0) -> Stats:
    stats = Stats()
    for g in games(preset, options, count, base):
        record = to_record(g)
        before = state_json(g)
        compare_record(record, stats)
        assert g.winner is not None
        # the record rebuilds the same state (R-REC)
        again = parse_record(record).new_game(events=False)
        for i, m in enumerate(record["moves"]):
            apply_move(again, i, m)
        assert state_json(again) == before
    return stats


def _ids(cfg: tuple[str, dict[str, Any]]) -> str:
    preset, opts = cfg
    return preset + "".join(f"-{k}={v}" for k, v in opts.items())


def _count(preset: str, options: dict[str, Any], big: bool) -> int:
    """Games per option set: a few hundred per preset by default, ten times that if slow."""
    count = {"mattel2022": 400, "gamerules": 200}.get(preset, 120 if not options else 60)
    return 10 * count if big else count


def required(preset: str, options: dict[str, Any]) -> set[str]:
    """Rule situations (``Oracle.seen`` keys) that the default sample must meet, so the
    comparison is known to reach them."""
    if preset == "mattel2022":
        return {
            "answer P2",
            "answer R",
            "second of two P2",
            "second of two R",
            "bust owing two",
            "bust owing two (second)",
            "play 99x4",
            "reverse as hold",
            "-10 below 10",
            "eliminated",
        }
    need = {"answer H", "answer R", "reshuffle", "reverse as hold", "negative total"}
    if preset == "gamerules":
        need |= {"play 99", "first of two 99", "second of two 99"}
    if options.get("zero_ending_99"):
        need.add("zero-ending 99")
    if options.get("draw_penalty"):
        need |= {"draw", "draw lost to a play", "must draw before busting"}
    if options.get("scoring") == "points":
        need |= {"points bust", "points bust owing two", "reverse as hold, two left in the round"}
        if options["points_mode"] == "elimination":
            need.add("everyone out at once")
    else:
        need |= {"token bust (last token gone)", "bust owing two"}
    return need


@pytest.mark.parametrize("cfg", CONFIGS, ids=[_ids(c) for c in CONFIGS])
def test_engine_matches_oracle(cfg: tuple[str, dict[str, Any]]) -> None:
    """R-SET-1..6, R-TURN-1..4, R-LIM-1..2, R-99-1..5, R-REV-1..2, R-M10-1, R-H-1,
    R-P2-1..6, R-END-1..3, R-DRAW-1, R-REC: the engine and the oracle agree on the legal
    moves and the state after every move of random games of every preset and option."""
    preset, options = cfg
    stats = run_config(preset, options, _count(preset, options, big=False))
    missing = required(preset, options) - set(stats.seen)
    assert not missing, f"the sample never reached {sorted(missing)}"


@pytest.mark.slow
@pytest.mark.parametrize("cfg", CONFIGS, ids=[_ids(c) for c in CONFIGS])
def test_engine_matches_oracle_many(cfg: tuple[str, dict[str, Any]]) -> None:
    """As test_engine_matches_oracle (all rule IDs), with many more games."""
    preset, options = cfg
    stats = run_config(preset, options, _count(preset, options, big=True), base=10_000)
    assert stats.games > 0


def test_oracle_decks() -> None:
    """Deck sizes: 2022 = 112, 1980 = 54 (Cards and codes)."""
    assert sum(DECKS["2022"].values()) == 112
    assert sum(DECKS["1980"].values()) == 54


def test_oracle_hand_score_example() -> None:
    """R-END-3 worked example: 99, P2, 4, 5 = 20 + 15 + 9 = 44; short cards 15 each."""
    assert hand_score(["99", "P2", "4", "5"]) == 44
    assert hand_score(["4", "5"]) == 9 + 30


def test_oracle_rejects_illegal_move() -> None:
    """R-LIM-2 / R-99-1: the oracle refuses an ONO 99 card in mattel2022."""
    deck = deck_of(MATTEL)
    hands = [["99", "1", "2", "3"], ["4", "5", "6", "7"]]
    for h in hands:
        deck.subtract(h)
    o = Oracle(MATTEL, 2, {}, [(hands, list(deck.elements()))])
    with pytest.raises(OracleError):
        o.apply("99")
    o.apply("3")
    assert o.state()["total"] == 3 and o.to_move == 1


def test_cli_replay_matches_oracle() -> None:
    """R-REC / CONTRACTS `ono99 replay - --json`: the CLI's final state of a finished
    random game of each preset and scoring mode equals the oracle's."""
    cases: list[tuple[str, dict[str, Any], int]] = [
        ("mattel2022", {}, 5),
        ("classic1980", {"zero_ending_99": True}, 6),
        ("classic1980", {"scoring": "points", "points_mode": "lowest", "draw_penalty": True}, 4),
        ("gamerules", {"draw_penalty": True}, 3),
    ]
    oracle_final: dict[str, Any] = {}

    def keep(k: int, move: str, eng: Game, orc: Oracle) -> None:
        oracle_final.update(orc.state())

    for i, (preset, options, n) in enumerate(cases):
        record = to_record(random_game(preset, options, n, 700 + i))
        compare_record(record, Stats(), keep)
        out = subprocess.run(
            [sys.executable, "-m", "ono99", "replay", "-", "--json"],
            input=json.dumps(record),
            capture_output=True,
            text=True,
            check=True,
        )
        cli = json.loads(out.stdout)
        assert {f: cli[f] for f in FIELDS} == oracle_final, preset


@pytest.mark.parametrize("preset", ["mattel2022", "classic1980", "gamerules"])
def test_partial_deals_lie_on_top(preset: str) -> None:
    """R-REC: a deal names every hand and only the top of the draw pile; the rest of the
    deck lies under the named cards, for the first round and for a later one (R-END-2)."""
    rng = random.Random(preset)
    for trial in range(20):
        n = 2 + trial % (MAX_PLAYERS[preset] - 1)
        partial = []
        for _ in range(2):
            hands, draw = biased_deal(preset, n, rng)
            partial.append((hands, draw[: rng.randrange(0, 6)]))
        g = Game(preset, n, seed=trial, deals=partial, events=False)  # type: ignore[arg-type]
        while g.legal_actions() and g.round == 1:
            g.apply(rng.choice(g.legal_actions()))
        full = to_record(g)["deals"]
        for (hands, top), dealt in zip(partial, full, strict=False):
            assert dealt["hands"] == hands
            assert dealt["draw"][: len(top)] == top
            everything = Counter(dealt["draw"])
            for h in dealt["hands"]:
                everything.update(h)
            assert everything == deck_of(preset)
        assert len(full) == (2 if g.round == 2 else 1)


OPTION_CASES: list[tuple[str, dict[str, Any]]] = [
    *CONFIGS,
    ("mattel2022", {"draw_penalty": False}),
    ("mattel2022", {"scoring": "points"}),
    ("gamerules", {"zero_ending_99": False}),
    ("gamerules", {"scoring": "tokens"}),
    ("classic1980", {"bogus": 1}),
    ("classic1980", {"scoring": "bogus"}),
    ("classic1980", {"scoring": "points", "points_mode": "bogus"}),
    ("classic1980", {"scoring": "points", "target": 0}),
    ("classic1980", {"scoring": "points", "target": True}),
    ("classic1980", {"scoring": "points"}),
    ("classic1980", {"target": 50}),
    ("classic1980", {"points_mode": "lowest"}),
    ("classic1980", {"zero_ending_99": "yes"}),
]


@pytest.mark.parametrize("cfg", OPTION_CASES, ids=[_ids(c) for c in OPTION_CASES])
def test_options_accepted_alike(cfg: tuple[str, dict[str, Any]]) -> None:
    """R-SET-6: the engine and the oracle accept and reject the same option sets, and
    fill in the same defaults."""
    preset, options = cfg
    try:
        ours: dict[str, Any] | None = resolve_options(preset, options)
    except OracleError:
        ours = None
    try:
        theirs: dict[str, Any] | None = dict(make_rules(preset, options).options)
    except RulesError:
        theirs = None
    assert ours == theirs
