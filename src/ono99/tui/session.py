"""A game against bots, independent of any user interface.

The human sits at seat 0; bots get their own :class:`~ono99.view.PlayerView`
only. A front end asks :meth:`Session.waiting_for`, makes the human's moves
with :meth:`Session.play` / :meth:`Session.draw`, lets one bot move at a time
with :meth:`Session.step` (pacing is the front end's job) and tells the events
it gets back.

Front ends read views and events only (issue 10): :meth:`Session.view` (the
human's), :meth:`Session.public_view`, :attr:`Session.names`,
:attr:`Session.rules`, :meth:`Session.acting`, :meth:`Session.events` (new
events since the last call, as the human may hear them) and
:meth:`Session.record`, which is there only once the game is over or
abandoned (:meth:`Session.abandon`). The engine's :class:`~ono99.game.Game`
is the session's own.

Draw penalty (R-DRAW-1): bots draw at once; the human's pending draw stays open
until the next card is played, so a front end gives the human a moment before
the next bot moves (see :meth:`Session.human_may_draw`).
"""

from __future__ import annotations

import math
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from ono99.bots import BOTS, LEVELS, PARAM_BOTS, Bot, make_bot
from ono99.bots.evaluate import DEFAULT_SAMPLES, Values, evaluate
from ono99.cards import DRAW
from ono99.events import Event
from ono99.game import Game, new_seed
from ono99.i18n import _
from ono99.records import to_record
from ono99.rules import Rules, make_rules
from ono99.texts import why_not
from ono99.view import PlayerView, PublicView

__all__ = ["HUMAN", "LEVELS", "HintAsk", "DEFAULT_LEVEL", "NotPlayable", "NotOver", "Session", "NewGame",
           "resolve_level", "bot_player_names", "PACES", "parse_pace", "check_draw_seconds",
           "DEFAULT_PACE", "DEFAULT_DRAW_SECONDS"]  # fmt: skip

HUMAN = 0
DEFAULT_LEVEL = "medium"

BotFactory = Callable[[str, int], Bot]


class NotPlayable(Exception):
    """The human's move is not allowed now; ``str(e)`` is the translated reason."""


class NotOver(RuntimeError):
    """The record of a game still being played was asked for (it holds the seed and so
    every hand: it is shown only once the game is over or abandoned)."""


@dataclass(frozen=True)
class HintAsk:
    """A hint asked for on the human's turn: their view (only what they may see), their
    previous decision in this game (the evaluator reads the others' plays since) and the
    index in the record that the move they make next will have."""

    view: PlayerView
    previous: tuple[PlayerView, int] | None
    move: int

    def values(self, samples: int = DEFAULT_SAMPLES, seed: int | None = None) -> Values:
        """Each legal action's win chance (``ono99.bots.evaluate``); slow (up to seconds),
        so front ends call it off their UI thread. ``seed`` None: a fresh one from
        :mod:`secrets` (the human did not choose it)."""
        seed = secrets.randbits(64) if seed is None else seed
        return evaluate(self.view, samples, seed, self.previous)


def bot_player_names(count: int) -> list[str]:
    """Short names for ``count`` bots, in the current language."""
    names = [
        # Translators: short first names of the computer players; transliterate freely.
        _("Ana"), _("Bo"), _("Cy"), _("Dev"), _("Eli"), _("Fay"), _("Gus"),
    ]  # fmt: skip
    return names[:count]


def resolve_level(level: str) -> tuple[str, str | None]:
    """The bot name to build for ``--bots LEVEL`` and a note to show, if any.

    A difficulty level (easy, medium, hard, expert), any registered bot name, or a
    parametrised one (``ismcts:N``; ``policy:PATH`` once :mod:`ono99.envs.policy` is
    imported, as ``ono99 play`` and ``ono99 arena`` do for such a name) is accepted: the
    parametrised one is made once here, so a bad argument (a policy file that cannot be
    read) is refused before any game, as the arena refuses it. Anything else raises
    :class:`ValueError` with a one-line reason."""
    if level in BOTS:
        return level, None
    base, sep, _arg = level.partition(":")
    if sep and base in PARAM_BOTS:
        make_bot(level, 0)  # a one-line Ono99Error (a ValueError) for a bad argument
        return level, None
    choices = ", ".join([*sorted({*LEVELS, *BOTS}), "ismcts:N", "policy:PATH"])
    raise ValueError(
        _("unknown bot level {level!r} (choose {choices})").format(level=level, choices=choices)
    )


