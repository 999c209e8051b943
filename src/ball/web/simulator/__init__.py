"""The pages of players and learners: the simulator's board (BALL hot-seat or against the
computer), the replay viewer, the interactive rulebook and learn mode. The games they play
are stored by `ball.play`; the JSON API the board calls is `ball.web.api.games`."""
