"""The rules and the engine (red7.core): the rules R1-R9, notation, chance, events, refusals,
perft counts, properties of random games, records, and the golden playthroughs both
engines reproduce."""
