"""``ono99 play --plain``: the game as lines, for screen readers and scripts.

Before each prompt: a translated line saying what to do, then the contract lines
``total: N`` and ``hand: c1 c2 ...`` (card codes), then the prompt ``> ``. Answers:
a card code, ``99x4``, ``draw``, ``help`` or ``quit``; end of input quits. On your turn
``hint`` also prints each legal move's win chance (``code: N % to win`` in the language),
valued from your own view, and the move you then make is noted in the record.

Draw penalty (R-DRAW-1): no timers here. After your play the prompt comes again
offering ``draw``; an empty line or any other card answer skips the draw.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TextIO

from ono99.bots.evaluate import DEFAULT_SAMPLES
from ono99.cards import action_code, parse_action
from ono99.errors import RecordError
from ono99.events import Event
from ono99.i18n import _
from ono99.termsafe import terminal_safe
from ono99.texts import (
    final_standings,
    rules_help,
    standing_text,
    tell,
    turn_text,
    winner_text,
)
from ono99.tui.session import HUMAN, NotPlayable, Session

__all__ = ["PlainGame", "run_plain"]

Saver = Callable[[Session], str | None]


class _Quit(Exception):
    pass


class PlainGame:
    """The line-mode loop over one :class:`Session`."""

    def __init__(
        self,
        session: Session,
        inp: TextIO,
        out: TextIO,
        save: Saver,
        hint_samples: int = DEFAULT_SAMPLES,
    ) -> None:
        self.s = session
        self.inp = inp
        self.out = out
        self.save = save
        self.hint_samples = hint_samples

    def say(self, line: str = "") -> None:
        self.out.write(line + "\n")
        self.out.flush()

    def tell(self, events: Iterable[Event]) -> None:
        s = self.s
        events = list(events)
        for e in events:
            if e.kind == "game_over":
                continue  # said once, with the final standings (finish)
            line = tell(e, s.names, s.rules, HUMAN)
            if line:
                self.say(line)
            if e.kind == "round_end" and not any(x.kind == "game_over" for x in events):
                self.standings()

    def standings(self) -> None:
        view = self.s.view()
        for seat, name in enumerate(view.names):
            standing = standing_text(view, seat)
            if standing:
                self.say(_("{name}: {standing}").format(name=name, standing=standing))

    def final_standings(self) -> None:
        """Every player by place (:func:`ono99.texts.final_places`): the winner first, then
        the others in the reverse of the order they went out, those put out at the same
        round's end of a points game by their points (R-END-3)."""
        view = self.s.view()
        for place, seat, standing in final_standings(view):
            self.say(
                _("{place}. {name}: {standing}").format(
                    place=place, name=view.names[seat], standing=standing
                )
            )

    def ask(self, *header: str) -> str:
        """Print the header lines, ``total:``, ``hand:`` and the prompt; read one answer."""
        view = self.s.view()
        for line in header:
            self.say(line)
        self.say(f"total: {view.total}")
        self.say(" ".join(["hand:", *(action_code(c) for c in view.hand)]))
        self.out.write("> ")
        self.out.flush()
        line = self.inp.readline()
        if not line:  # end of input = quit
            self.say()
            raise _Quit
        if not _isatty(self.inp):  # keep a transcript readable: one answer per line
            self.say(terminal_safe(line.strip()))  # control bytes shown escaped, never sent
        return line.strip()

    def help(self) -> None:
        for line in rules_help(self.s.rules):
            self.say(line)
        self.say(
            _("Answer with a card code from your hand (for example 7, -10, R, P2), 99x4, "
              "draw, help or quit.")
        )  # fmt: skip
        self.say(_("On your turn, answer hint to see each card's chance to win."))
        # the moves you can play come with the prompt that follows

    def hint(self) -> None:
        """Each legal move's win chance, from the human's own view (docs/review.md)."""
        ask = self.s.ask_hint()
        if ask is None:
            return
        self.say(_("Working out each card's chance to win…"))
        values = ask.values(self.hint_samples)
        self.s.hint_shown(ask)
        for o in values.options:
            self.say(
                _("{card}: {percent} % to win").format(card=o.code, percent=f"{100 * o.win:.0f}")
            )

    def command(self, answer: str) -> str | None:
        """``answer`` in lower case, after the answers every prompt takes: quit leaves
        the game (raises), help prints the rules and gives None (ask again)."""
        word = answer.lower()
        if word in ("quit", "q"):
            raise _Quit
        if word in ("help", "?"):
            self.help()
            return None
        return word

    def run(self) -> int:
        self.tell(self.s.events())
        try:
            while not self.s.is_over:
                if self.s.human_may_draw() and self.s.waiting_for() == "bot":
                    self.offer_draw()
                elif self.s.waiting_for() == "you":
                    self.turn()
                else:
                    self.tell(self.s.step())
        except (_Quit, KeyboardInterrupt) as e:
            self.say(_("You left the game."))
            self.saved()
            return 130 if isinstance(e, KeyboardInterrupt) else 0
        self.finish()
        return 0

    def offer_draw(self) -> None:
        """R-DRAW-1 without a timer: draw now, or skip."""
        while True:
            answer = self.ask(
                _("Draw your card: answer draw (any other answer but help or quit skips it, "
                  "an empty line too; you then play on with fewer cards)")
            )  # fmt: skip
            word = self.command(answer)
            if word is None:
                continue
            if word == "draw":
                self.tell(self.s.draw())
            else:
                self.say(_("You do not draw now."))
            # anything else skips the draw; the bots play on (and the draw is lost)
            self.tell(self.s.step())
            return

    def turn(self) -> None:
        view = self.s.view()
        moves = " ".join(action_code(a) for a in view.legal)
        answer = self.ask(turn_text(view), _("You can play: {moves}").format(moves=moves))
        word = self.command(answer)
        if not word:
            return
        if word == "hint":
            self.hint()
            return
        try:
            action = parse_action(word)
        except RecordError:
            self.say(
                _("{answer!r} is not a card code: answer a card from your hand, 99x4, draw, "
                  "help or quit").format(answer=answer)
            )  # fmt: skip
            return
        try:
            events = self.s.play(action)
        except NotPlayable as e:
            self.say(str(e))
            return
        self.tell(events)

    def finish(self) -> None:
        view = self.s.view()
        self.say(_("Game over. {result}").format(result=winner_text(view.winner, view.names)))
        self.final_standings()
        self.saved()

    def saved(self) -> None:
        if not self.s.is_over:
            self.s.abandon()
        where = self.save(self.s)
        if where:
            self.say(_("Game record saved to {path}").format(path=where))


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def run_plain(
    session: Session, inp: TextIO, out: TextIO, save: Saver, hint_samples: int = DEFAULT_SAMPLES
) -> int:
    """Play ``session`` in line mode; returns the exit status."""
    return PlainGame(session, inp, out, save, hint_samples).run()
