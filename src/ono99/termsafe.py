"""Text from outside (a record's player names, a file name) made safe to print.

A game record is anyone's file: a player name holding ``ESC [ 2 J`` would clear the
reader's screen, and a bidi override (U+202E) would show the rest of a line reversed.
:func:`terminal_safe` writes such characters as visible escapes instead: control
characters (C0, DEL, C1) and the bidi embeddings, overrides and isolates. The joiners
that Tamil, Burmese and Kannada text needs (U+200C, U+200D) are kept.

>>> terminal_safe("Ana\\x1b[2J")
'Ana\\\\x1b[2J'
>>> terminal_safe("\\u202eanA")
'\\\\u202eanA'
>>> terminal_safe("மா\\u200dலா")
'மா\\u200dலா'
"""

from __future__ import annotations

import math
import re

__all__ = ["terminal_safe", "short_repr", "UNSAFE"]

#: C0 controls, DEL, C1 controls, the bidi marks, embeddings, overrides and isolates
#: (U+061C, U+200E, U+200F, U+202A-U+202E, U+2066-U+2069), the line and paragraph
#: separators (U+2028, U+2029)
UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def terminal_safe(text: str) -> str:
    """``text`` with every character of :data:`UNSAFE` written as ``\\xNN`` or ``\\uNNNN``."""
    return UNSAFE.sub(_escape, text)


def short_repr(value: object, limit: int = 40) -> str:
    """``repr(value)`` for an error message: at most ``limit`` characters, and an
    integer too long to print (Python refuses over 4300 digits) as ``≈10**N``.

    >>> short_repr(10**5000), short_repr("x" * 100)[-3:], short_repr(7)
    ('≈10**5000', 'xx…', '7')
    """
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 128:
        digits = round((abs(value).bit_length() - 0.5) * math.log10(2))
        return ("-" if value < 0 else "") + f"≈10**{digits}"
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"
