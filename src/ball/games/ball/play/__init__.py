"""BALL's games played move by move on the server (the simulator's board, learn mode, a desk
table's recorded match): each stored as its initial position and the actions applied
(`ball.play.models.WebGame`), rebuilt by replay through the engine, with undo/redo, the half
timer and `.bgn` records; the computer's turns go through the shared search queue of
`ball.play`."""
