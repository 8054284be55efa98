"""Where applying an action works out the choices of the position it leads to (whether a
citizen has a single source, whether a cube could apply), those choices become the
position's cached legal actions (``turn._auto_source``, ``turn.begin_group``): they are
exactly what the position's own generator gives, at every decision of seeded games played
randomly and by a policy that prefers acting (so groups, cubes and placements come often),
with and without the bonus cards.
"""

from __future__ import annotations

import random

import pytest

import palio


@pytest.mark.parametrize(("players", "seed", "bonus"),
                         [(2, 31, False), (3, 32, False), (4, 33, False), (4, 34, False),
                          (2, 35, True), (3, 36, True)])
@pytest.mark.parametrize("policy", ["random", "progress"])
def test_choices_kept_while_applying_are_the_legal_actions(players, seed, bonus, policy):
    state = palio.new_game("troyes", players=players, seed=seed, options={"bonus_cards": bonus})
    rng = random.Random(seed)
    kept = 0
    while not state.is_over:
        if state._legal is not None:  # filled while the last action was applied
            kept += 1
        legal = state.legal_actions()
        assert legal == tuple(state._legal_actions()), (players, seed, state.move_number)
        keen = [a for a in legal if str(a) not in ("pass", "stop", "go", "nocube")]
        state.apply_unchecked(rng.choice(keen if policy == "progress" and keen else legal))
    assert kept > 0
