"""The web game (red7.web) in-process and as a served process; its browser tests in browser/
and those needing PostgreSQL, Redis or nginx in services/ (both the full tier only)."""
