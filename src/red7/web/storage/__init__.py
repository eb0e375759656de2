"""What the web server keeps and how its processes talk: the database (:mod:`.store`, its
rows :mod:`.rows`, a table as stored :mod:`.stored`), its migrations (Alembic,
:mod:`.migrations`), its backups (:mod:`.backup`) and the bus between processes
(:mod:`.bus`). It imports no room; each club feature declares its own tables on
:class:`~red7.web.storage.rows.Base`."""
