"""A strong hand-crafted player that reads only its own view.

Each legal card is scored by a one-turn look-ahead:

- **pressure**: the chance that the player who moves next has no way out at the new
  total, from card counting: the unseen cards are the deck minus the bot's hand, the
  discard pile and laid-down hands (R-SET-1); the next player's hand is a draw of
  their (public) hand size from them, with the belief that hands hold more escape
  cards and 99s than the draw pile (:data:`~ono99.bots.common.HAND_BIAS`). A Play 2 is scored by sampling that
  player's hand and checking whether they can answer it or make two safe plays
  (R-P2-1, R-P2-3), so Play 2 is aimed at players likely to bust; a Reverse changes
  who that player is (R-REV-1).
- **own safety**: whether the bot's remaining hand (plus the card it will draw) still
  holds a safe card when its turn comes round again (R-LIM-2), and how many escape
  cards (-10, Reverse, Play 2, Hold, 0) it keeps for when the total is high.
- a small preference for dumping high number cards while the total is low, and in
  points mode (R-END-3) for keeping the hand's score low.

Fixed choices: draw at once (R-DRAW-1), discard four 99s when possible (R-99-3), and in
a points-mode bust throw the card worth most points, which minimises the hand's score
(R-END-3). ONO 99 cards are played under ``zero_ending_99`` (R-99-5) as escape cards
whenever the total ends in 0 and that is the best choice, since a 99 left in hand is dead.
"""

from __future__ import annotations

from ono99.bots.base import Bot, register
from ono99.bots.common import (
    C99,
    CARD_POINTS,
    HAND_BIAS,
    P2,
    REV,
    forced_move,
    is_safe,
    new_total,
    next_seat,
    pool_counts,
)
from ono99.cards import MAX_NUMBER
from ono99.chance import BOT, Stream, fields_key
from ono99.rules import Rules
from ono99.view import PlayerView

__all__ = ["HeuristicBot", "ROLLOUT_SAMPLES"]

W_PRESSURE = 1.0
W_SAFETY = 0.5
W_ESCAPE = 0.2
W_SAFE_CARDS = 0.02
W_DUMP = 0.002
W_POINTS = 0.002
#: how much the total rises, per other player, before the bot moves again (estimate)
DRIFT = 5
#: ... but not above the limit less this (unless it is there already)
DRIFT_BELOW_LIMIT = 3
#: own safety counts the escape cards and the safe cards kept up to this many each
KEPT_COUNTED = 3
#: a first of two plays with no safe second card: a safe draw is worth this, else -1
SAFE_DRAW = 0.5
#: the position key packs the sorted hand and the seats a byte each into a 64-bit word,
#: the first in the top byte (docs/records.md); a seat in the game adds KEY_IN_GAME
KEY_BYTE = 8
KEY_TOP = 64 - KEY_BYTE
KEY_IN_GAME = 64
#: the samples of the heuristic that the search plays in its rollouts and models the other
#: players by (fewer than a level's 24: it runs at every decision of every rollout)
ROLLOUT_SAMPLES = 4


