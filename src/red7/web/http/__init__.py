"""What every room's HTTP and WebSocket side shares: the protocol's base declarations and how
a request is read (:mod:`.wire`), refusals (:mod:`.refusals`), what each client may take of a
server (:mod:`.limits`), the checks every request passes first (:mod:`.guard`,
:mod:`.origins`), the process's metrics (:mod:`.metrics`), and how a route finds the parts of
its app (:mod:`.parts`). It imports no room."""
