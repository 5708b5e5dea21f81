"""Bots: legal play under every preset and option, views only, levels (ISSUE 3)."""

from __future__ import annotations

import random
import zlib
from typing import Any

import pytest

from ono99 import Game, PlayerView
from ono99.bots import BOTS, Bot, make_bot
from ono99.bots.common import believed_world, pool_counts
from ono99.cards import DRAW, FOUR_99, Card
from ono99.determinize import unseen_cards
from ono99.game import CARD_POINTS

CONFIGS: list[tuple[str, int, dict[str, Any]]] = [
    ("mattel2022", 2, {}),
    ("mattel2022", 4, {}),
    ("mattel2022", 6, {}),
    ("classic1980", 3, {}),
    ("classic1980", 2, {"zero_ending_99": True}),
    ("classic1980", 3, {"draw_penalty": True}),
    ("classic1980", 3, {"scoring": "points"}),
    ("classic1980", 4, {"scoring": "points", "points_mode": "lowest", "target": 60}),
    (
        "classic1980",
        3,
        {"scoring": "points", "target": 50, "zero_ending_99": True, "draw_penalty": True},
    ),
    ("gamerules", 3, {}),
    ("gamerules", 2, {"draw_penalty": True}),
]
FAST_BOTS = ["random", "greedy", "heuristic", "easy", "medium"]


def play(game: Game, bots: list[Bot], max_steps: int = 100_000) -> list[tuple[PlayerView, int]]:
    """Play to the end, giving each bot only its view; return every (view, action)."""
    seen = []
    for _ in range(max_steps):
        if game.is_over:
            return seen
        pending = game.pending_draw
        seat = pending if pending is not None and pending != game.to_move else game.to_move
        assert seat is not None
        view = game.view(seat)
        action = bots[seat].act(view)
        assert action in view.legal, (view.to_json(), action)
        assert action in game.legal_actions(seat)
        seen.append((view, action))
        game.apply(action)
    raise AssertionError("game did not end")


@pytest.mark.parametrize(("rules", "players", "options"), CONFIGS)
@pytest.mark.parametrize("name", FAST_BOTS)
def test_fast_bots_play_legal_actions(
    name: str, rules: str, players: int, options: dict[str, Any]
) -> None:
    """Every bot returns a legal action in many games of every preset and option:
    points-mode busts (R-END-3), the draw penalty (R-DRAW-1), zero-ending 99s (R-99-5),
    Play 2 (R-P2), four 99s (R-99-3); every game ends with a winner (R-END-4)."""
    for i in range(40):
        g = Game(
            rules,
            players,
            options=options,
            seed=zlib.crc32(f"bots:{name}:{i}".encode()),
            events=False,
        )
        play(g, [make_bot(name, 1000 * i + s) for s in range(players)])
        assert g.winner is not None


@pytest.mark.parametrize(("rules", "players", "options"), CONFIGS)
def test_ismcts_plays_legal_actions(rules: str, players: int, options: dict[str, Any]) -> None:
    """ISMCTS (small budget, mixed table) plays legal actions under every preset/option."""
    for i in range(2):
        g = Game(
            rules, players, options=options, seed=zlib.crc32(f"ismcts:{i}".encode()), events=False
        )
        names = ["ismcts:8", "heuristic", "greedy", "random"]
        play(g, [make_bot(names[s % 4], s + 10 * i) for s in range(players)])
        assert g.winner is not None


def test_every_registered_name_makes_a_bot() -> None:
    for name in [*BOTS, "ismcts:3"]:
        bot = make_bot(name, 1)
        # optimal is the solved research variant: it plays mini with 2 players only
        g = Game("mini", 2, seed=5) if name == "optimal" else Game("mattel2022", 3, seed=5)
        assert bot.act(g.view(0)) in g.legal_actions(0)


def test_unknown_bot_names_are_rejected() -> None:
    for bad in ("nobody", "ismcts:x", "ismcts:0", "greedy:3", "ismcts:5:bogus", "ismcts:5:"):
        with pytest.raises(ValueError):
            make_bot(bad)


