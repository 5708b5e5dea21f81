"""The table companion's game logic, shared by the server and the browser.

Everything a change to a tracked game does (check the request, apply it on
:class:`ono99.tracking.Tracker`, tell it in the page's language) is here, with no web
framework, database or network: ``ono99 serve`` (:mod:`ono99.web.companion`) calls it for
the games it keeps, and the page runs this same module in the browser under Pyodide
(:class:`Local`, docs/companion.md "Without a server"). Only the Python standard library
and ``ono99``'s engine are imported, so the archive the page unpacks
(:func:`ono99.web.companion_site.python_archive`) holds what this module needs and no more.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from ono99.errors import Ono99Error
from ono99.events import Event
from ono99.i18n import N_
from ono99.names import clean_name
from ono99.narrate import narrate
from ono99.tracking import Tracker
from ono99.web.announce import catalog, speaking, translate

__all__ = [
    "TAP_LIMIT", "CompanionError", "check_name", "new_tracker", "tracker_from", "game_data",
    "apply_change", "merge", "payload", "error_text", "Local", "CHANGES", "STALE",
]  # fmt: skip

#: the most taps one game may have (a long 8-player points game stays far below)
TAP_LIMIT = 20_000
#: the changes a game takes (the last part of ``POST /api/companion/{id}/CHANGE``)
CHANGES = ("tap", "undo", "redo", "laid", "insert", "points", "hands")
#: a change made on a game that another screen changed since, and that cannot be merged
STALE = N_("the game changed on another screen; here it is as it stands")


class CompanionError(Exception):
    """A request the companion refuses: an HTTP status and a message to translate."""

    def __init__(self, status: int, template: str, **params: Any) -> None:
        super().__init__(template)
        self.status = status
        self.template = template
        self.params = params

    def text(self, lang: str) -> str:
        return catalog(lang).gettext(self.template).format(**self.params)


def error_text(e: Exception, lang: str) -> str:
    """``e`` as one line of valid UTF-8 in ``lang``."""
    text = e.text(lang) if isinstance(e, CompanionError) else translate(e, lang)
    # a client's lone surrogate quoted in a reason becomes "?"
    return " ".join(text.split()).encode("utf-8", "replace").decode("utf-8")


def check_name(raw: Any) -> str:
    if not isinstance(raw, str):
        raise CompanionError(400, N_("names are 1 to 40 characters, without control characters"))
    try:  # the one rule of ono99.names (a lone surrogate, JSON "\ud800", is refused too)
        return clean_name(raw)
    except Ono99Error:
        raise CompanionError(
            400, N_("names are 1 to 40 characters, without control characters")
        ) from None


def new_tracker(data: Mapping[str, Any]) -> Tracker:
    """A new game from the body of ``POST /api/companion``."""
    players = data.get("players")
    if not isinstance(players, list):
        raise CompanionError(400, N_("players must be a list of names"))
    names = [check_name(p) for p in players[:9]]
    options = data.get("options") or {}
    if not isinstance(options, dict):
        raise CompanionError(400, N_("options must be an object"))
    return Tracker(str(data.get("rules", "mattel2022")), names, data.get("first", 0), options)


def tracker_from(data: Mapping[str, Any], *, strict: bool = False) -> Tracker:
    """The game of :func:`game_data`'s form. ``strict``: a move that cannot be applied is
    a :class:`~ono99.errors.RecordError` (a record a client sends); otherwise the replay
    stops there and the rest waits on the redo list (a stored game whose round waits)."""
    redo = data.get("redo") or []
    if not isinstance(redo, list) or not all(isinstance(x, str) for x in redo):
        raise CompanionError(400, N_("moves must be a list of move codes"))
    moves = data.get("moves")
    if len(redo) + (len(moves) if isinstance(moves, list) else 0) > TAP_LIMIT:
        raise CompanionError(400, N_("this game has too many moves"))
    t = Tracker.from_record(data, stop_at_error=not strict)
    # taps the record has past where it stopped (a round waiting for its hands) come
    # next: on top of the redo list
    t.redo_taps = [*redo, *t.redo_taps]
    return t


def game_data(t: Tracker) -> dict[str, Any]:
    """The record of ``t`` with its redo list: all it takes to make it again."""
    return {**t.record(), "redo": list(t.redo_taps)}


def _tap_code(raw: Any) -> str:
    if not isinstance(raw, str) or len(raw) > 8:
        raise CompanionError(400, N_("a tap is a card code or bust"))
    return raw


def _room(t: Tracker) -> None:
    if len(t.taps) >= TAP_LIMIT:
        raise CompanionError(400, N_("this game has too many moves"))


def _count_error(t: Tracker, what: str) -> CompanionError:
    n = len(t.names)
    if what == "points":
        return CompanionError(400, N_("give the points of {count} hands, one per player"), count=n)
    return CompanionError(400, N_("give the cards of {count} hands, one per player"), count=n)


def apply_change(
    t: Tracker, what: str, data: Mapping[str, Any], *, stale: bool = False
) -> tuple[list[Event], str | None, int | None]:
    """Apply the change ``what`` (one of :data:`CHANGES`) with its body ``data`` to ``t``.
    Answers the events to tell, the tap to name in them and the seat whose own card took
    the total to the limit; a refused change raises and leaves ``t`` as it was.

    ``stale``: the change was made on a version of the game another screen has changed
    since. A tap, a fix or what a round's end needs is merged (applied where it still
    applies legally to the game as it stands, refused otherwise); an undo or a redo is
    refused: it would take back or make again another screen's tap."""
    if stale and what in ("undo", "redo"):
        raise CompanionError(409, STALE)
    if what == "tap":
        tap = _tap_code(data.get("tap"))
        _room(t)
        loser = t.loser_of(tap)
        return t.tap(tap), tap, loser
    if what == "undo":
        return t.undo(), None, None
    if what == "redo":
        loser = t.loser_of(t.redo_taps[-1]) if t.redo_taps else None
        events = t.redo()
        return events, (t.taps[-1] if t.taps else None), loser
    if what == "laid":
        cards = data.get("cards")
        if cards is not None and (not isinstance(cards, list) or len(cards) > 8):
            raise CompanionError(400, N_("give the cards as a list of card codes"))
        t.enter_laid(data.get("seat"), cards)  # type: ignore[arg-type]
        return [], None, None
    if what == "insert":
        tap = _tap_code(data.get("tap"))
        _room(t)
        t.insert(data.get("at"), tap)  # type: ignore[arg-type]
        return [], None, None  # told as a fix: the total it leaves
    if what == "points":
        points = data.get("points")
        if not isinstance(points, list) or len(points) > 8:
            raise _count_error(t, what)
        return t.enter_points(points, data.get("round")), None, None
    if what == "hands":
        hands, at = data.get("hands"), data.get("tap")
        if not isinstance(hands, list) or len(hands) > 8:
            raise _count_error(t, what)
        if at is not None and (not isinstance(at, int) or isinstance(at, bool)):
            raise _count_error(t, what)
        return t.enter_hands(hands, at), None, None
    raise CompanionError(404, N_("there is no such game"))