class _Ctx:
    """What the bot works out once per decision. The answers that do not draw random
    numbers are kept per total (the same total comes up for several cards), and the
    random numbers are seeded from the position only when first needed: the heuristic
    also plays every seat of the search's rollouts, so this is the search's hot path."""

    __slots__ = (
        "rules", "view", "pool", "weights", "n_pool", "_rng", "samples",
        "kinds", "n_active", "_unsafe", "_n_safe",
    )  # fmt: skip

    def __init__(self, view: PlayerView, samples: int) -> None:
        self.rules = view.rules
        self.view = view
        self.pool = pool = pool_counts(view)
        self.weights = weights = [k * b for k, b in zip(pool, HAND_BIAS, strict=True)]
        #: (card, weight) of every card kind left unseen, in card order
        self.kinds = [(c, w) for c, w in enumerate(weights) if w]
        self.n_pool = sum(pool)
        #: the samples' stream, keyed from the position at its first use
        self._rng: Stream | None = None
        self.samples = samples
        self.n_active = sum(view.active)
        self._unsafe: dict[int, float] = {}
        self._n_safe: dict[tuple[int, bool, bool], int] = {}

    @property
    def rng(self) -> Stream:
        if self._rng is None:
            self._rng = Stream(_position_key(self.view))
        return self._rng

    def p_unsafe_weighted(self, total: int) -> float:
        """Chance that one card of an opponent's hand is not safe at ``total``, with the
        belief that hands hold more escape cards than the draw pile (HAND_BIAS)."""
        got = self._unsafe.get(total)
        if got is not None:
            return got
        r = self.rules
        # is_safe(r, c, total, False, False), written out: this runs for every card of
        # every heuristic decision in the rollouts (the sums keep the card order)
        room = r.limit - total
        safe_99 = r.ninety_nine_sets or (r.zero_ending_99 and total % 10 == 0)
        good = bad = 0.0
        for c, w in self.kinds:
            if (c < room) if c <= MAX_NUMBER else (safe_99 if c == C99 else True):
                good += w
            else:
                bad += w
        got = self._unsafe[total] = bad / (good + bad) if good + bad else 1.0
        return got

    def sample_hand(self, k: int) -> tuple[list[int], int]:
        """``k`` unseen cards with :data:`HAND_BIAS` odds, and one more drawn uniformly
        from the rest. Sequential draws proportional to weight, without replacement,
        by card kind (the same distribution as :func:`~ono99.bots.common.weighted_hand`
        over the card list, at a fraction of the cost: this runs inside rollouts)."""
        rng = self.rng
        rnd = rng.random
        counts = self.pool[:]
        weights = self.weights[:]
        live = [c for c, _ in self.kinds]  # the kinds with a weight above 0, in order
        left = sum(weights)
        hand = []
        for _ in range(k):
            u = rnd() * left
            c = -1
            for c in live:
                u -= weights[c]
                if u < 0.0:
                    break
            # (a loop that runs to the end, by float rounding, takes the last kind)
            hand.append(c)
            left_c = counts[c] = counts[c] - 1
            if not left_c:
                live.remove(c)
            weights[c] = left_c * HAND_BIAS[c]
            left = sum(weights)
        i = rng.below(self.n_pool - k)
        for drawn, kc in enumerate(counts):
            if i < kc:
                return hand, drawn
            i -= kc
        raise AssertionError("n_pool does not match the pool's counts")

    def p_bust(self, total: int, owes_two: bool, seat: int) -> float:
        """Chance that ``seat`` cannot get through their turn at ``total`` (the belief; a
        subclass may know better, see benchmarks/hand_knowledge.py)."""
        return _p_bust(self, total, owes_two, self.view.hand_sizes[seat])

    def n_safe(self, total: int, first_of_two: bool, played_99: bool) -> int:
        key = (total, first_of_two, played_99)
        got = self._n_safe.get(key)
        if got is None:
            r = self.rules
            got = self._n_safe[key] = sum(
                k
                for c, k in enumerate(self.pool)
                if k and is_safe(r, c, total, first_of_two, played_99)
            )
        return got


def _survives_two(r: Rules, hand: list[int], drawn: int, total: int) -> bool:
    """Can a player owing two (R-P2-1) holding ``hand`` (and drawing ``drawn`` after the
    first play) avoid a bust?"""
    for c in hand:
        if c in r.answers:
            return True  # R-P2-3
    for i, c1 in enumerate(hand):
        if not is_safe(r, c1, total, True, False):
            continue
        t1 = new_total(r, c1, total)
        rest = hand[:i] + hand[i + 1 :] + [drawn]
        played = c1 == C99
        if any(is_safe(r, c2, t1, False, played) for c2 in rest):
            return True
    return False


def _p_bust(ctx: _Ctx, total: int, owes_two: bool, k: int) -> float:
    """Chance that a player with ``k`` unseen cards cannot get through their turn."""
    if ctx.n_pool == 0 or k <= 0:
        return 0.0
    r = ctx.rules
    if not owes_two:
        return ctx.p_unsafe_weighted(total) ** k
    k = min(k, ctx.n_pool - 1)
    if k <= 0:
        return 0.0
    busts = 0
    for _ in range(ctx.samples):
        hand, drawn = ctx.sample_hand(k)
        if not _survives_two(r, hand, drawn, total):
            busts += 1
    return busts / ctx.samples


def _safety(ctx: _Ctx, hand: list[int], total: int, others: int) -> float:
    """How well ``hand`` (plus one unseen draw) copes when the bot moves next."""
    r = ctx.rules
    t_next = total + DRIFT * others
    cap = r.limit - DRIFT_BELOW_LIMIT
    if t_next > cap:
        t_next = max(cap, total)
    # is_safe(r, c, t_next, False, True) and is_escape(r, c), written out (hot path)
    safe_known = escapes = 0
    sets = r.ninety_nine_sets
    room = r.limit - t_next
    for c in hand:
        if c <= MAX_NUMBER:
            if c < room:
                safe_known += 1
            if c == 0:
                escapes += 1
        elif c == C99:
            if sets:
                safe_known += 1
                escapes += 1
        else:  # -10, Reverse, Play 2, Hold
            safe_known += 1
            escapes += 1
    if safe_known:
        surv = 1.0
    elif ctx.n_pool:
        surv = ctx.n_safe(t_next, False, True) / ctx.n_pool
    else:
        surv = 0.0
    return (
        W_SAFETY * surv
        + W_ESCAPE * min(escapes, KEPT_COUNTED)
        + W_SAFE_CARDS * min(safe_known, KEPT_COUNTED)
    )


