"""Analysis (red7.analysis): red7 stats, red7 tournament, reviews of decisions."""
