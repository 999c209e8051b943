"""Mahjong's folder of the games: the `Game` of tables of four (`game.MahjongGame`); its
rules are `ball.games.mahjong.engine`, its sessions its own `tournament` use cases."""
