"""Troyes' observation tensor: the declared size, every value within its block, blind to what
the seat cannot see (and seeing what it may), the same for every seat's own view."""

from __future__ import annotations

import random

import pytest

from palio.games.troyes import GAME
from tests.encoding import check_blind_to_hidden, check_in_layout, random_positions


@pytest.mark.parametrize("players", [2, 3, 4])
def test_tensors_stay_in_their_layout_and_blind_to_hidden_things(players):
    rng = random.Random(players)
    for n, state in enumerate(random_positions(GAME, players, games=2, seed=players)):
        if n % 7:
            continue
        for seat in [None, *range(players)]:
            check_in_layout(GAME, state, seat)
        if not state.is_over:
            check_blind_to_hidden(GAME, state, state.to_move, rng)


def test_the_own_characters_and_face_up_cards_show_in_the_tensor():
    s = GAME.setup(3, 4)
    layout = GAME.observation_layout(3)
    for seat in range(3):
        tensor = GAME.observation_tensor(s, seat)
        mine = tensor[layout.span("p0.characters")]
        assert [i for i, x in enumerate(mine) if x] == list(s.chars[seat])
        assert not any(tensor[layout.span("p1.characters")])
    assert not any(GAME.observation_tensor(s, None)[layout.span("cards")])
    while s.phase == 0:
        s.apply(s.legal_actions()[0])
    cards = GAME.observation_tensor(s, 0)[layout.span("cards")]
    assert sum(cards) == 3  # one card per colour turned up in round 1


def test_the_layout_grows_with_the_player_count():
    sizes = [GAME.observation_layout(n).size for n in (2, 3, 4)]
    assert sizes == sorted(sizes) and len(set(sizes)) == 3
    assert GAME.observation_tensor_shape(4) == (sizes[2],)
