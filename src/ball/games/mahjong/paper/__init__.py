"""Mahjong's printed forms: the session's table sheets and seating lists."""
