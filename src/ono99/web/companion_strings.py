"""Every word of the table companion's page (``web/static/companion.html`` and
``js/companion.js``) that the web table's page does not already have, marked for the
catalogs; :mod:`ono99.web.ui_strings` lists them with its own."""

from __future__ import annotations

from ono99.i18n import N_

__all__ = ["COMPANION_STRINGS"]

COMPANION_STRINGS: tuple[str, ...] = (
    # TRANSLATORS: the page that follows a game played with real cards
    N_("Table companion"),
    N_("Play with real cards: tap each card as it is played."),
    N_("Names in seat order, clockwise"),
    N_("Add a player"),
    N_("Remove the last player"),
    # TRANSLATORS: which player plays the first card
    N_("Who starts"),
    N_("Start"),
    N_("Continue the last game"),
    N_("New game"),
    # TRANSLATORS: button: the player to move has no card they may play (they bust)
    N_("No safe card"),
    N_("Undo"),
    N_("Redo"),
    N_("{name} drew their card"),
    N_("Speak the totals"),
    N_("Test the voice"),
    N_("No voice for this language in this browser"),
    # TRANSLATORS: spoken by the voice test: the running total
    N_("Total {total}"),
    N_("Round {round} is over: enter the cards left in each hand for the scores"),
    N_("Save the hands"),
    N_("Clear"),
    N_("Scores wait for the cards left in each hand"),
    N_(
        "Tap a player, then their cards on the pad below; or type the points of the cards in each hand."
    ),
    N_("Save the points"),
    # TRANSLATORS: {name}: a player; label of the box for the points of their cards in hand
    N_("{name}: points of the cards in hand"),
    # TRANSLATORS: the card pad now types the cards left in {name}'s hand
    N_("{name}: tap the cards left in hand"),
    # TRANSLATORS: button: type in the cards a player out of the game laid face up
    N_("Type them in"),
    # TRANSLATORS: points mode: the player had no safe card and gave up one unsafe card
    N_("Which card did {name} give up?"),
    # TRANSLATORS: button: the player out of safe cards had no card they could give up
    N_("No card to give up"),
    # TRANSLATORS: button of the draw penalty option: the player drew their card
    N_("Draw"),
    # TRANSLATORS: taps made while the server was away, still to be sent
    N_("Waiting to send: {count}"),
    # TRANSLATORS: {taps}: the taps (card names, Undo...) the server did not count
    N_("Not counted: {taps}"),
    # TRANSLATORS: a full-screen view for a phone propped up mid-table: the total, huge
    N_("Table view"),
    # TRANSLATORS: the table view: who plays next
    N_("next: {name}"),
    # TRANSLATORS: the table view: the card played last
    N_("Last card: {card}"),
    # TRANSLATORS: the games played in this browser before, to continue
    N_("Earlier games"),
    N_("Start a new game? This one stays under Earlier games."),
    # TRANSLATORS: button and panel: correct a forgotten card or a wrong total
    N_("Fix"),
    N_(
        "A card nobody tapped: choose where it was played, then tap it on the pad. A wrong total: find the tap where it went wrong."
    ),
    # TRANSLATORS: the quick fix: the place after the last tap
    N_("now"),
    # TRANSLATORS: a mattel2022 player out of the game lays their hand face up; the page
    # offers to type those cards in
    N_("{name} is out: the cards {name} laid face up"),
    N_("Optional: cards typed in here cannot be tapped for anyone else"),
    # TRANSLATORS: button: do not type in the cards laid face up
    N_("Skip"),
    N_("Save the cards"),
    # TRANSLATORS: whose turn it is
    N_("{name} to play"),
    # TRANSLATORS: the player owes two cards and has played the first
    N_("{name}: second card"),
)
