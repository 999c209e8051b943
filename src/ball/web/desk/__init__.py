"""The arbiter desk (`/desk/…`): one browser runs a whole event. Its routes: the events and
signing in, entrants, rounds, a table's result, sanctions, knockout and team formats,
groups, lateness, standings, the what-if preview and the pairing check; and the players'
own result entry by their table's link (`/t/…`), which the desk approves."""
