"""Accounts (a club feature): registration, login sessions, lockouts, roles
(:mod:`.accounts`), the per-client limits on logins (:mod:`.login_limits`), their routes
and the profiles (:mod:`.routes`), their part of the wire (:mod:`.wire`) and pages
(``static/``). They provide the table with who is logged in
(:class:`~red7.web.table.members.Members`)."""
