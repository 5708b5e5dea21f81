"""The terminal game: a UI-independent session, the Textual app and plain line mode."""
