"""The fast engine against the reference engine, move for move (every rule of RULES.md
that the reference keeps: R-SET, R-TURN, R-LIM, R-99, R-REV, R-M10, R-H, R-P2, R-END,
R-DRAW, R-REC).

Both engines take the same seed and the same moves; after every move the whole state
must be equal: hands (in order), both piles (in order), total, direction, whose turn,
who owes two, the pending draw, eliminations, tokens, scores, rounds, the winner and the
legal actions. Random games of every preset and mode, records with given deals, bad
later deals, and illegal moves (same error, nothing changed).
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ono99 import DRAW, FOUR_99, Game, IllegalAction, RecordError, replay, state_json
from ono99.fast import FastGame
from ono99.fast.game import replay as replay_fast
from ono99.records import to_record

CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("mattel2022", {}),
    ("classic1980", {}),
    ("classic1980", {"zero_ending_99": True}),
    ("classic1980", {"draw_penalty": True}),
    ("classic1980", {"zero_ending_99": True, "draw_penalty": True}),
    ("classic1980", {"scoring": "points"}),
    ("classic1980", {"scoring": "points", "zero_ending_99": True, "draw_penalty": True}),
    ("classic1980", {"scoring": "points", "points_mode": "lowest"}),
    ("classic1980", {"scoring": "points", "points_mode": "lowest", "target": 60}),
    ("classic1980", {"scoring": "points", "target": 40, "draw_penalty": True}),
    ("gamerules", {}),
    ("gamerules", {"draw_penalty": True}),
]
IDS = [f"{p}-{'-'.join(f'{k}={v}' for k, v in o.items()) or 'default'}" for p, o in CONFIGS]


def full_state(g: Game | FastGame) -> dict[str, Any]:
    """Everything both engines keep, hidden cards included."""
    w = g.winner
    return {
        "hands": [list(h) for h in g.hands],
        "draw_pile": list(g.draw_pile),
        "discard": list(g.discard),
        "total": g.total,
        "direction": g.direction,
        "to_move": g.to_move,
        "owes_two": g.owes_two,
        "pending_draw": g.pending_draw,
        "plays_left": g.plays_left,
        "played_99": g.played_99,
        "alive": list(g.alive),
        "active": list(g.active),
        "n_active": g.n_active,
        "out": list(g.out),
        "round_out": list(g.round_out),
        "tokens": g.tokens,
        "scores": g.scores,
        "round": g.round,
        "reshuffles": g.reshuffles,
        "winner": list(w) if isinstance(w, list) else w,
        "legal": g.legal_actions(),
        "bust_mode": g.must_bust_play,
        "moves": len(g.moves) if isinstance(g, Game) else g.n_moves,
        "acting": g.acting(),
    }


def play_both(
    preset: str,
    options: dict[str, Any],
    n: int,
    seed: int | str,
    rng: random.Random,
    **kwargs: Any,
) -> tuple[Game, FastGame]:
    """One random game in both engines, the states compared after every move
    (``kwargs``: ``dealer``, ``deals``)."""
    ref = Game(preset, n, options=options, seed=seed, events=False, **kwargs)
    fast = FastGame(preset, n, options=options, seed=seed, **kwargs)
    assert full_state(fast) == full_state(ref)
    steps = 0
    while not ref.is_over:
        legal = ref.legal_actions()
        action = legal[rng.randrange(len(legal))]
        try:
            seat = ref.apply(action)
        except RecordError as e:  # a given deal that does not fit the seats left
            with pytest.raises(RecordError) as fast_error:
                fast.apply(action)
            assert str(fast_error.value) == str(e)
            assert full_state(fast) == full_state(ref)
            return ref, fast
        assert fast.apply(action) == seat
        assert full_state(fast) == full_state(ref), (preset, options, n, seed, steps)
        steps += 1
        assert steps < 100_000
    assert fast.is_over
    return ref, fast


@pytest.mark.parametrize(("preset", "options"), CONFIGS, ids=IDS)
def test_random_games_are_equal_move_for_move(preset: str, options: dict[str, Any]) -> None:
    """Every preset and mode, every player count: 2 games each, states equal after
    every move (R-SET, R-TURN, R-LIM, R-99, R-REV, R-M10, R-H, R-P2, R-END, R-DRAW)."""
    top = 6 if preset == "mattel2022" else 8
    rng = random.Random(f"diff:{preset}:{options}")
    for n in range(2, top + 1):
        for _ in range(2):
            play_both(preset, options, n, rng.getrandbits(64), rng)


@given(
    config=st.sampled_from(CONFIGS),
    n=st.integers(2, 8),
    seed=st.one_of(
        st.integers(0, 2**256 - 1),
        st.sampled_from([0, 1, 2**64 - 1, 2**64, 2**128, 2**256 - 1]),
    ),
    moves_seed=st.integers(0, 2**32),
)
def test_any_seed_deals_and_plays_the_same(
    config: tuple[str, dict[str, Any]], n: int, seed: int, moves_seed: int
) -> None:
    """R-SET-1, R-TURN-3, R-REC: any seed of the domain (0 to 2**256 - 1, word boundaries
    too) deals and reshuffles the same cards in both engines (version 2), and a random game
    stays equal to the end."""
    preset, options = config
    if preset == "mattel2022":
        n = min(n, 6)
    play_both(preset, options, n, seed, random.Random(moves_seed))


@pytest.mark.slow
@pytest.mark.parametrize(("preset", "options"), CONFIGS, ids=IDS)
def test_many_random_games_are_equal(preset: str, options: dict[str, Any]) -> None:
    """R-END-4 and every rule above, over 300 games per preset and mode."""
    top = 6 if preset == "mattel2022" else 8
    rng = random.Random(f"diff-slow:{preset}:{options}")
    for i in range(300):
        play_both(preset, options, 2 + i % (top - 1), rng.getrandbits(128), rng)


def test_records_with_given_deals_replay_the_same() -> None:
    """R-REC, R-SET-3: given deals (every round's, each naming only the top of the draw
    pile, the rest shuffled from the seed under it) and another dealer give the same
    game on both engines."""
    rng = random.Random(5)
    for preset, options in CONFIGS:
        first, _ = play_both(preset, options, 3, rng.getrandbits(32), rng)
        deals = [{"hands": hands, "draw": draw[:5]} for hands, draw in first.dealt]
        # The first game's deals, replayed under another seed with random moves: the
        # named cards must be where the deals put them, in both engines alike.
        play_both(preset, options, 3, rng.getrandbits(32), rng, deals=deals, dealer=0)


def test_a_later_deal_that_does_not_fit_changes_nothing() -> None:
    """R-REC: a later round's deal that gives cards to a seat already out (and none to
    a seat still in) is refused with the reference's error when that round is dealt,
    and the game stays as it was before the move."""
    rng = random.Random(11)
    for _ in range(200):
        seed = rng.getrandbits(32)
        ref = Game("classic1980", 3, seed=seed, events=False)
        while not ref.is_over:
            rounds = len(ref.dealt)
            legal = ref.legal_actions()
            ref.apply(legal[rng.randrange(len(legal))])
            if len(ref.dealt) > rounds and ref.out and not ref.is_over:
                break
        else:
            continue
        record = to_record(ref)  # its last move dealt its last round
        hands = record["deals"][-1]["hands"]
        gone = ref.out[0]
        donor = next(s for s in range(3) if hands[s])
        hands[gone], hands[donor] = hands[donor], []
        game = Game("classic1980", 3, seed=seed, deals=record["deals"], events=False)
        fast = FastGame("classic1980", 3, seed=seed, deals=record["deals"])
        for move in record["moves"][:-1]:
            game.apply(move)
            fast.apply(move)
        before = full_state(fast)
        assert before == full_state(game)
        with pytest.raises(RecordError) as ref_error:
            game.apply(record["moves"][-1])
        with pytest.raises(RecordError) as fast_error:
            fast.apply(record["moves"][-1])
        assert str(fast_error.value) == str(ref_error.value)
        assert "must get" in str(fast_error.value)
        assert full_state(fast) == before == full_state(game)
        return
    pytest.fail("no game reached a second round with a seat out")


def test_illegal_moves_give_the_same_error_and_change_nothing() -> None:
    """R-TURN-1, R-LIM-2, R-99-1, R-99-3, R-P2-3, R-DRAW-1: every action that is not
    legal is refused by both engines in the same words, the state unchanged."""
    rng = random.Random(3)
    checked = 0
    for preset, options in CONFIGS:
        ref = Game(preset, 4, options=options, seed=rng.getrandbits(32), events=False)
        fast = FastGame(preset, 4, options=options, seed=ref.seed)
        while not ref.is_over:
            legal = ref.legal_actions()
            for action in range(DRAW + 1):
                assert fast.can_apply(action) == ref.can_apply(action)
                if action in legal:
                    assert fast.verify(action) == ref.verify(action)
                    continue
                with pytest.raises(IllegalAction) as fast_verify:
                    fast.verify(action)
                with pytest.raises(IllegalAction) as ref_error:
                    ref.apply(action)
                with pytest.raises(IllegalAction) as fast_error:
                    fast.apply(action)
                assert str(fast_error.value) == str(ref_error.value) == str(fast_verify.value)
                checked += 1
            assert full_state(fast) == full_state(ref)
            action = legal[rng.randrange(len(legal))]
            ref.apply(action)
            fast.apply(action)
        for bad in (DRAW, 0, "7"):
            with pytest.raises(IllegalAction, match="the game is over"):
                fast.apply(bad)
    assert checked > 1000
    with pytest.raises(IllegalAction, match="not an action"):
        FastGame(seed=1).apply(FOUR_99 + 5)


def test_copy_is_independent() -> None:
    """A copy plays on alone; the original keeps its state (search, RL resets)."""
    g = FastGame("classic1980", 3, seed=4)
    before = full_state(g)
    c = g.copy()
    c.apply(c.legal_actions()[0])
    assert full_state(g) == before != full_state(c)


def test_replay_raises_what_the_reference_raises() -> None:
    """R-REC: ``ono99.fast.game.replay`` replays a record to the reference's final state,
    and names the first illegal move (ReplayError) as the reference does."""
    from ono99.records import ReplayError

    ref, _ = play_both("classic1980", {"draw_penalty": True}, 4, 21, random.Random(2))
    record = to_record(ref)
    assert replay_fast(record).state_json() == state_json(replay(record))
    record["moves"] = [*record["moves"][:10], "99x4", *record["moves"][10:]]
    with pytest.raises(ReplayError) as ref_error:
        replay(record)
    with pytest.raises(ReplayError) as fast_error:
        replay_fast(record)
    assert (fast_error.value.move, str(fast_error.value)) == (10, str(ref_error.value))
