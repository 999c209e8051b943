"""Mahjong's desk, table-entry and public pages: sessions, hand sheets, seating."""
