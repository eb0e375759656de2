"""Playing a game (red7.play): the session every interface drives, tables, saving and resuming."""
