"""Component data: counts and values from the rulebook and the reference, the provisional
listing, and corrected components files (validated, with clear errors)."""

from __future__ import annotations

import json
import pickle

import pytest

from palio.core.errors import ComponentsError
from palio.games.signorie import DATA, GAME, SignorieGame, export_components, provisional_components
from palio.games.signorie.components import DEFAULT, SIGNORIA


def test_counts_and_values_from_the_rulebook_and_the_reference():
    c = DEFAULT
    assert c.n_tiles == 54 and all(2 <= v <= 5 for v in c.tile_value)
    assert len(c.assignments) == 10 and len(c.bonus_tiles) == 9 and len(c.vp_tiles) == 5
    assert c.dice_per_colour == {2: 2, 3: 3, 4: 4} and c.offspring_dice == 5
    assert c.cities_in_use == {2: 3, 3: 4, 4: 5}
    assert c.removed_per_family == {2: 2, 3: 1, 4: 0}
    assert (c.start_florins, c.extra_florins) == (5, (1, 2, 2, 3))
    assert (c.men_supply, c.women_supply, c.men_stock, c.women_stock) == (4, 3, 8, 8)
    assert (c.threshold_base, c.threshold_max, c.threshold_step) == (13, 22, 3)
    assert (c.dowry_max, c.vp_per_florin, c.signoria_florins, c.advancement_points) == (4, 2, 3, 4)
    assert (c.bonus_florins_slot, c.bonus_florins, c.bonus_init_slot, c.bonus_init) == (3, 2, 5, 1)
    assert c.col_cost[0] == 1 and c.col_cost[1] == 2 and c.col_cost[4] == 5
    assert SIGNORIA[c.col_action[1]] == "marriage"  # the red die marries (rulebook)
    assert c.hire_to[1] == 0 and c.helpers[0][1][0] == 3  # red hires into yellow; middle costs 3
    assert c.city_names == ("Milano", "Venezia", "Firenze", "Roma", "Napoli")
    assert c.helper_discs == 48 and c.rounds == 7
    assert max(c.track_vp[2]) == 13 and 13 in c.track_vp[2]
    assert c.track_rank[0][c.track_vp[0].index(9)] == 4  # the politician on 9 has rank 4
    assert {9, 4, 0} <= set(c.init_vp)
    assert sum(1 for col in c.helpers for _cost, e, _a in col if e == 4) == 3  # 助手3個
    for board in c.plan_rows:
        for row in board:
            assert sorted(row.count(f) for f in set(row)) == [1, 1, 2]


def test_twelve_helper_slots_per_board_one_per_helper_disc():
    """Reference, component counts: 48 helper discs, 12 per player, so probably 12 helper
    slots on each player board (an inferred fact, used as given); the yellow column has a
    middle slot (助手の雇用, the example), so at least three slots."""
    c = DEFAULT
    assert sum(len(col) for col in c.helpers) == 12
    assert 4 * sum(len(col) for col in c.helpers) == c.helper_discs
    assert len(c.helpers[0]) == 3 and c.helpers[0][1][0] == 3


def test_family_names_are_the_references_placeholders_not_guesses():
    """Reference §8: no public source names the six houses; "Do not guess; use placeholder
    ids F1-F6 until the rulebook or board art is checked". A components file may name them."""
    from palio.core.i18n import Translator

    assert DEFAULT.family_names == ("F1", "F2", "F3", "F4", "F5", "F6")
    for lang in ("en", "ja"):
        tr = Translator(lang)
        names = {e.key: tr(e.name) for e in GAME.words.glossary() if e.key.startswith("family.")}
        assert all(f"F{f + 1}" in names[f"family.{f}"] for f in range(6)), names


def test_provisional_listing_names_the_guesses():
    text = "\n".join(provisional_components())
    for name in ("careers", "initiative", "cities.slots", "families.names", "plans", "sons",
                 "assignments", "rewards", "columns.hire_to", "columns.columns[0].helpers[0]"):
        assert name in text, name
    assert GAME.provisional_components() == provisional_components()


