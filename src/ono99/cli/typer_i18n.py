"""Typer's and Click's own words in the chosen language: help ("Usage:", "Options",
"Show this message and exit.") and usage errors ("No such option: --x").

Typer looks up its words (help sections, "default: ...") with :func:`gettext.gettext`
when it formats them; :func:`translate_typer` points that lookup at our catalog. The
Click that Typer ships (``typer._click``) writes its words as plain English instead, so
the two words of help are put through the catalog where Click writes them, and the
usage errors are translated whole by :func:`translate_usage_error`: each English
message of :data:`USAGE_ERRORS` is matched, then its translation filled in with the
parts it names (``'--players'``). A word or message that a future Typer or Click
writes differently stays English.
"""

from __future__ import annotations

import functools
import gettext
import importlib
import inspect
import re
import string
import sys
from collections.abc import Callable
from types import ModuleType
from typing import Any

from ono99.i18n import N_, _, ngettext

__all__ = ["TYPER_WORDS", "HELP_WORDS", "METAVARS", "USAGE_ERRORS", "plain_metavar",
           "range_words", "translate_typer", "translate_usage_error"]  # fmt: skip

#: Typer's own words in help and errors, looked up with gettext by Typer itself
TYPER_WORDS = (
    N_("Arguments"),
    N_("Options"),
    N_("Commands"),
    N_("default: {default}"),
    N_("required"),
    N_("env var: {var}"),
    N_("(dynamic)"),
    N_("Missing command."),
    N_("No such command {name!r}."),
    N_("Aborted!"),
)

# TRANSLATORS: start of the usage line of help ("Usage: ono99 [OPTIONS] COMMAND [ARGS]...")
USAGE = N_("Usage:")
# TRANSLATORS: what the --help option does
SHOW_HELP = N_("Show this message and exit.")
#: the words of help that Click writes in English
HELP_WORDS = (USAGE, SHOW_HELP)

#: the usage errors a user can meet (English exactly as Typer's Click writes them);
#: the first that matches a message is used, so a longer form comes before a shorter
USAGE_ERRORS = (
    # TRANSLATORS: {option} is an option as typed (--jso); {options} the options it
    # may have meant to be (--json)
    N_("No such option: {option} (Possible options: {options})"),
    N_("No such option: {option}"),
    # TRANSLATORS: {option} is an option name in quotes ('--players'); "an argument"
    # here means a value after the option
    N_("Option {option} requires an argument."),
    N_("Option {option} does not take a value."),
    N_("Missing option {option}."),
    # TRANSLATORS: {argument} is the name of a command's argument in quotes ('file')
    N_("Missing argument {argument}."),
    # TRANSLATORS: {name} is an option in quotes ('--players'), {reason} one of the
    # messages below ("Input should be ...")
    N_("Invalid value for {name}: {reason}"),
    N_("Got unexpected extra argument(s) ({args})"),
    # TRANSLATORS: {message} is an error (no such command), {suggestions} the
    # commands it may have meant to be ('bench')
    N_("{message}. Did you mean {suggestions}?"),
    N_("Input should be a valid integer, unable to parse string as an integer"),
    N_("Input should be a valid number, unable to parse string as a number"),
    N_("Input should be greater than or equal to {limit}"),
    N_("Input should be less than or equal to {limit}"),
)
#: the parts of a usage error that are messages themselves, translated too
_NESTED = ("reason", "message")


def _pattern(template: str) -> re.Pattern[str]:
    """A regular expression matching what ``template`` gives, a group per field."""
    parts = []
    for literal, field, _spec, _conversion in string.Formatter().parse(template):
        parts.append(re.escape(literal))
        if field is not None:
            parts.append(f"(?P<{field}>.+?)")
    return re.compile("".join(parts), re.DOTALL)


_PATTERNS = [(template, _pattern(template)) for template in USAGE_ERRORS]


def translate_usage_error(message: str) -> str:
    """``message``, a usage error of Typer's Click in English, in the current language;
    a message not among :data:`USAGE_ERRORS` (or already translated) as it is."""
    for template, pattern in _PATTERNS:
        match = pattern.fullmatch(message)
        if match is None:
            continue
        params = match.groupdict()
        for key in _NESTED:
            if key in params:
                params[key] = translate_usage_error(params[key])
        try:
            return _(template).format(**params)
        except (KeyError, IndexError, ValueError):
            return message
    return message


def _loaded(package: str) -> list[ModuleType]:
    return [
        module
        for name, module in list(sys.modules.items())
        if module is not None and (name == package or name.startswith(package + "."))
    ]


def _click() -> str | None:
    """The Click package that Typer uses: its own copy, else Click itself."""
    for name in ("typer._click", "click"):
        try:
            importlib.import_module(name)
        except ImportError:
            continue
        return name
    return None


def _use_our_gettext(click: str | None) -> None:
    """Where Typer or its Click looks words up with gettext, look them up in our catalog."""
    for module in [*_loaded("typer"), *(_loaded(click) if click == "click" else [])]:
        if getattr(module, "_", None) is gettext.gettext:
            setattr(module, "_", _)  # noqa: B010
        if getattr(module, "ngettext", None) is gettext.ngettext:
            setattr(module, "ngettext", ngettext)  # noqa: B010


