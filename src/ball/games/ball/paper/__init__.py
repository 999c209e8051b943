"""BALL's printed edition (`BallGame.paper`): the regulation's appendices A-F as its own forms
(`forms.BallForms`, printed through `FormSet.game` like every game's), a round's forms filled
from the database, its score sheets decided, its round's PDF stamped, and the figures its
printed regulation quotes from its rules."""
