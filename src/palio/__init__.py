"""Palio: exact rules engines, bots and play for five European strategy board games.

>>> import palio
>>> state = palio.new_game("san-gimignano", players=2, seed=1)
>>> state.to_move
0
"""

from palio import games
from palio.core import GameRecord, IllegalAction
from palio.games import get as get_game
from palio.games import new_game

__all__ = ["GameRecord", "IllegalAction", "games", "get_game", "new_game"]
__version__ = "0.1.0"
