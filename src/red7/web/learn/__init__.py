"""Learning Red7 in the web game: the rules page (:mod:`.rules`, from the rules screen's
Markdown, in English and Portuguese) and the guided first game (:mod:`.tutorial`: the
``/tutorial`` page over ``POST /api/tutorial``, its wire in :mod:`.wire`)."""
