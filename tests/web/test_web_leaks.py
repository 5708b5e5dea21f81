"""No leaks: every message to a seat holds only what that seat may know (R-SET-1).

Many complete games with several human seats and a spectator; afterwards the record is
replayed move by move and every message each client got is checked against the true state
at its move count: the hand is exactly the seat's true hand, and every list of card codes
anywhere in the message is one the seat may see (its hand, its legal moves, the discard
pile, hands laid face up, its own drawn cards, the hands shown at a points round's end).
Nothing else: no other seat's hand, no draw order."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import httpx
from server_helpers import Client, Server, arun, create, join, play_to_end, start

from ono99.cards import action_code
from ono99.records import parse_record

CODES = {action_code(a) for a in range(18)}

GAMES = [
    ("mattel2022", {}, 4),
    ("mattel2022", {}, 3),
    ("classic1980", {"draw_penalty": True}, 4),
    ("classic1980", {"scoring": "points", "target": 60, "draw_penalty": True}, 3),
    ("gamerules", {"draw_penalty": True}, 4),
    ("classic1980", {"zero_ending_99": True}, 3),
]


def _truth(record: dict[str, Any]) -> list[dict[str, Any]]:
    """The true state after each number of moves."""
    rec = parse_record(record)
    game = rec.new_game()
    out = []

    def snap() -> None:
        out.append(
            {
                "hands": [[action_code(c) for c in h] for h in game.hands],
                "discard": [action_code(c) for c in game.discard],
                "draw": [action_code(c) for c in reversed(game.draw_pile)],
                "out": list(game.out),
            }
        )

    snap()
    for move in rec.moves:
        game.apply(move)
        snap()
    return out


def _card_lists(value: Any, path: str = "") -> list[tuple[str, list[str]]]:
    found: list[tuple[str, list[str]]] = []
    if isinstance(value, dict):
        for k, v in value.items():
            found += _card_lists(v, f"{path}.{k}")
    elif isinstance(value, list):
        if value and all(isinstance(x, str) and x in CODES for x in value):
            found.append((path, value))
        else:
            for i, v in enumerate(value):
                found += _card_lists(v, f"{path}[{i}]")
    return found


def _check(msg: dict[str, Any], seat: int | None, truth: list[dict[str, Any]]) -> None:
    view = msg["view"]
    k = view["moves"]
    t = truth[k]
    assert view["seat"] == seat
    assert isinstance(view["draw_pile"], int)
    assert view["hand_sizes"] == [len(h) for h in t["hands"]]
    assert view["discard"] == t["discard"]
    if seat is None:
        assert view["hand"] == [] and view["legal"] == []
    else:
        assert view["hand"] == t["hands"][seat]
        assert set(view["legal"]) <= set(view["hand"]) | {"draw", "99x4"}
    for i, laid in enumerate(view["laid_down"]):
        assert laid == [] or (i in t["out"] and laid == t["hands"][i])
    for e in msg["events"]:
        info = e["info"] or {}
        if e["kind"] == "draw" and "cards" in info:
            assert e["seat"] == seat, ("another seat's drawn cards", e)
    for path, cards in _card_lists(msg):
        if path in (".view.hand", ".view.legal", ".view.discard") or path.startswith(
            ".view.laid_down["
        ):
            continue
        if path.startswith(".events[") and path.endswith(".info.cards"):
            continue  # checked above: own draws only
        if ".info.hands[" in path:
            continue  # a points round's end shows every hand (R-END-3 scoring)
        raise AssertionError(f"card list {cards} at {path} for seat {seat}")
    # the lists checked against the truth above are left out of the search: a long public
    # discard pile can hold the draw pile's next six cards in a row by chance
    checked = {"discard": [], "hand": [], "legal": [], "laid_down": []}
    text = repr({**msg, "view": {**view, **checked}})
    draw = t["draw"]
    if len(draw) >= 6:
        assert repr(draw[:6])[1:-1] not in text, "the draw order leaked"


async def _game(server: Server, rules: str, options: dict, players: int, seed: int) -> None:
    t = create(server, rules=rules, options=options, players=players, bots="easy", seed=seed)
    tid = t["table"]
    humans = players - 1
    seats = [join(server, tid, f"P{i}") for i in range(humans)]
    clients = [await Client.open(server, tid, s["token"], seat=s["seat"]) for s in seats]
    spec = await Client.open(server, tid)
    for c in clients:
        await c.next_state()
    start(server, tid, seats[0]["token"])
    await play_to_end(clients, random.Random(seed), timeout=90)
    await spec.drain(0.3)
    for c in clients:
        await c.drain(0.1)
    rec = httpx.get(f"{server.url}/api/tables/{tid}/record")
    assert rec.status_code == 200
    truth = _truth(rec.json())
    checked = 0
    for c in [*clients, spec]:
        for msg in c.messages:
            if msg["type"] == "state" and msg["view"]["phase"] != "lobby":
                _check(msg, c.seat, truth)
                checked += 1
        await c.close()
    assert checked > len(truth)
    assert spec.state is not None and spec.state["view"]["phase"] == "over"


def test_no_message_leaks_another_seats_cards(server: Server) -> None:
    """R-SET-1, R-DRAW-1, R-END-1..3: many whole games, 2 or 3 human seats and a spectator,
    every message checked against the true state."""

    async def run() -> None:
        await asyncio.gather(
            *(_game(server, r, o, n, 100 + i) for i, (r, o, n) in enumerate(GAMES * 2))
        )

    arun(run())


def test_the_checker_catches_a_leak() -> None:
    """The check above fails on a message holding another seat's hand, another seat's drawn
    card or the draw order, and not on a discard pile that repeats the draw order."""
    truth = [{"hands": [["1", "2"], ["3", "4"]], "discard": [], "draw": [], "out": []}]
    view = {"seat": 0, "moves": 0, "draw_pile": 9, "hand_sizes": [2, 2], "discard": [],
            "hand": ["1", "2"], "legal": ["1"], "laid_down": [[], []]}  # fmt: skip
    _check({"view": view, "events": []}, 0, truth)
    for leak in ({"other": ["3", "4"]}, {"names": [["3", "4"]]}):
        msg = {"view": {**view, **leak}, "events": []}
        try:
            _check(msg, 0, truth)
        except AssertionError:
            continue
        raise AssertionError(f"not caught: {leak}")
    # the draw pile's next six cards: public where the discard pile repeats them by chance,
    # a leak anywhere else (here inside a text)
    six = ["5", "6", "7", "8", "9", "10"]
    same = [{**truth[0], "discard": six, "draw": six}]
    _check({"view": {**view, "discard": six}, "events": []}, 0, same)
    try:
        _check({"view": {**view, "discard": six, "turn": repr(six)}, "events": []}, 0, same)
    except AssertionError as e:
        assert "draw order" in str(e)
    else:
        raise AssertionError("the draw order in a text not caught")
    drawn = {"kind": "draw", "seat": 1, "info": {"count": 1, "cards": ["3"]}}
    try:
        _check({"view": view, "events": [drawn]}, 0, truth)
    except AssertionError:
        return
    raise AssertionError("another seat's drawn card not caught")
