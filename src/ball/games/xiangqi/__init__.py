"""Xiangqi's folder of the games: the `Game` (`game.XiangqiGame`: the arbiter's result
document, tie-breaks, sanction ladder) and its desk form; its rules are
`ball.games.xiangqi.engine`."""
