"""The web table's message and request types (docs/protocol.md), validated on input.

Every body and websocket message a client sends is parsed into one of these pydantic
models; anything else is a one-line error. ``python -m ono99.web.protocol`` prints the
JSON Schema of every type.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
    TypeAdapter,
    create_model,
)

from ono99.view import VIEW_JSON

__all__ = [
    "BOT_LEVELS",
    "CreateTable",
    "JoinTable",
    "TokenBody",
    "RematchBody",
    "MoveMsg",
    "HelloMsg",
    "PingMsg",
    "ClientMsg",
    "client_message",
    "EventOut",
    "ViewOut",
    "SeatOut",
    "TableSettings",
    "TableOut",
    "TextsOut",
    "ChoiceOut",
    "OptionOut",
    "PresetOut",
    "PresetsOut",
    "StateMsg",
    "ErrorMsg",
    "PongMsg",
    "schemas",
]

BOT_LEVELS = ("easy", "medium", "hard", "expert")


def _utf8(text: str) -> str:
    text.encode("utf-8")  # a lone surrogate cannot be sent back: a ValueError
    return text


#: ids and versions stay within the integers a browser's JSON keeps exactly
SAFE_INT = 2**53
MsgId = (
    Annotated[StrictInt, Field(gt=-SAFE_INT, lt=SAFE_INT)]
    | Annotated[StrictStr, Field(max_length=64), AfterValidator(_utf8)]
)
Seconds = Annotated[float, Field(allow_inf_nan=False)]


class _In(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)


class CreateTable(_In):
    """``POST /api/tables``."""

    rules: StrictStr = "mattel2022"
    options: dict[str, Any] = Field(default_factory=dict)
    players: StrictInt = 4
    bots: Literal["easy", "medium", "hard", "expert"] = "medium"
    seed: Annotated[StrictInt, Field(ge=0, lt=2**256)] | None = None
    turn_seconds: Annotated[Seconds, Field(ge=0, le=3600)] = 0.0
    takeover: StrictBool = True
    away_seconds: Annotated[Seconds, Field(ge=0, le=3600)] = 20.0
    draw_window: Annotated[Seconds, Field(ge=0, le=10)] = 1.5
    bot_delay: Annotated[Seconds, Field(ge=0, le=5)] = 0.6
    hints: StrictBool = False
    name: StrictStr | None = None


class JoinTable(_In):
    """``POST /api/tables/{ID}/join``."""

    name: StrictStr


class TokenBody(_In):
    """``POST /api/tables/{ID}/start``."""

    token: StrictStr


class RematchBody(TokenBody):
    """``POST /api/tables/{ID}/rematch``: the seed of the new table where its creator fixes
    one; without it a fresh secret one (never derived from the finished game's, whose
    seed everyone at the table has seen)."""

    seed: Annotated[StrictInt, Field(ge=0, lt=2**256)] | None = None


class MoveMsg(_In):
    """A move: a card code, ``99x4`` or ``draw``, for the version last received."""

    type: Literal["move"]
    move: Annotated[StrictStr, Field(max_length=8)]
    version: Annotated[StrictInt, Field(gt=-SAFE_INT, lt=SAFE_INT)]
    id: MsgId | None = None


class HelloMsg(_In):
    """Switch the connection's language."""

    type: Literal["hello"]
    lang: Annotated[StrictStr, Field(max_length=8)] | None = None
    id: MsgId | None = None


class PingMsg(_In):
    type: Literal["ping"]
    id: MsgId | None = None


class HintMsg(_In):
    """A seat asks for a hint on its turn (tables whose creator allows hints)."""

    type: Literal["hint"]
    version: Annotated[StrictInt, Field(gt=-SAFE_INT, lt=SAFE_INT)]
    id: MsgId | None = None


ClientMsg = Annotated[MoveMsg | HelloMsg | PingMsg | HintMsg, Field(discriminator="type")]
_CLIENT: TypeAdapter[MoveMsg | HelloMsg | PingMsg | HintMsg] = TypeAdapter(ClientMsg)


def client_message(data: Any) -> MoveMsg | HelloMsg | PingMsg | HintMsg:
    """Validate a decoded client message (raises pydantic.ValidationError)."""
    return _CLIENT.validate_python(data)


# ---------------------------------------------------------------- server -> client
# (documentation and schema; the server builds these messages as plain dicts)


# The one declaration of what a client is sent: every key, its type and what it means.
# docs/protocol.md lists these keys (tests/web/test_web_schema.py holds it to them), the
# schema endpoint serves them, and every message of a whole game is validated against them
# with no key left over or missing.


class _Out(BaseModel):
    model_config = ConfigDict(extra="forbid")


class EventOut(_Out):
    kind: str = Field(description="the event's kind, as in ono99/events.py")
    seat: int | None = Field(description="the seat it concerns")
    card: str | None = Field(description="a card code")
    total: int | None = Field(description="the total after it")
    info: dict[str, Any] | None = Field(
        description="card codes and counts; by_bot: a bot made it for a human seat"
    )
    text: str | None = Field(description="the announcement in the connection's language")


# The view's own keys are declared once, with the view (ono99.view.VIEW_JSON): their types
# and meanings come from there; the table adds its facts below.
if TYPE_CHECKING:
    _ViewKeys = _Out
else:
    _ViewKeys = create_model(
        "_ViewKeys",
        __base__=_Out,
        **{k.name: (k.type, Field(description=k.doc)) for k in VIEW_JSON},
    )


