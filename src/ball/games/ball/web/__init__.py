"""BALL's own web code: a desk table's match on the simulator board."""
