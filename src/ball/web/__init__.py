"""The web toolbox, by audience: `desk` (the arbiter desk), `public` (the public display),
`simulator` (the board, rulebook and learn mode), `clocks`, `print`, `api` (the JSON API),
over `core` (what every page module shares); `app` wires them into one FastAPI app."""