class ViewOut(_ViewKeys):
    """A seat's view (``PlayerView.to_json``; a spectator's ``PublicView.to_json``: the
    keys of ``ono99.view.VIEW_JSON``) and the table's public facts about the game."""

    phase: Literal["lobby", "playing", "over"]
    connected: list[bool]
    bots: list[bool] = Field(description="seats a bot plays (away seats included)")
    away: list[bool]
    deadline: float | None = Field(description="the turn timer's end (seconds since 1970)")
    moves: int = Field(description="moves made so far")


class SeatOut(_Out):
    seat: int
    name: str | None
    kind: Literal["human", "bot", "open"]
    connected: bool
    away: bool


class TableSettings(_Out):
    """A table's settings as its creator chose them (``CreateTable``): what the database
    keeps (``ono99.web.settings.Settings``) and ``TableInfo`` shows."""

    rules: str = Field(description="the preset")
    options: dict[str, Any] = Field(description="the preset's options as given")
    players: int
    bots: str = Field(description="the bots' level")
    turn_seconds: float = Field(description="the turn timer; 0: none")
    takeover: bool
    away_seconds: float
    draw_window: float
    bot_delay: float
    hints: bool = Field(False, description="players may ask for a hint on their turn")


class TableOut(TableSettings):
    """``TableInfo``: the table's public facts."""

    table: str = Field(description="the table's id")
    code: str = Field(description="the short code of its link")
    url: str = Field(description="the invitation link")
    phase: Literal["lobby", "playing", "over"]
    seed_fixed: bool
    seed: int | None = Field(description="the game's seed, once the game is over")
    version: int
    presence: int
    moves: int
    seats: list[SeatOut]
    deadline: float | None
    next_table: str | None = Field(description="the rematch's table id")


class PlaceOut(_Out):
    place: int = Field(description="1 first; players who share a place have the same")
    seat: int


class TextsOut(_Out):
    """The words this connection's reader is told beside the view
    (``ono99.texts.view_words``), in its language: the page words nothing itself."""

    cards: dict[str, str] = Field(
        description="every card code of the preset (and 99x4, draw where it has them): its name"
    )
    turn: str = Field(description="whose turn it is, told to this seat (or to a spectator)")
    owes: str | None = Field(description="who owes two cards (Play 2); null when nobody does")
    why_not: dict[str, str] = Field(
        description="each move this seat might try (its cards, draw, 99x4) that it may not "
        "make now: why, from its own view only; {} for a spectator"
    )
    places: list[PlaceOut] = Field(
        description="once the game is over, every seat's place, first place first "
        "(ono99.texts.final_places, R-END-3); [] while it is played"
    )


class ChoiceOut(_Out):
    value: str
    label: str


class OptionOut(_Out):
    """One option a preset takes (R-SET-6)."""

    name: str
    label: str
    type: Literal["bool", "int", "choice"]
    default: bool | int | str
    choices: list[ChoiceOut] | None = Field(description="the values of a choice, default first")
    min: int | None
    max: int | None
    needs: dict[str, str] | None = Field(
        description="the option counts only when these options have these values"
    )


class PresetOut(_Out):
    """A preset as the page shows it (``ono99.texts.preset_words``)."""

    name: str
    title: str
    players: list[int] = Field(description="[fewest, most] players (R-SET-5)")
    options: list[OptionOut]
    cards: dict[str, str] = Field(description="card code -> name")
    help: list[str] = Field(description="the rules in short paragraphs, the title first")


class PresetsOut(_Out):
    """``GET /api/presets``."""

    lang: str
    presets: list[PresetOut]


class StateMsg(_Out):
    type: Literal["state"]
    version: int
    presence: int
    view: ViewOut
    texts: TextsOut
    table: TableOut
    events: list[EventOut]
    catchup: bool = False
    ack: MsgId | None = None


class ErrorMsg(_Out):
    type: Literal["error"]
    error: str
    version: int | None = None
    id: MsgId | None = None


class PongMsg(_Out):
    type: Literal["pong"]
    id: MsgId | None = None


class HintOption(_Out):
    move: str = Field(description="a legal action's code")
    win: float = Field(description="its chance to win the game, in [0, 1]")
    ci95: list[float] = Field(description="the 95 % interval of that chance")


class HintAnswer(_Out):
    """The answer to ``hint``, to the asking connection only."""

    type: Literal["hint"]
    version: int = Field(description="the table's version the values are for")
    options: list[HintOption] = Field(description="each legal action, in the view's order")
    id: MsgId | None = None


def schemas() -> dict[str, Any]:
    """The JSON Schema of every message and request body."""
    return {
        "client": {
            "move": MoveMsg.model_json_schema(),
            "hello": HelloMsg.model_json_schema(),
            "ping": PingMsg.model_json_schema(),
            "hint": HintMsg.model_json_schema(),
        },
        "server": {
            "state": StateMsg.model_json_schema(),
            "error": ErrorMsg.model_json_schema(),
            "pong": PongMsg.model_json_schema(),
            "hint": HintAnswer.model_json_schema(),
        },
        "answers": {
            "presets": PresetsOut.model_json_schema(),
            "preset": PresetOut.model_json_schema(),
        },
        "http": {
            "create_table": CreateTable.model_json_schema(),
            "join": JoinTable.model_json_schema(),
            "start": TokenBody.model_json_schema(),
            "rematch": RematchBody.model_json_schema(),
        },
    }


if __name__ == "__main__":  # pragma: no cover
    print(json.dumps(schemas(), indent=2))