def test_levels_map_onto_bots() -> None:
    from ono99.bots import GreedyBot, HeuristicBot, ISMCTSBot
    from ono99.bots.ismcts import PresetISMCTS

    assert isinstance(make_bot("easy"), GreedyBot)
    assert isinstance(make_bot("medium"), HeuristicBot)
    hard, expert = make_bot("hard"), make_bot("expert")
    assert isinstance(hard, ISMCTSBot) and hard.rollout == "greedy"
    assert isinstance(expert, PresetISMCTS) and isinstance(make_bot("ismcts"), PresetISMCTS)


def test_ismcts_options_spell_the_bot() -> None:
    """``ismcts:N:heuristic:infer:particles:z2`` set the search's rollouts, its worlds and
    its deviation threshold."""
    from ono99.bots import ISMCTSBot
    from ono99.bots.inference import HandTracker, ParticleTracker

    b = make_bot("ismcts:40:heuristic:infer:z2", 1)
    assert isinstance(b, ISMCTSBot)
    assert (b.iterations, b.rollout, b.horizon, b.z) == (40, "heuristic", 0, 2.0)
    assert type(b.tracker) is HandTracker
    p = make_bot("ismcts:40:particles", 1)
    assert isinstance(p, ISMCTSBot) and isinstance(p.tracker, ParticleTracker)
    assert p.rollout == "greedy"


def _moves(
    names: list[str],
    rules: str,
    players: int,
    seed: int,
    limit: int,
    options: dict[str, str] | None = None,
) -> list[int]:
    g = Game(rules, players, seed=seed, options=options, events=False)
    bots = [make_bot(n, 7 + s) for s, n in enumerate(names)]
    out: list[int] = []
    while g.to_move is not None and len(out) < limit:
        p = g.to_move
        a = bots[p].act(g.view(p))
        out.append(a)
        g.apply(a)
    return out


def test_plain_ismcts_is_the_configuration_measured_for_the_rules() -> None:
    """Plain ``ismcts`` plays exactly ``ismcts:120:heuristic:infer:z2`` in elimination
    games (R-END-1), ``ismcts:120:heuristic:infer`` with tokens (R-END-2) and
    with points (R-END-3), the configurations of the strength table (docs/strength.md);
    the configurations are different players."""
    assert _moves(["ismcts", "heuristic"], "mattel2022", 2, 5, 400) == _moves(
        ["ismcts:120:heuristic:infer:z2", "heuristic"], "mattel2022", 2, 5, 400
    )
    tokens = _moves(["ismcts", "greedy", "heuristic"], "classic1980", 3, 6, 120)
    assert tokens == _moves(
        ["ismcts:120:heuristic:infer", "greedy", "heuristic"], "classic1980", 3, 6, 120
    )
    assert tokens != _moves(["ismcts:300", "greedy", "heuristic"], "classic1980", 3, 6, 120)
    points = {"scoring": "points"}
    assert _moves(["ismcts", "greedy"], "classic1980", 2, 8, 60, points) == _moves(
        ["ismcts:120:heuristic:infer", "greedy"], "classic1980", 2, 8, 60, points
    )


def test_expert_plays_the_heuristic_in_elimination_games_of_five_or_more() -> None:
    """``expert`` is plain ``ismcts`` except in elimination games (R-END-1) of 5 or more
    players, where it plays the heuristic's card (docs/strength.md, "Where search
    helps"); with 2 and 4 players it searches."""
    from ono99.bots.levels import EXPERT_HEURISTIC_FROM, ExpertBot

    assert EXPERT_HEURISTIC_FROM == 5 and isinstance(make_bot("expert"), ExpertBot)
    for players, seed in ((5, 10), (6, 11)):
        expert = ["expert", "greedy", "expert", "greedy", "greedy", "greedy"][:players]
        heuristic = [("heuristic" if b == "expert" else b) for b in expert]
        assert _moves(expert, "mattel2022", players, seed, 400) == _moves(
            heuristic, "mattel2022", players, seed, 400
        )
    assert _moves(["expert", "heuristic"], "mattel2022", 2, 5, 60) == _moves(
        ["ismcts", "heuristic"], "mattel2022", 2, 5, 60
    )
    four = ["expert", "heuristic", "heuristic", "heuristic"]
    assert _moves(four, "mattel2022", 4, 9, 40) == _moves(
        ["ismcts", *four[1:]], "mattel2022", 4, 9, 40
    )
    # and the search does choose differently from the heuristic there (else the line
    # above could not tell the levels apart)
    assert any(
        _moves(four, "mattel2022", 4, s, 80)
        != _moves(["heuristic", *four[1:]], "mattel2022", 4, s, 80)
        for s in range(9, 14)
    )


