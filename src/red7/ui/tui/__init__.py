"""The terminal game, built with Textual: :class:`~red7.ui.tui.app.PlayApp` and the replayer."""