class Session:
    """One game: the human at seat 0 against ``players - 1`` bots."""

    def __init__(
        self,
        rules: str = "mattel2022",
        players: int = 4,
        *,
        options: Mapping[str, Any] | None = None,
        bots: str = "random",
        seed: int | None = None,
        dealer: int | None = None,
        bot_factory: BotFactory = make_bot,
        game: Game | None = None,
    ) -> None:
        """``dealer``: the dealer's seat (R-SET-3; None: the last seat, so you start);
        ``game``: play on from this game (tests set up a position so) instead of a new
        deal; the human is still seat 0."""
        #: the game's seed: the user's, or a fresh unguessable one (shown only in the record
        #: of the finished game)
        self.seed = seed if seed is not None else new_seed()
        if game is None:
            preset = make_rules(rules, options)
            preset.check_players(players)
            names = [_("You"), *bot_player_names(players - 1)]
            game = Game(preset, names, seed=self.seed, dealer=dealer)
        elif isinstance(game.seed, int):
            self.seed = game.seed
        self._game = game
        self.level = bots
        self.bots: dict[int, Bot] = {
            s: bot_factory(bots, self.seed * 10 + s) for s in range(1, game.n)
        }
        for bot in self.bots.values():  # e.g. optimal, solved for mini only: refused now
            bot.check_game(game.rules, game.n)
        self._seen = 0
        self._abandoned = False
        #: the human's last decision (view, action): a hint's evaluator reads from it
        self._previous: tuple[PlayerView, int] | None = None
        #: record indices of the human's moves made while a hint was shown
        self._hinted: list[int] = []
        self._hint_at: int | None = None  # the move index the hint shown is for

    # ------------------------------------------------------------------ queries

    @property
    def names(self) -> tuple[str, ...]:
        """The players' names in seat order (the human's is "You" in the language)."""
        return tuple(self._game.names)

    @property
    def rules(self) -> Rules:
        """The rules of this game (preset and options resolved)."""
        return self._game.rules

    @property
    def players(self) -> int:
        return self._game.n

    def view(self) -> PlayerView:
        """What the human may see."""
        return self._game.view(HUMAN)

    def public_view(self) -> PublicView:
        """What everyone may see (no hand)."""
        return self._game.public_view()

    def acting(self) -> dict[int, tuple[int, ...]]:
        """Who may act now and with what (``Game.acting``): under the draw penalty the
        human's pending draw and the next player's move both appear."""
        if self._abandoned:
            return {}
        return self._game.acting()

    @property
    def is_over(self) -> bool:
        return self._game.is_over

    def waiting_for(self) -> Literal["you", "bot"] | None:
        """Who moves next: the human, a bot, or nobody (game over or abandoned)."""
        to_move = self.view().to_move
        if to_move is None or self._abandoned:
            return None
        return "you" if to_move == HUMAN else "bot"

    def human_may_draw(self) -> bool:
        """R-DRAW-1: the human's draw is pending (until the next card is played)."""
        return DRAW in self.acting().get(HUMAN, ())

    def why_not(self, action: int) -> str | None:
        """The translated reason why the human cannot make ``action`` now, or None."""
        return why_not(action, self.view())

    def abandon(self) -> None:
        """The human leaves this game (quit, or a new game): no more moves; its record
        may be saved."""
        self._abandoned = True

    def record(self) -> dict[str, Any]:
        """The game record (R-REC), once the game is over or abandoned: it holds the seed,
        and so every hand (raises :class:`NotOver` before). ``hinted`` lists the moves
        made after a hint (docs/records.md), only when there are some."""
        if not (self.is_over or self._abandoned):
            raise NotOver("the record is shown only once the game is over or abandoned")
        record = to_record(self._game)
        if self._hinted:
            record["hinted"] = list(self._hinted)
        return record

    @property
    def hinted(self) -> tuple[int, ...]:
        """Record indices of the human's moves made after a hint."""
        return tuple(self._hinted)

    def ask_hint(self) -> HintAsk | None:
        """What a hint needs, on the human's turn (None otherwise): value it with
        :meth:`HintAsk.values`, then tell :meth:`hint_shown` when it is on screen."""
        view = self.view()
        if self._abandoned or view.to_move != HUMAN or not view.legal:
            return None
        return HintAsk(view, self._previous, len(self._game.moves))

    def hint_current(self, ask: HintAsk) -> bool:
        """Whether the position ``ask`` was asked for is still the one on the table."""
        return not self._abandoned and len(self._game.moves) == ask.move

    def hint_shown(self, ask: HintAsk) -> bool:
        """The hint ``ask`` is shown now, so the human's next move is made after a hint;
        False (nothing noted) when the game has moved on since it was asked."""
        if not self.hint_current(ask):
            return False
        self._hint_at = ask.move
        return True

    # ------------------------------------------------------------------ moves

    def play(self, action: int) -> list[Event]:
        """Make the human's ``action`` (a card, ``FOUR_99`` or ``DRAW``); returns the
        new events. Raises :class:`NotPlayable` with the reason, changing nothing."""
        if self._abandoned:
            raise NotPlayable(_("The game is over"))
        reason = self.why_not(action)
        if reason is not None:
            raise NotPlayable(reason)
        index = len(self._game.moves)
        view = self.view()
        self._game.apply(action, HUMAN)
        if index == self._hint_at:
            self._hinted.append(index)
        self._previous = (view, action)  # as review_game reads a seat's decisions
        return self.events()

    def draw(self) -> list[Event]:
        """Take the human's pending draw (R-DRAW-1)."""
        return self.play(DRAW)

    def step(self) -> list[Event]:
        """Let the bot to move make one move (and draw at once); returns the events."""
        g = self._game
        seat = g.to_move
        if seat is None or seat == HUMAN or self._abandoned:
            return []
        action = self.bots[seat].act(g.view(seat))
        g.apply(action)
        while g.pending_draw is not None and g.pending_draw != HUMAN:
            g.apply(DRAW)  # R-DRAW-1: bots always draw at once
        return self.events()

    def events(self) -> list[Event]:
        """New events since the last call, as the human may hear them (their own drawn
        cards named, nobody else's: ``Game.events_for``)."""
        new = self._game.events_for(HUMAN, self._seen)
        self._seen += len(new)
        return new

    def events_so_far(self) -> list[Event]:
        """Events not yet handed out (e.g. the first round_start); same as :meth:`events`."""
        return self.events()


