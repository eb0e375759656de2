"""The web server's routes, one router by concern (:func:`red7.web.server.create_app`
includes them all): the pages (:mod:`.pages`), the lobby's tables API (:mod:`.lobby`),
the game's WebSocket (:mod:`.socket`), the records and replays of games
(:mod:`.records`), the protocol's schema (:mod:`.schema`) and the operations' probes
(:mod:`.health`). What they share, the tables and the limits, is the app's
:class:`~.context.Context`."""
