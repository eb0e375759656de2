"""The web game on PostgreSQL and Redis across server processes, behind nginx, and the
throwaway services themselves (marked services: the full tier only)."""
