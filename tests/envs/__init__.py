"""The research environments (red7.envs): encoding, Gymnasium, PettingZoo, OpenSpiel, the
vector environment."""
