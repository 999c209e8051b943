"""Xiangqi's web pages and API: the board, the stored games, the computer's replies."""
