"""A view as JSON is what :data:`ono99.view.VIEW_JSON` declares, key by key (issue 23: one
declaration of the state that views, JSON and the web protocol come from)."""

from __future__ import annotations

import random
from dataclasses import fields

import pytest

from ono99 import Game
from ono99.cards import action_code
from ono99.view import VIEW_JSON, PlayerView, PublicView

PRESETS = [("mattel2022", {}), ("classic1980", {}), ("classic1980", {"scoring": "points"}),
           ("gamerules", {"draw_penalty": True})]  # fmt: skip


def test_every_key_comes_from_a_view_field() -> None:
    names = {f.name for f in fields(PlayerView)}
    assert all(k.source in names for k in VIEW_JSON)
    assert len({k.name for k in VIEW_JSON}) == len(VIEW_JSON)


@pytest.mark.parametrize(("rules", "options"), PRESETS)
def test_views_written_as_declared_through_whole_games(
    rules: str, options: dict[str, object]
) -> None:
    """R-SET-1, R-REC: after every move of random games, each seat's JSON has exactly the
    declared keys in order, its own hand as card codes, the others' sizes only; a
    spectator's has no seat, no hand and no moves."""
    for seed in range(6):
        g = Game(rules, 3, seed=seed, options=options)
        rng = random.Random(seed)
        while g.to_move is not None:
            for seat in range(3):
                data = g.view(seat).to_json()
                assert list(data) == [k.name for k in VIEW_JSON]
                assert data["seat"] == seat
                assert data["hand"] == [action_code(c) for c in g.hands[seat]]
                assert data["hand_sizes"] == [len(h) for h in g.hands]
                assert data["legal"] == [action_code(a) for a in g.legal_actions(seat)]
                assert data["total"] == g.total and data["to_move"] == g.to_move
            public = g.public_view()
            assert isinstance(public, PublicView) and not isinstance(public, PlayerView)
            spectator = public.to_json()
            assert list(spectator) == [k.name for k in VIEW_JSON]
            assert spectator["seat"] is None and spectator["hand"] == []
            assert spectator["legal"] == [] and spectator["bust_mode"] is False
            g.apply(rng.choice(g.legal_actions()))
        assert g.view(0).to_json()["winner"] == (
            list(g.winner) if isinstance(g.winner, list) else g.winner
        )


@pytest.mark.parametrize(("rules", "options"), PRESETS)
def test_a_lobby_view_is_the_declared_view_with_nothing_dealt(
    rules: str, options: dict[str, object]
) -> None:
    """R-SET-1 not yet done: a table's view before its first deal has the declared keys
    and the started game's preset and options, no cards anywhere and nobody to move."""
    from ono99.rules import make_rules
    from ono99.view import lobby_view

    r = make_rules(rules, options)
    data = lobby_view(r, ["Ana", "", "Cy"]).to_json()
    started = Game(rules, 3, seed=1, options=options).public_view().to_json()
    assert list(data) == list(started) == [k.name for k in VIEW_JSON]
    assert (data["rules"], data["options"]) == (started["rules"], started["options"])
    assert data["names"] == ["Ana", "", "Cy"] and data["seat"] is None
    assert data["hand"] == data["legal"] == data["discard"] == data["out"] == []
    assert data["hand_sizes"] == [0, 0, 0] and data["laid_down"] == [[], [], []]
    assert (data["total"], data["draw_pile"], data["round"], data["direction"]) == (0, 0, 0, 1)
    assert data["to_move"] is data["owes_two"] is data["winner"] is data["pending_draw"] is None