def test_unattested_parts_of_attested_entries_are_listed_as_provisional():
    """助手の雇用: the example gives the yellow middle slot's cost (3 florins), not its effect;
    裏向きのタイル: one assignment's bonus is a face-down tile, but not what it costs. Both
    guesses must show in the provisional listing, marked with what is attested."""
    lines = provisional_components()
    middle = [line for line in lines if line.startswith("columns.columns[0].helpers[1]")]
    assert len(middle) == 1 and '"cost_src": "rulebook"' in middle[0]
    tiles = DATA["assignments"]["tiles"]
    face_down = next(i for i, t in enumerate(tiles) if t["effect"] == "alliance")
    assert tiles[face_down]["src"] == "provisional" and tiles[face_down]["effect_src"] == "rulebook"
    assert DATA["columns"]["columns"][0]["helpers"][1]["src"] == "provisional"
    # the threshold tile's "..3" is inferred from 13 + 3 x 3 = 22 (reference S8), not printed
    threshold = next(t for t in tiles if t["effect"] == "threshold")
    assert threshold["src"] == "reference:inferred"


def test_export_and_load_a_corrected_file(tmp_path):
    assert json.loads(export_components()) == json.loads(json.dumps(DATA))
    path = tmp_path / "fix.json"
    path.write_text(json.dumps({"initiative": {"vp": [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12]},
                                "families": {"names": ["Aa", "Bb", "Cc", "Dd", "Ee", "Ff"]}}))
    game = SignorieGame.with_components(path)
    s = game.setup(2, 1)
    assert s.comp.init_vp[-1] == 12 and GAME.components.init_vp[-1] == 9
    assert game.info.action_space_size == GAME.info.action_space_size
    while not s.is_over:
        s.apply(s.legal_actions()[0])
    from palio.core.i18n import Translator

    glossary = {e.key: Translator("en")(e.name) for e in game.words.glossary()}
    assert glossary["family.0"] == "Aa family"


@pytest.mark.parametrize("content, message", [
    ("{not json", "not valid JSON"),
    ("[]", "JSON object"),
    ('{"dragons": {}}', "unknown section"),
    ('{"families": {"names": ["A"]}}', "6 families"),
    ('{"families": {"tile_values": [2, "x"]}}', "whole number"),
    ('{"cities": {"slots": {"Milano": [1, 9]}}}', "5 cities"),
    ('{"careers": {"tracks": {"politician": {"vp": [1], "rank": [1]}}}}', "tracks must be"),
    ('{"plans": {"boards": {"yellow": {}}}}', "plans.boards"),
    ('{"assignments": {"tiles": []}}', "10 tiles"),
    ('{"columns": {"columns": []}}', "5 die colours"),
    ('{"rewards": {"vp_tiles": [{"criterion": "cake", "per": 1, "max": 2}]}}', "unknown name"),
    ('{"threshold": {"base": 13, "max": 10, "step": 3}}', "threshold.max"),
    ('{"initiative": {"vp": [1]}}', "at least 2"),
    ('{"sons": {"slot_vp": [1, 2]}}', "offspring_dice"),
    ('{"start": {"extra_florins_by_order": [1]}}', "4 values"),
])
def test_broken_files_are_rejected_clearly(tmp_path, content, message):
    before = json.dumps(DATA)
    path = tmp_path / "bad.json"
    path.write_text(content)
    with pytest.raises(ComponentsError, match=message):
        SignorieGame.with_components(path)
    assert json.dumps(DATA) == before


def test_missing_file_is_a_components_error(tmp_path):
    with pytest.raises(ComponentsError, match="cannot read"):
        SignorieGame.with_components(tmp_path / "nope.json")


def test_observe_is_json_ready_and_states_pickle():
    s = GAME.setup(3, 2)
    json.dumps(s.observe(None))
    t = pickle.loads(pickle.dumps(s))
    assert t.observe(1) == s.observe(1)
    assert GAME.render(s, 0)


def test_legend_is_json_ready_and_names_every_printed_table():
    legend = GAME.legend()
    json.dumps(legend)
    assert len(legend["columns"]) == 5 and len(legend["cities"]) == 5 and len(legend["tiles"]) == 54
    assert len(legend["plans"]) == 4 and legend["initiative_vp"] == list(DEFAULT.init_vp)