def test_hard_plays_the_heuristic_and_expert_the_rollout_search_with_points() -> None:
    """With points (R-END-3) the tree search trails the heuristic and the rollout search
    beats it (docs/strength.md): ``hard`` plays the heuristic's cards there, ``expert``
    the rollout search's; with tokens (R-END-2) ``hard`` is still the tree search, and it
    does choose differently from the heuristic there."""
    from ono99.bots.levels import HARD_HEURISTIC_MODES, HardBot

    assert "points" in HARD_HEURISTIC_MODES and isinstance(make_bot("hard"), HardBot)
    points = {"scoring": "points"}
    rest = ["greedy", "heuristic"]
    heuristic = _moves(["heuristic", *rest], "classic1980", 3, 21, 300, points)
    assert _moves(["hard", *rest], "classic1980", 3, 21, 300, points) == heuristic
    expert = _moves(["expert", *rest], "classic1980", 3, 21, 300, points)
    assert expert == _moves(
        ["ismcts:120:heuristic:infer", *rest], "classic1980", 3, 21, 300, points
    )
    assert expert != heuristic
    tokens = ["hard", "greedy", "heuristic"]
    assert _moves(tokens, "classic1980", 3, 6, 120) == _moves(
        ["ismcts:300", *tokens[1:]], "classic1980", 3, 6, 120
    )
    assert _moves(tokens, "classic1980", 3, 6, 120) != _moves(
        ["heuristic", *tokens[1:]], "classic1980", 3, 6, 120
    )


def test_heuristic_is_a_function_of_its_view() -> None:
    """Heuristic players with different seeds choose the same card in the same position,
    Play 2 decisions (whose answers are sampled) included, so the arena's duplicate games
    differ only where another bot chose differently (R-P2-1)."""
    from ono99.bots.heuristic import HeuristicBot

    checked = p2 = 0
    for k in range(30):
        g = Game("mattel2022", 3, seed=zlib.crc32(f"pure:{k}".encode()), events=False)
        a, b = HeuristicBot(), HeuristicBot()
        while g.to_move is not None:
            view = g.view(g.to_move)
            move = a.act(view)
            assert b.act(view) == move
            checked += 1
            p2 += int(Card.PLAY2) in view.legal and len(view.legal) > 1
            g.apply(move)
    assert checked > 500 and p2 > 20


def test_hand_sampling_follows_the_hand_belief() -> None:
    """The heuristic's fast by-kind sampler draws hands with the same odds as weighted
    sampling without replacement over the card list (HAND_BIAS; R-SET-1 card counting)."""
    from ono99.bots.common import weighted_hand
    from ono99.bots.heuristic import HeuristicBot

    g = Game("mattel2022", 2, seed=3, events=False)
    ctx = HeuristicBot().context(g.view(g.to_move))
    cards = [c for c, k in enumerate(ctx.pool) for _ in range(k)]
    rng = random.Random(2)
    n = 20_000
    fast = [0] * 16
    slow = [0] * 16
    for _ in range(n):
        hand, drawn = ctx.sample_hand(4)
        assert drawn in cards
        for c in hand:
            fast[c] += 1
        for c in weighted_hand(cards[:], 4, rng):
            slow[c] += 1
    for c in range(16):
        # counts of a card kind in 20 000 hands of 4: binomial-like, SD < 70
        assert abs(fast[c] - slow[c]) < 400, (c, fast[c], slow[c])