#: ``--pace`` names: seconds a bot takes to move
PACES = {"slow": 2.0, "normal": 1.0, "fast": 0.3}
DEFAULT_PACE = 1.0
#: R-DRAW-1: seconds the human has to draw before the next bot plays
DEFAULT_DRAW_SECONDS = 1.5
MAX_SECONDS = 30.0


def parse_pace(text: str) -> float:
    """``--pace``: slow, normal, fast, or seconds a bot move takes (0 to 30); raises
    :class:`ValueError` with a translated one-line reason."""
    word = text.strip().lower()
    if word in PACES:
        return PACES[word]
    try:
        seconds = float(word)
    except ValueError:
        seconds = math.nan
    if not 0 <= seconds <= MAX_SECONDS:  # nan and inf too
        raise ValueError(
            _("--pace must be slow, normal, fast or seconds from 0 to 30, not {value}").format(
                value=repr(text)
            )
        )
    return seconds


def check_draw_seconds(seconds: float) -> float:
    """``--draw-seconds``: the draw window (R-DRAW-1), more than 0 and at most 30 seconds."""
    if not 0 < seconds <= MAX_SECONDS:  # nan and inf too
        raise ValueError(
            _("--draw-seconds must be more than 0 and at most 30, not {value}").format(
                value=f"{seconds:g}"  # -1 as typed, not Python's -1.0
            )
        )
    return seconds


@dataclass(frozen=True)
class NewGame:
    """The settings of a game, as ``ono99 play``'s flags or the new-game screen choose them.

    ``bots`` is a level (or any registered bot name, see :func:`resolve_level`);
    ``seed`` None picks a fresh unguessable seed (:func:`~ono99.game.new_seed`). :meth:`session` validates everything
    (R-SET-5 player range, R-SET-6 options) by building the :class:`Session`.
    """

    rules: str = "mattel2022"
    players: int = 4
    bots: str = DEFAULT_LEVEL
    options: Mapping[str, Any] = field(default_factory=dict)
    seed: int | None = None
    #: seconds a bot takes to move (the terminal's pace, ``--pace``)
    pace: float = DEFAULT_PACE
    #: seconds the human has to draw under the draw penalty (``--draw-seconds``)
    draw_seconds: float = DEFAULT_DRAW_SECONDS
    #: the dealer's seat (R-SET-3); None: the last seat, so that you start
    dealer: int | None = None

    @classmethod
    def of(cls, session: Session) -> NewGame:
        """The settings ``session`` was made with (its options resolved, its seed)."""
        r = session.rules
        return cls(r.preset, session.players, session.level, dict(r.options), session.seed)

    def session(self) -> Session:
        """A new game with these settings; raises :class:`~ono99.errors.Ono99Error`."""
        return Session(
            self.rules, self.players, options=dict(self.options), bots=self.bots,
            seed=self.seed, dealer=self.dealer,
        )  # fmt: skip

    def next_game(self, k: int) -> NewGame:
        """The settings of the ``k``-th "play again" after this game: the deal passes ``k``
        seats to the left (R-SET-3: so the player left of the last dealer starts), and a
        series the user seeded goes on with the next seeds; otherwise every game gets a
        fresh unguessable seed (R-SET-1), never one derived from the last game's.

        >>> [NewGame(players=3, seed=7).next_game(k) for k in (1, 2, 3)][1].dealer
        1
        >>> NewGame(players=3).next_game(1).seed is None
        True
        """
        dealer = (self.players - 1 if self.dealer is None else self.dealer) + k
        seed = None if self.seed is None else self.seed + k
        return replace(self, seed=seed, dealer=dealer % self.players)
