"""The ``ono99`` command (CONTRACTS.md "CLI").

Every error reaches the user as one line on stderr with exit status 2.
"""

from __future__ import annotations

import sys

import typer

from ono99.errors import Ono99Error

__all__ = ["app", "main"]

app = typer.Typer(
    name="ono99",
    help="ONO 99 (Mattel 2022) and O'NO 99 (1980): play, replay, benchmark, bot arena.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


def _register() -> None:
    # Subcommand modules attach themselves to ``app``; imported here so that
    # heavy front ends load only when used.
    from ono99.cli import bench, replay  # noqa: F401

    for optional in ("arena", "play"):
        try:
            __import__(f"ono99.cli.{optional}")
        except ModuleNotFoundError as e:
            if e.name != f"ono99.cli.{optional}":
                raise


def fail(message: str, status: int = 2) -> typer.Exit:
    """Print ``message`` as one line on stderr; return the Exit to raise."""
    line = " ".join(str(message).split())
    print(f"ono99: error: {line}", file=sys.stderr)
    return typer.Exit(status)


def main(argv: list[str] | None = None) -> None:
    """Entry point of the console script."""
    _register()
    try:
        result = app(args=argv, prog_name="ono99", standalone_mode=False)
    except typer.Exit as e:
        sys.exit(e.exit_code)
    except typer.Abort:
        print("ono99: aborted", file=sys.stderr)
        sys.exit(130)
    except typer.TyperException as e:
        if type(e).__name__ == "NoArgsIsHelpError":
            print(e.format_message() if hasattr(e, "format_message") else e)
            sys.exit(0)
        fmt = getattr(e, "format_message", None)
        line = " ".join((fmt() if callable(fmt) else str(e)).split())
        print(f"ono99: error: {line} (see ono99 --help)", file=sys.stderr)
        sys.exit(2)
    except Ono99Error as e:
        fail(str(e))
        sys.exit(2)
    except KeyboardInterrupt:
        print("ono99: interrupted", file=sys.stderr)
        sys.exit(130)
    except BrokenPipeError:
        sys.exit(1)
    if isinstance(result, int):
        sys.exit(result)
