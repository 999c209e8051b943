"""The web toolbox, by audience: `desk` (the arbiter desk), `public` (the public display),
`clocks`, `print`, `api` (what the games' JSON APIs share), over `core` (what every page
module shares); `app` wires them into one FastAPI app with each game's own pages (BALL's
simulator, rulebook and learn mode are in `ball.games.ball.web`)."""
