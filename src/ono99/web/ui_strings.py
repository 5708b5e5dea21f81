"""Every word of the web table's page (``web/static``), marked for the catalogs.

The page translates in the browser with the msgid -> msgstr map that
``GET /api/i18n/{lang}`` serves from the catalogs (docs/protocol.md); marking the
page's strings here makes ``scripts/i18n.py extract`` keep them in the same catalogs
as the terminal game. The words bound to the rules (card names, reasons, whose turn it
is, the rules help, the narration) are not here: the server sends them, worded by
``ono99/texts.py`` and ``ono99/narrate.py``. ``tests/web/e2e/test_ui_strings.py``
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
    N_("Sounds"),
    # hints at a table (docs/protocol.md `hint`)
    N_("Hints: players may ask each card's chance to win"),
    N_("Hint: each card's chance to win"),
    N_("Working out each card's chance…"),
    # TRANSLATORS: {win} is a percentage ("41 %")
    N_("Best chance: {card}, {win} to win"),
    # TRANSLATORS: under a card of the hand: its chance to win the game, a percentage ("41 %")
    N_("{win} to win"),
    # the replay's review (js/review.js, docs/review.md)
    N_("Review this game"),
    N_("Reviewing the game…"),
    N_("Each player's chance to win, move by move"),
    # TRANSLATORS: {chance} is a percentage ("41 %"), {mistakes} "2 mistakes", {loss} a percentage
    N_("{name}: {chance} to win from the deal; {mistakes}, mean loss {loss}"),
    N_("Move {index}: {name} played {card}"),
    N_("Mistakes"),
    N_("No mistakes"),
    N_("Mistake"),
    # TRANSLATORS: {win} is a percentage ("41 %")
    N_("{name} played {card}, the best move: {win} to win"),
    # TRANSLATORS: {win} and {best_win} are percentages; {best} is a card's name
    N_("{name} played {card}: {win} to win; {best} had {best_win}"),
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
    N_("away: a bot plays for now"),
    N_("owes two cards"),
    N_("has a card to draw"),
    N_("plays now"),
    N_("Discard four {card} cards"),
    N_("{name} must play two cards"),
    N_("Press D now to draw your card!"),
    N_("Game over"),
    N_("Round {round} is over"),
    # TRANSLATORS: the column of the final standings that holds each player's place
    N_("Place"),
    N_("{place}."),
    N_("Player"),
    N_("Tokens"),
    N_("Points"),
    N_("Status"),
    N_("winner"),
    N_("Join the rematch"),
    N_("A rematch is not available on this server."),
    N_("There is no such table."),
    # the companion, when a game opened on a static site is neither kept here nor on a server
    N_("there is no such game"),
    N_("Connection lost. Reconnecting…"),
    N_("Connecting…"),
    N_("Copied"),
    N_("Copy link"),
    # TRANSLATORS: replay viewer position; {index} is 0 at the deal
    N_("Move {index} of {count}"),
    # TRANSLATORS: replay viewer: the state before the first move
    N_("The deal"),
    N_("out of the game"),
    N_("clockwise"),
    N_("counterclockwise"),
    N_("No winner yet"),
    N_("{names} share the win"),
    N_("You win the game!"),
    N_("{name} wins the game!"),
    N_("out of this round"),
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
    # TRANSLATORS: the button that opens a file picker for a saved game record
    N_("Open a game record file…"),
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
    *COMPANION_STRINGS,  # the table companion's page (web/companion_strings.py)
)

#: the page's messages with a count: (singular, plural)
UI_PLURALS: tuple[tuple[str, str], ...] = (
    ngettext("{count} second", "{count} seconds"),
    ngettext("{count} mistake", "{count} mistakes"),
    ngettext("{count} card", "{count} cards"),
    ngettext("{count} second left", "{count} seconds left"),
    ngettext("{count} token", "{count} tokens"),
    ngettext("{count} point", "{count} points"),
)
