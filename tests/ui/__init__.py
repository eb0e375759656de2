"""The terminal game (Textual, headless), the plain text game, and the interface languages
(red7.ui)."""
