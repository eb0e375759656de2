"""The table: the live tables of a server and their flow around the game's
:class:`~red7.play.session.Session`.

:mod:`.tables` holds them and owns the one way to change one (:class:`~.tables.Tables`:
hold, decide, write, tell); the flow's parts are modules over it: :mod:`.seating` and
:mod:`.hosting` (who sits, the host's and an admin's changes), :mod:`.play` (decisions,
rematches), :mod:`.bots`, :mod:`.presence` (who is connected, in every process, and the
frames each connection is sent), :mod:`.cluster` (the other processes' changes),
:mod:`.watch` (clocks, the people away, expiry), :mod:`.records` (games read back),
:mod:`.lobby`. What it sends is declared in :mod:`.frames` (and its requests in
:mod:`.requests`), built in :mod:`.views` and kept per change in :mod:`.cache`; its
routes are :mod:`.routes`, its pages ``static/``.

The rooms around it hear it through :mod:`.events` (after every change, a game over);
it imports none of them (import-linter keeps it): what it needs of the accounts it
declares in :mod:`.members`."""
