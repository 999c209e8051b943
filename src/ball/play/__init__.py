"""Games played move by move on the server (the simulator's, issue 31): each stored as its
initial position and the actions applied, rebuilt by replay through the engine, with
undo/redo, the half timer and `.bgn` records; the computer's replies through a queue of
searches in the database that every server process shares. Below the web: no route, no
page, no FastAPI (`ball.games.ball.web.api` translates HTTP to it)."""
