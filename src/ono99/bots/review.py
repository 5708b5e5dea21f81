"""A game review: every decision with a choice valued from the deciding seat's own view.

:func:`review_game` replays a record (R-REC) with the engine and, at every move where the
seat that made it had more than one legal action, asks the evaluator
(:mod:`ono99.bots.evaluate`) for each action's win chance from that seat's
:class:`~ono99.view.PlayerView` (never a card it could not see), with the worlds read from
what the others played since that seat's previous move. The win chance lost by a move is
the best option's win chance minus the played one's; a loss of :data:`MISTAKE` or more is a
mistake. It also values each seat's position when the game began, before anyone decided
anything: how much of the result the deal already gave.

``ono99 review`` prints it (:meth:`Review.to_json` is its ``--json``, CONTRACTS.md); the
terminal game, the web replay and the analysis report build on the same objects.

>>> from ono99.records import parse_record
>>> rec = parse_record({"rules": "mattel2022", "players": 2, "seed": 4, "moves": ["4", "8"]})
>>> r = review_game(rec, samples=8, seed=1)
>>> [d.move for d in r.decisions], [d.seat for d in r.decisions]
([0, 1], [0, 1])
>>> sorted(r.to_json()) == ["decisions", "seats"]
True
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ono99.bots.evaluate import DEFAULT_SAMPLES, Evaluator, Values, WinChance
from ono99.cards import action_code, parse_action
from ono99.errors import Ono99Error
from ono99.records import ParsedRecord, apply_move
from ono99.view import PlayerView

__all__ = ["MISTAKE", "Decision", "Review", "SeatSummary", "review_game"]

#: a move that loses this much win chance or more, clearly (its paired 95 % interval above
#: 0), is a mistake (docs/review.md: five points of the game given away in one move)
MISTAKE = 0.05


@dataclass(frozen=True, slots=True)
class Decision:
    """One move with a choice: who made it, what was played, every option's value."""

    #: 0-based index of the move in the record
    move: int
    seat: int
    played: int
    values: Values

    @property
    def loss(self) -> float:
        """The win chance the move lost: the best option's minus the played one's."""
        return self.values.loss(self.played)

    @property
    def mistake(self) -> bool:
        """A loss of :data:`MISTAKE` or more, and more than noise: the paired interval of
        the best option's win minus the played one's lies above 0."""
        if self.loss < MISTAKE - 1e-9:  # 0.05 in floating point may fall a hair short
            return False
        return self.values.loss_ci95(self.played)[0] > 0.0

    @property
    def best(self) -> int:
        """The action with the highest win chance."""
        return self.values.best.action

    def to_json(self) -> dict[str, Any]:
        return {
            "move": self.move,
            "seat": self.seat,
            "played": action_code(self.played),
            "options": [o.to_json() for o in self.values.options],
            "loss": _r(self.loss),
        }


@dataclass(frozen=True, slots=True)
class SeatSummary:
    """One seat's review: its decisions, mean loss and mistakes, what the deal gave it
    (``start``: its win chance when the game began) and what it got (``result``: its
    share of the win, None when the record stops before the end)."""

    seat: int
    name: str
    decisions: int
    mean_loss: float
    mistakes: int
    start: WinChance
    result: float | None

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "name": self.name,
            "decisions": self.decisions,
            "mean_loss": _r(self.mean_loss),
            "mistakes": self.mistakes,
            "start_win": _r(self.start.win),
            "start_ci95": [_r(x) for x in self.start.ci95],
            "result": self.result,
        }


@dataclass(frozen=True, slots=True)
class Review:
    """A whole record's review (:func:`review_game`)."""

    decisions: tuple[Decision, ...]
    seats: tuple[SeatSummary, ...]
    samples: int
    seed: int

    def to_json(self) -> dict[str, Any]:
        """The ``ono99 review --json`` object (CONTRACTS.md)."""
        return {
            "decisions": [d.to_json() for d in self.decisions],
            "seats": [s.to_json() for s in self.seats],
        }


def _r(x: float) -> float:
    """A probability as JSON shows it: 6 decimals (samples are never that fine)."""
    return round(x, 6)


def _share(winner: int | list[int] | None, seat: int) -> float | None:
    if winner is None:
        return None
    winners = winner if isinstance(winner, list) else [winner]
    return 1.0 / len(winners) if seat in winners else 0.0


def review_game(
    record: ParsedRecord,
    *,
    seat: int | None = None,
    seed: int = 0,
    samples: int = DEFAULT_SAMPLES,
    progress: Callable[[int, int], None] | None = None,
) -> Review:
    """Review ``record``: the decisions of ``seat`` (None: every seat), each valued from
    ``samples`` worlds drawn from ``seed`` and that seat's view. ``progress(done, total)``
    is called after each decision valued.

    Raises what replaying raises for a bad record (RecordError, RulesError, ReplayError
    with the bad move's index), before any valuing."""
    game = record.new_game(events=False)
    n = game.n
    # Replay first: a bad record fails before any work, and each decision's view and the
    # seat's previous decision are known up front.
    starts = [game.view(s) for s in range(n)]
    todo: list[tuple[int, int, int, PlayerView, tuple[PlayerView, int] | None]] = []
    last: dict[int, tuple[PlayerView, int]] = {}
    for i, move in enumerate(record.moves):
        try:
            action = parse_action(move)
            actor = game.verify(action)
        except Ono99Error:
            apply_move(game, i, move)  # raises the ReplayError that names move i
            raise
        view = game.view(actor)
        if len(game.legal_actions(actor)) > 1 and (seat is None or actor == seat):
            todo.append((i, actor, action, view, last.get(actor)))
        last[actor] = (view, action)
        apply_move(game, i, move)
    total = len(todo) + (n if seat is None else 1)
    done = 0
    decisions: list[Decision] = []
    for i, actor, action, view, previous in todo:
        ev = Evaluator(view, seed=seed, previous=previous)
        ev.add(samples)
        decisions.append(Decision(i, actor, action, ev.values()))
        done += 1
        if progress is not None:
            progress(done, total)
    summaries: list[SeatSummary] = []
    for s in range(n) if seat is None else (seat,):
        ev = Evaluator(starts[s], seed=seed, as_it_stands=True)
        ev.add(samples)
        done += 1
        if progress is not None:
            progress(done, total)
        mine = [d for d in decisions if d.seat == s]
        summaries.append(
            SeatSummary(
                seat=s,
                name=game.names[s],
                decisions=len(mine),
                mean_loss=sum(d.loss for d in mine) / len(mine) if mine else 0.0,
                mistakes=sum(d.mistake for d in mine),
                start=ev.chance(),
                result=_share(game.winner, s),
            )
        )
    return Review(tuple(decisions), tuple(summaries), samples, seed)
