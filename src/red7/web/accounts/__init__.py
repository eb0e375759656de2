"""Accounts (a club feature): registration, login sessions, roles and bans
(:mod:`.accounts`), the password policy (:mod:`.passwords`), failed logins slowing their
address down and floods told (:mod:`.throttle`), the per-client rate of tries
(:mod:`.login_limits`), their routes and the profiles (:mod:`.routes`), their part of the
wire (:mod:`.wire`) and pages (``static/``). They provide the table with who is logged in
(:class:`~red7.web.table.members.Members`)."""
