"""BALL's `ball` commands: `ball play` (a match at the terminal), `ball rules` (the engine:
legal actions, perft), `ball sim` (self-play), `ball match` (a score sheet decided) and
`ball record` (.bgn records); `BallGame.commands` names them."""
