"""Xiangqi's printed forms: the arbiter's result documents of a round."""
