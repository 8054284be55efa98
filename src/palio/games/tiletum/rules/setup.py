"""Set-up for 2-4 players (rulebook "ゲームの準備", steps 1-15).

Readings: seat 0 is the start player and turn order follows the seats; the wheel's starting
orientation ("any orientation") is drawn from the seed.
"""

from __future__ import annotations

from typing import Any

from palio.core.rng import derive
from palio.games.tiletum.rules.round import start_round
from palio.games.tiletum.state import PLAY, TiletumState


def setup_state(cls: type[TiletumState], players: int, seed: int, options: dict[str, Any]) -> TiletumState:
    s = cls.__new__(cls)
    s._init_base(players, seed, options)
    c = s.comp
    rng = derive(seed, "setup")
    _decks(s, rng)
    _board(s, rng, bool(options.get("action_tiles")))
    _players(s)
    s.round, s.turn, s.pos, s.phase = 1, 0, 0, PLAY
    s.swap, s.shuffles, s.fairs_done = 0, 0, 0
    tokens = list(c.corruption)
    rng.shuffle(tokens)
    k = c.corruption_per_round
    s.corr, s.corr_pool, s.corr_shown = tokens[:k], tokens[k:], 0
    s.emit("setup", None, players=players, order=s.order[:])
    start_round(s)
    return s


def _decks(s: TiletumState, rng: Any) -> None:
    c = s.comp
    s.bonus_deck = c.tile_ids("bonus", s.players)
    s.contract_deck = c.tile_ids("contract", s.players)
    s.char_deck = c.tile_ids("character", s.players)
    for deck in (s.bonus_deck, s.contract_deck, s.char_deck):
        rng.shuffle(deck)


def _draw(deck: list[int]) -> int:
    return deck.pop() if deck else -1


def _board(s: TiletumState, rng: Any, action_tiles: bool) -> None:
    c = s.comp
    areas = list(c.wheel_areas)
    if action_tiles:
        rng.shuffle(areas)  # variant: the six action tiles placed at random around the wheel
    s.area_action = areas
    s.rotation = rng.randrange(6)
    s.area_bonus = [_draw(s.bonus_deck) for _ in range(6)]
    s.king_bonus = _draw(s.bonus_deck)
    s.map_bonus = [_draw(s.bonus_deck) if 0 < m <= s.players else -1 for m in c.bonus_space_min]
    s.contract_disp = [_draw(s.contract_deck) for _ in range(c.display_size)]
    s.char_disp = [_draw(s.char_deck) for _ in range(c.display_size)]
    cost = list(range(len(c.cost_tiles)))
    rng.shuffle(cost)
    s.cost = cost
    s.cath_stack = [[] if c.cost_tiles[cost[k]] is None else list(c.cathedral_tiles[k])
                    for k in range(len(cost))]
    s.pillar_owner = [[] for _ in cost]
    n_fairs = len(c.fair_board_vp)
    s.fair_towns = [c.first_fair_town] + rng.sample(list(c.town_tiles), n_fairs - 1)
    s.fair_tiles = rng.sample(range(len(c.fair_tiles)), n_fairs)
    s.house_owner = [-1] * len(c.house_spaces)
    s.wheel = [0] * 30
    s.stack = []
    s.holds = []


def _players(s: TiletumState) -> None:
    c = s.comp
    n = s.players
    s.order = list(range(n))
    s.vp = [c.start_vp] * n
    s.king_pos = [c.king_start] * n
    s.king_stamp = list(range(1, n + 1))  # start player at the bottom of the stack
    s.stamp = n
    s.res = [[c.start_gold[i], 1, 1, 1, 1] for i in range(n)]
    s.houses = [c.start_houses_supply] * n
    s.pillars = [c.start_pillars_supply] * n
    s.store = [[] for _ in range(n)]
    s.rooms = [[-1] * c.n_rooms for _ in range(n)]
    s.crests = [[-1] * len(c.rooms) for _ in range(n)]
    s.done = [[] for _ in range(n)]
    s.cath_tiles = [[] for _ in range(n)]
    s.contributed = [0] * n
    s.completed = [0] * n
    s.bonus_ap = [[0] * 6 for _ in range(n)]
    s.merchant = [c.tiletum] * n
    s.architect = [c.tiletum] * n
    s.dice_used = [[] for _ in range(n)]
    spaces = [i for i in c.town_house_spaces[c.tiletum] if c.house_spaces[i][1] <= n]
    for p in range(n):
        s.house_owner[spaces[p]] = p  # one starting house in Tiletum
