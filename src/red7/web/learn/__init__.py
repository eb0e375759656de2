"""Learning Red7 in the web game: the rules page (:mod:`.rules`, from the rules screen's
Markdown, in English and Portuguese)."""
