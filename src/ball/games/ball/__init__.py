"""BALL's folder of the games: the `Game` BALL plugs in (`game.BallGame`); its rules are
`ball.games.ball.engine` and its matches `ball.games.ball.match`, which this folder wraps."""
