"""BALL's printed forms (`BallGame.paper`): its score sheets filled from the entered sheets,
and the figures its printed regulation quotes from its rules."""
