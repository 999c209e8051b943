"""Xiangqi's computer opponent: the search that chooses a move."""
