"""The interfaces people use: languages, words, the plain text game and the terminal game."""
