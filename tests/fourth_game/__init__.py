"""The fourth game: tic-tac-toe, defined here only, run through a whole event (issue 31)."""
