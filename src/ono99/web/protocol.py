"""The web table's message and request types (docs/protocol.md), validated on input.

Every body and websocket message a client sends is parsed into one of these pydantic
models; anything else is a one-line error. ``python -m ono99.web.protocol`` prints the
JSON Schema of every type.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
    TypeAdapter,
)

__all__ = [
    "BOT_LEVELS",
    "CreateTable",
    "JoinTable",
    "TokenBody",
    "MoveMsg",
    "HelloMsg",
    "PingMsg",
    "ClientMsg",
    "client_message",
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
    name: StrictStr | None = None


class JoinTable(_In):
    """``POST /api/tables/{ID}/join``."""

    name: StrictStr


class TokenBody(_In):
    """``POST /api/tables/{ID}/start`` and ``/rematch``."""

    token: StrictStr


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


ClientMsg = Annotated[MoveMsg | HelloMsg | PingMsg, Field(discriminator="type")]
_CLIENT: TypeAdapter[MoveMsg | HelloMsg | PingMsg] = TypeAdapter(ClientMsg)


def client_message(data: Any) -> MoveMsg | HelloMsg | PingMsg:
    """Validate a decoded client message (raises pydantic.ValidationError)."""
    return _CLIENT.validate_python(data)


# ---------------------------------------------------------------- server -> client
# (documentation and schema; the server builds these messages as plain dicts)


class EventOut(BaseModel):
    kind: str
    seat: int | None
    card: str | None
    total: int | None
    info: dict[str, Any] | None
    text: str | None


class StateMsg(BaseModel):
    type: Literal["state"]
    version: int
    view: dict[str, Any]
    table: dict[str, Any]
    events: list[EventOut]
    catchup: bool = False
    ack: MsgId | None = None


class ErrorMsg(BaseModel):
    type: Literal["error"]
    error: str
    version: int | None = None
    id: MsgId | None = None


class PongMsg(BaseModel):
    type: Literal["pong"]
    id: MsgId | None = None


def schemas() -> dict[str, Any]:
    """The JSON Schema of every message and request body."""
    return {
        "client": {
            "move": MoveMsg.model_json_schema(),
            "hello": HelloMsg.model_json_schema(),
            "ping": PingMsg.model_json_schema(),
        },
        "server": {
            "state": StateMsg.model_json_schema(),
            "error": ErrorMsg.model_json_schema(),
            "pong": PongMsg.model_json_schema(),
        },
        "http": {
            "create_table": CreateTable.model_json_schema(),
            "join": JoinTable.model_json_schema(),
            "start": TokenBody.model_json_schema(),
            "rematch": TokenBody.model_json_schema(),
        },
    }


if __name__ == "__main__":  # pragma: no cover
    print(json.dumps(schemas(), indent=2))
