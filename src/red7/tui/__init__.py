"""The terminal game, built with Textual: :class:`~red7.tui.app.PlayApp` and the replayer."""