def _method(module: str, cls: str, name: str, param: str) -> tuple[type, Any] | None:
    """``module.cls.name`` if it is a method taking ``param``, not wrapped here yet."""
    try:
        owner = getattr(importlib.import_module(module), cls)
        method = getattr(owner, name)
        params = inspect.signature(method).parameters
    except (ImportError, AttributeError, TypeError, ValueError):
        return None
    if not isinstance(owner, type) or param not in params or hasattr(method, "_ono99"):
        return None
    return owner, method


def _patch(
    module: str, cls: str, name: str, param: str, wrap: Callable[[Any], Callable[..., Any]]
) -> None:
    """Put ``wrap(original)`` in place of ``module.cls.name`` (a method taking ``param``),
    once; where Typer or Click no longer has that method, nothing changes."""
    found = _method(module, cls, name, param)
    if found is None:
        return
    owner, original = found
    patched = functools.wraps(original)(wrap(original))
    patched._ono99 = True  # type: ignore[attr-defined]
    setattr(owner, name, patched)


def _translate_usage_prefix(click: str) -> None:
    """The "Usage:" that starts help, written by ``HelpFormatter.write_usage``."""

    def wrap(write_usage: Any) -> Callable[..., None]:
        def translated(self: Any, prog: str, args: str = "", prefix: str | None = None) -> None:
            write_usage(self, prog, args, _(USAGE) + " " if prefix is None else prefix)

        return translated

    _patch(f"{click}.formatting", "HelpFormatter", "write_usage", "prefix", wrap)


def _translate_help_option(click: str) -> None:
    """The help of ``--help``, made by ``Command.get_help_option``."""

    def wrap(get_help_option: Any) -> Callable[..., Any]:
        def translated(self: Any, ctx: Any) -> Any:
            option = get_help_option(self, ctx)
            english = getattr(option, "_ono99_help", getattr(option, "help", None))
            if english == SHOW_HELP:
                option._ono99_help = english
                option.help = _(SHOW_HELP)
            return option

        return translated

    _patch(f"{click}.core", "Command", "get_help_option", "ctx", wrap)


#: Typer's names of value types in help (Python's: ``<int>``, ``<list[str]>``) as people
#: read them, the way Click writes them (``INTEGER``, ``TEXT``)
METAVARS = {"str": "TEXT", "int": "INTEGER", "float": "NUMBER", "bool": "BOOLEAN",
            "path": "PATH", "file": "FILE"}  # fmt: skip


def plain_metavar(label: str) -> str:
    """A type as Typer shows it in help, without Python's spelling.

    >>> [plain_metavar(t) for t in ("<int>", "<list[str]>", "<float range>", "<path>", "-x")]
    ['INTEGER', 'TEXT', 'NUMBER', 'PATH', '-x']
    """
    m = re.fullmatch(r"<(?:list\[)?([A-Za-z_]+)(?: range)?\]?>", label)
    if m is None:
        return label
    return METAVARS.get(m.group(1).lower(), m.group(1).upper())


def _plain_metavars() -> None:
    """Typer's ``display_type`` (the ``<int>`` after an option in help) through
    :func:`plain_metavar`."""

    def wrap(display_type: Any) -> Callable[..., Any]:
        def plain(self: Any, ctx: Any) -> Any:
            label = display_type(self, ctx)
            return plain_metavar(label) if isinstance(label, str) else label

        return plain

    _patch("typer.core", "_TyperParameter", "display_type", "ctx", wrap)


def range_words(low: float | None, high: float | None) -> str | None:
    """A number range as help shows it, in words of the current language (Typer writes
    ``0<=x<=65535``).

    >>> range_words(0, 65535), range_words(1, None), range_words(None, 9), range_words(None, None)
    ('0 to 65535', 'at least 1', 'at most 9', None)
    """
    if low is None and high is None:
        return None
    if low is None:
        # TRANSLATORS: the range of a number option in help ("[default: 5; at most 9]")
        return _("at most {high}").format(high=high)
    if high is None:
        return _("at least {low}").format(low=low)
    # TRANSLATORS: the range of a number option in help ("[default: 8099; 0 to 65535]")
    return _("{low} to {high}").format(low=low, high=high)


def _plain_ranges() -> None:
    """Typer's ``describe_number_range`` (what help shows of an option's min and max)
    through :func:`range_words`."""
    try:
        core = importlib.import_module("typer.core")
    except ImportError:
        return
    describe = getattr(core, "describe_number_range", None)
    if callable(describe) and describe is not range_words:
        setattr(core, "describe_number_range", range_words)  # noqa: B010


def translate_typer() -> None:
    """Let Typer's and Click's words of help speak the current language (and every
    language chosen later); idempotent."""
    click = _click()
    _use_our_gettext(click)
    _plain_metavars()
    _plain_ranges()
    if click is not None:
        _translate_usage_prefix(click)
        _translate_help_option(click)
