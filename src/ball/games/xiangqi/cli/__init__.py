"""Xiangqi's commands of the `ball` CLI (`ball xiangqi ...`)."""
