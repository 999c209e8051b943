"""Mahjong's commands of the `ball` CLI: hand scoring, seatings and session events."""
