"""Component data: counts from the rulebook, provisional listing, loading a corrected file."""

from __future__ import annotations

import json
import pickle

import pytest

from palio.core.errors import ComponentsError
from palio.games.tiletum import DATA, GAME, TiletumGame, export_components, provisional_components
from palio.games.tiletum.components import CHAR_TILE, CONTRACT_TILE, DEFAULT


def test_counts_match_the_rulebook():
    c = DEFAULT
    assert len(c.spots) == 29 and c.n_towns == 23
    assert c.n_bonus == 54
    assert c.n_contract_end - c.n_bonus == 26
    assert sum(1 for t in c.tiles if t[0] == CHAR_TILE) == 45
    assert sum(len(x) for x in c.cathedral_tiles) == 25
    assert len(c.cost_tiles) == 9 and len(c.corruption) == 6
    assert c.crest_food == (6, 6, 5, 4, 3, 2)
    assert c.completed_vp[1:] == (0, 0, 5, 10, 20, 30)
    assert sum(1 for t in c.tiles[: c.n_bonus] if t[0] == CONTRACT_TILE) > 0


def test_known_map_facts_hold():
    c = DEFAULT
    sid = c.spot_id
    assert sid["Nuernberg"] in c.adj[sid["Frankfurt"]]
    assert sid["Praha"] in c.adj[sid["Nuernberg"]]
    assert sid["Paris"] in c.adj[sid["Tiletum"]]
    assert sid["Genova"] not in c.adj[sid["Arles"]]
    assert sid["Genova"] in c.adj[sid["Arles_Genova"]]


def test_provisional_list_names_the_guesses():
    lines = provisional_components()
    text = "\n".join(lines)
    for name in ("house_spaces", "king_track", "corruption", "cost_tiles", "map.links"):
        assert name in text


def test_load_corrected_file(tmp_path):
    path = tmp_path / "fix.json"
    path.write_text(json.dumps({"corruption": {"tokens": [0, 0, 0, 0, 0, 0]}}))
    game = TiletumGame.with_components(path)
    s = game.setup(2, 1)
    assert s.comp.corruption == (0,) * 6
    assert GAME.components.corruption != (0,) * 6
    assert json.loads(export_components()) == json.loads(json.dumps(DATA))


@pytest.mark.parametrize("content, message", [
    ("{not json", "not valid JSON"),
    ("[]", "JSON object"),
    ('{"dragons": {}}', "unknown section"),
    ('{"map": {"town_links": [["Paris", "Atlantis"]]}}', "Atlantis"),
    ('{"corruption": {"tokens": [0, 5]}}', "0, 1 or 2"),
    ('{"player_board": {"crest_food": [1, 2]}}', "one crest space per building"),
    ('{"king_track": {"start": 99}}', "king_track.start"),
    ('{"cost_tiles": {"tiles": [[1, 1]]}}', "cost tile"),
    ('{"bonus_tiles": {"tiles": [{"kind": "dragon", "min": 2}]}}', "bonus tile kind"),
    ('{"wheel": {"areas": 5}}', "malformed"),
    ('{"fairs": {"board_vp": [1, 2, 3]}}', "one value per round"),
])
def test_broken_files_are_rejected_clearly(tmp_path, content, message):
    before = json.dumps(DATA)
    path = tmp_path / "bad.json"
    path.write_text(content)
    with pytest.raises(ComponentsError, match=message):
        TiletumGame.with_components(path)
    assert json.dumps(DATA) == before


def test_missing_file_is_a_components_error(tmp_path):
    with pytest.raises(ComponentsError, match="cannot read"):
        TiletumGame.with_components(tmp_path / "nope.json")


def test_observe_is_json_ready_and_states_pickle():
    s = GAME.setup(3, 2)
    json.dumps(s.observe(None))
    t = pickle.loads(pickle.dumps(s))
    assert t.observe(1) == s.observe(1)
    assert GAME.render(s, 0)
