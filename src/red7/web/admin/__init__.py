"""The server's admins (a club feature): their page and API (:mod:`.routes`: tables,
connections, accounts, metrics; closing a table, revoking a seat's token, banning an
account), what it answers (:mod:`.wire`) and its page (``static/``)."""
