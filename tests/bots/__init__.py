"""The bots (red7.bots), the exact solver (red7.solver), the opponent model and the learned
player (red7.learn)."""
