"""The table's routes: the lobby's API (:mod:`.lobby`), the "your turn" list
(:mod:`.turns`), finished games read back (:mod:`.records`) and the pages (:mod:`.pages`)."""
