"""Every word of the web table's page (``web/static``), marked for the catalogs.

The page translates in the browser with the msgid -> msgstr map that
``GET /api/i18n/{lang}`` serves from the catalogs (docs/protocol.md); marking the
page's strings here makes ``scripts/i18n.py extract`` keep them in the same catalogs
as the terminal game. Many are the terminal game's own words (``tui/texts.py``,
``narrate.py``): one translation serves both. ``tests/web/e2e/test_ui_strings.py``
checks that every ``t("...")``, ``tn("...", "...")`` and ``data-i18n`` of the page is
listed here.
"""

from __future__ import annotations

from ono99.i18n import N_
from ono99.web.companion_strings import COMPANION_STRINGS

__all__ = ["UI_STRINGS", "UI_PLURALS"]


def ngettext(singular: str, plural: str) -> tuple[str, str]:
    """Marks a singular/plural pair (Babel extracts ``ngettext`` calls); translates nothing."""
    return (singular, plural)


#: the page's messages, in the order they appear in the page's source
UI_STRINGS: tuple[str, ...] = (
    N_("Scoring"),
    N_("tokens"),
    N_("points"),
    N_("Points target"),
    N_("At the target"),
    N_("reaching it puts a player out"),
    N_("the game ends, fewest points wins"),
    N_("{card} on totals ending in 0"),
    N_("Draw penalty"),
    N_("Options"),
    N_("These rules have no options."),
    N_("easy"),
    N_("medium"),
    N_("hard"),
    N_("expert"),
    N_("no timer"),
    N_("Please enter your name."),
    N_("The seed must be a whole number, or empty for a new random deal."),
    N_("Please enter a table code or link."),
    N_("empty seat"),
    # TRANSLATORS: a tag after the reader's own name in the list of players
    N_("you"),
    # TRANSLATORS: a tag after the name of a seat a bot plays
    N_("bot"),
    N_("disconnected"),
    N_("Round {round}"),
    # TRANSLATORS: how many cards are left in the draw pile
    N_("draw pile {count}"),
    N_("You must play two cards"),
    N_("{name} must play two cards"),
    N_("away: a bot plays for now"),
    N_("owes two cards"),
    N_("has a card to draw"),
    N_("plays now"),
    N_("Discard four {card} cards"),
    N_("Press D now to draw your card!"),
    N_("Game over"),
    N_("Round {round} is over"),
    N_("Player"),
    N_("Tokens"),
    N_("Points"),
    N_("Status"),
    N_("winner"),
    N_("Join the rematch"),
    N_("A rematch is not available on this server."),
    N_("There is no such table."),
    N_("Connection lost. Reconnecting…"),
    N_("Connecting…"),
    N_("Copied"),
    N_("Copy link"),
    # TRANSLATORS: replay viewer position; {index} is 0 at the deal
    N_("Move {index} of {count}"),
    # TRANSLATORS: replay viewer: the state before the first move
    N_("The deal"),
    N_("out of the game"),
    N_("ONO 99 (Mattel 2022)"),
    N_("O'NO 99 (1980, exceeding 99 loses)"),
    N_("O'NO 99 (1980)"),
    N_("-10"),
    N_("Reverse"),
    N_("Play 2"),
    N_("Double Play"),
    N_("Hold"),
    N_("ONO 99"),
    N_("O'NO 99"),
    N_("four ONO 99 cards"),
    N_("draw"),
    N_("clockwise"),
    N_("counterclockwise"),
    N_("The game is over"),
    N_("You have no card to draw now"),
    N_("It is not your turn: {name} plays now"),
    N_("These rules have no four-card ONO 99 discard"),
    N_("You need four ONO 99 cards to discard them together"),
    N_("You have no {card} in your hand"),
    N_(
        "You have no safe card: give up one of your number cards (it is not counted and you are out of the round)"
    ),
    N_("Only one {card} card may be played per turn"),
    N_("{card} may be played only when the total ends in 0"),
    N_("The {card} card can never be played: it stays in your hand"),
    N_("A {card} cannot be the first of your two cards"),
    N_("{card} would take the total to {total}: going over 99 loses"),
    N_("{card} would take the total to {total}: reaching 99 loses"),
    N_("You cannot play {card} now"),
    N_("No winner yet"),
    N_("{names} share the win"),
    N_("You win the game!"),
    N_("{name} wins the game!"),
    N_("Draw your card before {name} plays!"),
    N_("{name} is playing…"),
    N_("No safe card: choose a number card to give up"),
    N_("Draw your card, then play your second card"),
    N_("Your turn: play two cards (first card)"),
    N_("Your turn: play your second card"),
    N_("Your turn: play a card"),
    N_("out of this round"),
    N_("You play {card} — total {total}"),
    N_("You discard four ONO 99 cards — total {total}"),
    N_("Round {round}: you start"),
    N_("You cannot draw: no cards are left"),
    N_("You have no safe card and give up {card}"),
    N_("You have no safe card"),
    N_("You are out of the round"),
    N_("You are out of the game"),
    N_("You did not draw in time and lose that card"),
    N_("{name} plays {card} — total {total}"),
    N_("{name} discards four ONO 99 cards — total {total}"),
    N_("Round {round}: {name} starts"),
    N_("{name} cannot draw: no cards are left"),
    N_("The discard pile is shuffled into a new draw pile"),
    N_("Play now goes clockwise"),
    N_("Play now goes counterclockwise"),
    N_("{name} has no safe card and plays {card}"),
    N_("{name} has no safe card"),
    N_("{name} is out of the round"),
    N_("{name} is out of the game"),
    N_("{name} did not draw in time and loses that card"),
    N_("Round {round} ends. Scores: {scores}"),
    N_("Round {round} ends"),
    N_(
        "Take turns playing one card onto the pile and say the new total. A card that takes the total over 99 loses; 99 itself is fine."
    ),
    N_(
        "Take turns playing one card onto the pile and say the new total. A card that takes the total to 99 or more loses."
    ),
    N_("You must play a safe card if you have one. After playing you draw back to four cards."),
    N_(
        "Draw penalty: drawing is your own move. If anyone plays a card before you draw, that card is lost and you play on with fewer cards."
    ),
    N_("A player with no safe card is out of the game. The last player left wins."),
    N_(
        "A player with no safe card loses the round and a token; with no tokens left they are out. The last player left wins."
    ),
    N_(
        "A player with no safe card gives up a number card and is out of the round. When one player is left, everyone scores the cards in hand (numbers: face value, 99: 20, other cards: 15, out of the round: 25). At {target} points a player is out; fewest points wins."
    ),
    N_("Cards:"),
    N_("0 to 10: add their value."),
    N_("-10: subtract ten (the total never goes below 0)."),
    N_("-10: subtract ten (the total may go below 0)."),
    N_("{card}: reverse the direction of play (with two players: the other plays again)."),
    N_(
        "{card}: the next player must play two cards, unless they answer with {reverse} or {card}, which passes the duty on."
    ),
    N_(
        "{card}: the next player must play two cards, unless they answer with {reverse} or {hold}, which passes the duty on."
    ),
    N_("{card}: adds 0."),
    N_("{card}: sets the total to 99."),
    N_("{card}: adds 0, only when the total ends in 0 (one per turn)."),
    N_("{card}: can never be played."),
    N_("Four {card} cards can be discarded together as your play."),
    N_("Skip to the game"),
    N_("Language"),
    N_("Rules"),
    N_("Create a table"),
    N_("Your name"),
    N_("Players"),
    N_("Bots"),
    N_("Turn timer"),
    # TRANSLATORS: the number that fixes the shuffles of a game
    N_("Seed"),
    N_("empty: a new random deal"),
    N_("Create table"),
    N_("Join a table"),
    N_("Table code or link"),
    N_("Join"),
    # TRANSLATORS: watch a table as a spectator, without a seat
    N_("Watch"),
    N_("Replay a game record"),
    N_("Game record file"),
    N_("Waiting for players"),
    # TRANSLATORS: the short code friends type to join a table
    N_("Table code"),
    N_("Invite link"),
    N_("Take a seat"),
    N_("Seats nobody takes are played by bots."),
    N_("Start the game"),
    N_("You are watching this table."),
    N_("Total"),
    N_("Your cards"),
    # TRANSLATORS: keyboard help of the web table; D is the key itself
    N_("Number keys 1–9 play a card; D draws."),
    N_("Draw a card"),
    N_("Download the game record"),
    N_("Replay the game"),
    N_("Rematch"),
    N_("Continue"),
    N_("Announcements"),
    N_("Replay"),
    # TRANSLATORS: replay viewer: the deal, before the first move
    N_("First"),
    # TRANSLATORS: replay viewer: one move back
    N_("Back"),
    # TRANSLATORS: replay viewer: one move forward
    N_("Forward"),
    # TRANSLATORS: replay viewer: the last move of the game
    N_("Last"),
    N_("Close"),
    # TRANSLATORS: the label of the replay's slider that picks a move of the game
    N_("Move"),
    N_("Keys"),
    # TRANSLATORS: said to a player (screen reader) when their turn timer ran out
    N_("Time is up: a bot plays for you"),
    # TRANSLATORS: a card a bot played for the reader while they were away or out of time
    N_("A bot plays {card} for you — total {total}"),
    *COMPANION_STRINGS,  # the table companion's page (web/companion_strings.py)
)

#: the page's messages with a count: (singular, plural)
UI_PLURALS: tuple[tuple[str, str], ...] = (
    ngettext("{count} second", "{count} seconds"),
    ngettext("{count} card", "{count} cards"),
    ngettext("{count} second left", "{count} seconds left"),
    ngettext("{count} token", "{count} tokens"),
    ngettext("{count} point", "{count} points"),
    ngettext("You draw {cards}", "You draw {cards}"),
    ngettext("You draw {count} card", "You draw {count} cards"),
    ngettext("You lose a token ({count} left)", "You lose a token ({count} left)"),
    ngettext("{name} draws {count} card", "{name} draws {count} cards"),
    ngettext("{name} loses a token ({count} left)", "{name} loses a token ({count} left)"),
)
