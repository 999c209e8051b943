"""The public display (`/public/…`), read-only, for a projector or a phone: pairings,
results and standings with "find my name" and "what I need", the crosstable, brackets and
teams, the projector view, and the live boards of the games recorded at the tables."""