def merge(t: Tracker, items: list[Any]) -> list[tuple[int, Exception]]:
    """Apply ``items`` (changes ``{"path": CHANGE, "body": {...}}`` one screen made in
    order, offline, on a game another screen has changed since) on top of ``t``: each one
    that still applies legally is applied, the others are refused and answered as
    ``(index, error)``. An undo or a redo stands only where it takes back (or makes
    again) one of these items' own taps, never another screen's."""
    own = undone = 0  # this screen's taps on top of the game; its taps taken back
    refused: list[tuple[int, Exception]] = []
    for i, item in enumerate(items):
        what = item.get("path") if isinstance(item, dict) else None
        body = item.get("body") if isinstance(item, dict) else None
        before = len(t.taps)
        try:
            if not isinstance(what, str) or not isinstance(body, dict):
                raise CompanionError(400, N_("the request body is not JSON"))
            mine = (what == "undo" and own > 0) or (what == "redo" and undone > 0)
            apply_change(t, what, body, stale=not mine)
        except (CompanionError, Ono99Error) as e:
            refused.append((i, e))
            continue
        if what == "undo":
            own, undone = own - 1, undone + 1
        elif what == "redo":
            own, undone = own + 1, undone - 1
        elif len(t.taps) > before:
            own += len(t.taps) - before
            if what == "tap":
                undone = 0  # a new tap ends the redo list
    return refused


def announce(
    t: Tracker, events: list[Event], lang: str, tap: str | None, loser: int | None = None
) -> list[str]:
    """The engine's announcements of the last tap, in ``lang`` (no hidden card: the
    world's invented draws are never told). ``loser``: the seat whose own card ``tap``
    took the total to the limit (the bust of anyone else is told as the engine tells it)."""
    out: list[str] = []
    with speaking(lang) as tr:
        for e in events:
            e = e.heard_by(None)  # a tracked world's drawn cards are invented: never told
            if e.kind == "round_end" and e.info and e.info.get("waiting"):
                # R-END-3: nothing is scored until the hands are told
                out.append(tr.gettext(N_("Round {round} ends")).format(round=e.info["round"]))
                out.append(tr.gettext(N_("Scores wait for the cards left in each hand")))
                continue
            if e.kind == "round_end" and e.info and "hands" in e.info:
                info = {k: v for k, v in e.info.items() if k != "hands"}
                e = e._replace(info=info)
            if (
                e.kind == "bust"
                and e.card is None
                and tap
                and loser is not None
                and e.seat == loser
            ):
                # the card tapped took the total to the limit: say so first
                out.append(
                    tr.gettext(N_("{card} takes the total over the limit: {name} loses")).format(
                        card=tap, name=t.names[e.seat]
                    )
                )
                loser = None  # said once
            line = narrate(e, t.names, t.rules)
            if line:
                out.append(line)
    return out