def test_bots_get_views_that_hold_no_other_hands() -> None:
    """R-SET-1: a bot's input is a PlayerView holding its own hand and only public facts
    (hand sizes, piles); no attribute leads to the Game or another seat's cards."""
    g = Game("mattel2022", 4, seed=3)
    view = g.view(0)
    assert isinstance(view, PlayerView)
    assert view.hand == tuple(g.hands[0])
    for name in view.__dataclass_fields__:
        value = getattr(view, name)
        assert not isinstance(value, Game)
        if name == "hand":
            continue
        # no field holds another seat's hand
        for s in (1, 2, 3):
            other = tuple(g.hands[s])
            assert value != other and (not isinstance(value, tuple) or other not in value)
    assert view.laid_down == ((), (), (), ())
    # the view is the same whatever the hidden cards are: deal the other hands and the
    # draw pile again (sizes kept) and seat 0 sees exactly what it saw
    w = g.copy()
    hidden = [c for s in (1, 2, 3) for c in w.hands[s]] + w.draw_pile
    random.Random(1).shuffle(hidden)
    for s in (1, 2, 3):
        w.hands[s] = [hidden.pop() for _ in range(4)]
    w.draw_pile = hidden
    w.resettle()
    assert w.hands[1:] != g.hands[1:] and w.view(0) == view
    assert not hasattr(view, "hands") and not hasattr(view, "__dict__")  # slots: nothing added
    for name in ["random", "greedy", "heuristic", "ismcts:5"]:
        a = make_bot(name, 2).act(view)
        assert a in view.legal


def test_bot_decisions_depend_only_on_the_view() -> None:
    """Two games that differ only in cards hidden from seat 0 give seat 0's bots the same
    view and so the same (seeded) decisions."""
    g1 = Game("mattel2022", 3, seed=11, events=False)
    g2 = g1.copy()
    # swap the two opponents' hands: invisible to seat 0 (equal sizes)
    g2.hands[1], g2.hands[2] = g2.hands[2], g2.hands[1]
    v1, v2 = g1.view(0), g2.view(0)
    assert v1 == v2
    for name in ["heuristic", "ismcts:30"]:
        assert make_bot(name, 4).act(v1) == make_bot(name, 4).act(v2)


def test_bots_always_draw_at_once() -> None:
    """R-DRAW-1: under the draw penalty bots take the pending draw at once."""
    g = Game("classic1980", 3, options={"draw_penalty": True}, seed=2)
    g.apply(g.legal_actions(0)[0])
    assert g.pending_draw == 0
    for name in ["random", "greedy", "heuristic", "ismcts:5", "hard"]:
        assert make_bot(name, 0).act(g.view(0)) == DRAW


def _points_bust_game() -> Game:
    for i in range(2000):
        g = Game(
            "classic1980",
            3,
            options={"scoring": "points"},
            seed=zlib.crc32(f"bust:{i}".encode()),
            events=False,
        )
        rng = random.Random(i)
        while not g.is_over:
            if g.must_bust_play and len(g.legal_actions()) >= 2:
                return g
            legal = g.legal_actions()
            g.apply(legal[rng.randrange(len(legal))])
    raise AssertionError("no points-mode bust with a choice found")


def test_points_bust_throws_the_highest_card() -> None:
    """R-END-3: a bust in points mode plays the card that leaves the lowest hand score."""
    g = _points_bust_game()
    seat = g.to_move
    assert seat is not None
    view = g.view(seat)
    assert view.bust_mode
    best = max(view.legal, key=lambda c: CARD_POINTS[c])
    for name in ["greedy", "heuristic", "ismcts:10", "hard"]:
        assert make_bot(name, 0).act(view) == best


def test_four_99s_are_discarded() -> None:
    """R-99-3: with four ONO 99 cards, greedy and heuristic discard them (99x4)."""
    n99 = int(Card.NINETY_NINE)
    deal = ([[n99] * 4, [1, 2, 3, 4]], [5, 6, 7, 8, 9])
    g = Game("mattel2022", 2, deals=[deal], seed=1)
    view = g.view(0)
    assert view.legal == (FOUR_99,)
    for name in ["random", "greedy", "heuristic", "ismcts:5"]:
        assert make_bot(name, 0).act(view) == FOUR_99


