"""The web game in Debian's Chromium, driven by Playwright (marked browser: the full tier only)."""