#: events a noisy table needs to hear after the total (a play is the total itself)
_QUIET = frozenset({"play", "draw", "owes_two"})


def say(
    t: Tracker, events: list[Event], lang: str, tap: str | None, loser: int | None
) -> list[str]:
    """What the page speaks: the total first, short, then only what changes the game
    (a reverse, a bust, who is out, a round's end, the winner)."""
    loud = [e for e in events if e.kind not in _QUIET]
    state = t.state()
    first = [] if state["hands_needed"] else [str(state["total"])]
    if not any(e.kind in ("play", "four99", "bust") for e in events):
        first = []  # nothing played: no total to say (the start of the game)
    return first + announce(t, loud, lang, tap, loser)


def payload(
    t: Tracker,
    lang: str,
    events: list[Event] | None = None,
    tap: str | None = None,
    loser: int | None = None,
) -> dict[str, Any]:
    """The state of ``t`` and, after a change, what to show and to say about it."""
    out: dict[str, Any] = {"state": t.state()}
    if events is not None:
        out["announce"] = announce(t, events, lang, tap, loser)
        out["say"] = say(t, events, lang, tap, loser)
    return out


class Local:
    """The games of one browser, followed in the browser itself (Pyodide): JSON text in,
    JSON text out, the same answers as ``/api/companion`` (with ``record``: the game as
    :func:`game_data` writes it, for the browser to keep and to send to a server)."""

    def __init__(self) -> None:
        self.games: dict[str, Tracker] = {}

    def _answer(self, game_id: str, out: dict[str, Any]) -> str:
        t = self.games[game_id]
        return json.dumps({"id": game_id, **out, "record": game_data(t)}, ensure_ascii=False)

    def _refused(self, game_id: str | None, e: Exception, lang: str) -> str:
        out: dict[str, Any] = {"error": error_text(e, lang)}
        t = self.games.get(game_id) if game_id else None
        if t is not None:
            out["state"] = t.state()
        return json.dumps(out, ensure_ascii=False)

    def create(self, game_id: str, body: str, lang: str) -> str:
        """A new game (``body``: what ``POST /api/companion`` takes)."""
        try:
            t = new_tracker(json.loads(body))
        except (CompanionError, Ono99Error) as e:
            return self._refused(None, e, lang)
        self.games[game_id] = t
        return self._answer(game_id, payload(t, lang, t.last_events))

    def open(self, game_id: str, record: str, lang: str) -> str:
        """The game ``record`` (:func:`game_data`'s form), kept in this browser."""
        try:
            t = tracker_from(json.loads(record))
        except (CompanionError, Ono99Error, ValueError) as e:
            return self._refused(None, e, lang)
        self.games[game_id] = t
        return self._answer(game_id, payload(t, lang))

    def rebase(self, game_id: str, record: str, items: str, lang: str) -> str:
        """The game ``record`` (another screen's, :func:`game_data`'s form) with this
        browser's changes ``items`` merged on top (:func:`merge`); ``refused``: those
        that could not be, ``[{"index", "error"}]``."""
        try:
            t = tracker_from(json.loads(record))
            todo = json.loads(items)
        except (CompanionError, Ono99Error, ValueError) as e:
            return self._refused(None, e, lang)
        if not isinstance(todo, list):
            return self._refused(
                None, CompanionError(400, N_("the request body is not JSON")), lang
            )
        refused = merge(t, todo)
        self.games[game_id] = t
        out = payload(t, lang)
        out["refused"] = [{"index": i, "error": error_text(e, lang)} for i, e in refused]
        return self._answer(game_id, out)

    def change(self, game_id: str, what: str, body: str, lang: str) -> str:
        """One change (``what``: one of :data:`CHANGES`; ``body``: its request body)."""
        t = self.games.get(game_id)
        if t is None:
            return self._refused(None, CompanionError(404, N_("there is no such game")), lang)
        try:
            events, tap, loser = apply_change(t, what, json.loads(body))
        except (CompanionError, Ono99Error) as e:
            return self._refused(game_id, e, lang)
        return self._answer(game_id, payload(t, lang, events, tap, loser))