def _score(
    ctx: _Ctx, card: int, hand: list[int], total: int, first_of_two: bool, played_99: bool
) -> float:
    view = ctx.view
    r = ctx.rules
    me = view.seat
    rest = list(hand)
    rest.remove(card)
    t1 = new_total(r, card, total)
    n_active = ctx.n_active
    played = played_99 or card == C99
    extra = W_DUMP * card if card <= MAX_NUMBER else 0.0
    if r.scoring.counts_hand_points:
        extra -= W_POINTS * sum(CARD_POINTS[c] for c in rest)
    if first_of_two and card not in r.answers:
        # the second of two plays (R-P2-1) comes after a draw
        # each safe card once; the order they are scored in does not matter: only a Play 2
        # draws random numbers here, and the best score is the same in any order
        seconds = {c for c in rest if is_safe(r, c, t1, False, played)}
        if seconds:
            return extra + max(_score(ctx, c, rest, t1, False, played) for c in seconds)
        p_draw = ctx.n_safe(t1, False, played) / ctx.n_pool if ctx.n_pool else 0.0
        return extra + p_draw * SAFE_DRAW - (1.0 - p_draw)
    owes = card == P2 or (first_of_two and card in r.answers)
    direction = view.direction
    if card == REV and n_active > 2:
        direction = -direction  # R-REV-1 (R-REV-2: a Hold with two players)
    nxt = next_seat(view.active, me, direction)
    pressure = ctx.p_bust(t1, owes, nxt) if nxt != me else 0.0
    return extra + W_PRESSURE * pressure + _safety(ctx, rest, t1, n_active - 1)


def _position_key(view: PlayerView) -> bytes:
    """The key of the position in ``view`` (version 2, purpose BOT: docs/records.md): its
    fields as fixed-width words, the same on every platform (a 32-bit browser's Python
    too). The sorted hand and the seats are packed a byte each, from the top byte: a card
    as card + 1, a seat as its hand size plus 64 while it is in the game."""
    cards = 0
    for i, c in enumerate(sorted(view.hand)):
        cards |= (c + 1) << (KEY_TOP - KEY_BYTE * i)
    seats = 0
    for s, (size, alive) in enumerate(zip(view.hand_sizes, view.alive, strict=True)):
        seats |= (size + KEY_IN_GAME * alive) << (KEY_TOP - KEY_BYTE * s)
    return fields_key(
        BOT,
        (
            view.seat, view.round, view.reshuffles, view.total, view.direction,
            view.plays_left, -1 if view.owes_two is None else view.owes_two,
            int(view.played_99), len(view.discard), cards, seats,
        ),
    )  # fmt: skip


class HeuristicBot(Bot):
    """Hand-crafted player: card counting, escape cards kept, Play 2 aimed (module doc)."""

    name = "heuristic"

    def __init__(self, *, samples: int = 24) -> None:
        #: how many hands a Play 2 is scored over; their random numbers are keyed from the
        #: position at every decision (see :meth:`act`)
        self.samples = samples

    def compiled_plays_it(self) -> bool:
        """Whether the compiled heuristic (:mod:`ono99.bots.fast_rollout`) makes this bot's
        moves: the plain heuristic (not a subclass that knows more) with
        :data:`ROLLOUT_SAMPLES` samples. The search and the hand inference ask it."""
        return type(self) is HeuristicBot and self.samples == ROLLOUT_SAMPLES

    def context(self, view: PlayerView) -> _Ctx:
        """What the bot works out once per decision (card counts, beliefs)."""
        return _Ctx(view, self.samples)

    def act(self, view: PlayerView) -> int:
        forced = forced_move(view)
        if forced is not None:
            return forced
        legal = view.legal
        # Keyed by the position, so the heuristic is a pure function of its view: two
        # heuristic players (or a search anchored on one) in the same position play the
        # same card, and the arena's duplicate games stay identical until a bot that is
        # not the heuristic chooses differently (a much sharper comparison).
        ctx = self.context(view)
        hand = list(view.hand)
        first = view.plays_left == 2
        best, best_score = legal[0], float("-inf")
        for a in legal:
            s = _score(ctx, a, hand, view.total, first, view.played_99)
            if s > best_score:
                best, best_score = a, s
        return best


@register("heuristic")
def _heuristic(seed: int) -> HeuristicBot:
    """The registry's factory: the heuristic needs no seed (its samples are keyed by the
    position)."""
    return HeuristicBot()
