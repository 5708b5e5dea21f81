"""Player names: one rule for the web table, the companion, the terminal and records.

A name is 1 to :data:`NAME_LIMIT` characters once its runs of white space are one space,
with no control, format, surrogate, private-use or unassigned character — except the
zero-width joiner and non-joiner (Indic scripts need them between letters, and joined
emoji such as 👩‍👩‍👧 are made with them) and the emoji tag characters of subdivision flags.

>>> clean_name("  Ana   María ")
'Ana María'
>>> clean_name("ಕನ್\u200dನಡ") == "ಕನ್\u200dನಡ"
True
>>> name_fault("Bo\x07")
'a name cannot hold control characters'
"""

from __future__ import annotations

import unicodedata

from ono99.errors import RecordError
from ono99.i18n import N_

__all__ = ["NAME_LIMIT", "clean_name", "name_fault"]

NAME_LIMIT = 40
_REFUSED = frozenset({"Cc", "Cf", "Cs", "Co", "Cn"})
_JOINERS = frozenset("\u200c\u200d")
_TAGS = range(0xE0020, 0xE0080)  # the emoji tag characters (flags of England, Scotland …)


def _refused(ch: str) -> bool:
    return unicodedata.category(ch) in _REFUSED and ch not in _JOINERS and ord(ch) not in _TAGS


def name_fault(name: str) -> str | None:
    """What is wrong with ``name`` as it stands (an English template), or None."""
    if not 1 <= len(name) <= NAME_LIMIT or not name.strip():
        return N_("a name must have 1 to {limit} characters")
    if any(_refused(ch) for ch in name):
        return N_("a name cannot hold control characters")
    return None


def clean_name(raw: object) -> str:
    """``raw`` as a player name (white space runs made one space); :class:`RecordError`
    with the reason when it cannot be one."""
    if not isinstance(raw, str):
        raise RecordError(N_("a name must have 1 to {limit} characters"), limit=NAME_LIMIT)
    name = " ".join(raw.split())
    fault = name_fault(name)
    if fault is not None:
        raise RecordError(fault, limit=NAME_LIMIT)
    return name
