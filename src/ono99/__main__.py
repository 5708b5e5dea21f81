"""``python -m ono99``: the same as the ``ono99`` command."""

from ono99.cli import main

if __name__ == "__main__":
    main()