def test_heuristic_aims_play2_and_keeps_escapes() -> None:
    """R-P2-1, R-LIM-2: at a low total the heuristic dumps a high number and keeps its
    escape cards; at a high total it throws Play 2 rather than wasting a -10."""
    m10, p2, rev = int(Card.MINUS10), int(Card.PLAY2), int(Card.REVERSE)
    deal = ([[10, m10, rev, p2], [1, 2, 3, 4]], [5, 6, 7, 8, 9])
    g = Game("mattel2022", 2, deals=[deal], seed=1)
    bot = make_bot("heuristic", 0)
    assert bot.act(g.view(0)) == 10
    deal2 = ([[15, m10, rev, p2], [9, 9, 8, 8]], [5, 6, 7, 8, 9])
    g2 = Game("mattel2022", 2, deals=[deal2], seed=1)
    g2.total = 95  # a test position: high total
    g2._legal = g2._compute_legal()
    assert bot.act(g2.view(0)) == p2


def test_card_counting_and_belief_use_only_the_view() -> None:
    """The unseen cards are deck − own hand − discard − laid-down; a believed world keeps
    every public fact and the viewer's hand."""
    g = Game("mattel2022", 3, seed=9, events=False)
    rng = random.Random(0)
    for _ in range(25):
        g.apply(g.legal_actions()[0])
    view = g.view(g.to_move or 0)
    counts = pool_counts(view)
    assert sum(counts) == len(unseen_cards(view))
    w = believed_world(view, rng)
    assert w.view(view.seat) == view
    hidden = sorted(c for s in range(3) if s != view.seat for c in w.hands[s])
    assert sorted(hidden + w.draw_pile) == sorted(unseen_cards(view))
    assert sum(len(h) for h in w.hands) + len(w.draw_pile) + len(w.discard) == 112


def test_an_eliminated_viewer_counts_its_own_hand_once() -> None:
    """R-END-1: a mattel2022 player out of the game still holds (face up) its hand; the
    cards it cannot see are the deck less its hand, the discard pile and the other
    laid-down hands, and a sampled world has the full draw pile."""
    from ono99.determinize import sample_world

    g = Game("mattel2022", 3, seed=3)
    rng = random.Random(0)
    while not g.out and not g.is_over:
        _seat, actions = next(iter(g.acting().items()))
        g.apply(rng.choice(actions))
    assert g.out
    view = g.view(g.out[0])
    assert view.hand and view.laid_down[view.seat] == view.hand
    seen = len(view.hand) + len(view.discard)
    seen += sum(len(h) for s, h in enumerate(view.laid_down) if s != view.seat)
    assert len(unseen_cards(view)) == sum(g.rules.deck) - seen
    w = sample_world(view, random.Random(1))
    assert len(w.draw_pile) == view.draw_pile


def test_heuristic_second_plays_score_the_same_in_any_order() -> None:
    """R-P2-1, R-P2-3: when the heuristic weighs the second of two plays it scores each safe
    card of the rest once; only a Play 2 among them draws random numbers (the next player
    would then owe two), so the order they are scored in changes no score. The compiled
    heuristic relies on this: it scores them in hand order, not in a set's order."""
    from ono99.bots import heuristic as h
    from ono99.bots.common import C99, P2, is_safe, new_total

    rng = random.Random(23)
    compared = with_p2 = 0
    for rules, options, n in [("mattel2022", {}, 3), ("classic1980", {}, 4),
                              ("gamerules", {"draw_penalty": True}, 3)]:  # fmt: skip
        for _ in range(40):
            g = Game(rules, n, options=options, seed=rng.getrandbits(32), events=False)
            while not g.is_over:
                p = g.to_move
                assert p is not None
                view = g.view(p)
                r = view.rules
                if view.plays_left == 2 and not view.bust_mode:
                    for card in set(view.hand):
                        if card in r.answers:
                            continue
                        rest = list(view.hand)
                        rest.remove(card)
                        t1 = new_total(r, card, view.total)
                        played = view.played_99 or card == C99
                        seconds = sorted({c for c in rest if is_safe(r, c, t1, False, played)})
                        if len(seconds) < 2:
                            continue
                        scores = []
                        for order in (seconds, seconds[::-1]):
                            ctx = h.HeuristicBot(samples=h.ROLLOUT_SAMPLES).context(view)
                            scores.append(
                                {c: h._score(ctx, c, rest, t1, False, played) for c in order}
                            )
                        assert scores[0] == scores[1]
                        compared += 1
                        with_p2 += P2 in seconds
                legal = g.legal_actions()
                g.apply(legal[rng.randrange(len(legal))])
    assert compared > 50 and with_p2 > 10
