"""Component data: rulebook values, the provisional list, and corrected files (validated)."""

from __future__ import annotations

import json
import pickle
import random

import pytest
from typer.testing import CliRunner

from palio.cli import app
from palio.core.errors import ComponentsError
from palio.games.aquileia import DATA, GAME, AquileiaGame, export_components, provisional_components
from palio.games.aquileia.components import DEFAULT


def test_rulebook_values_are_as_printed():
    c = DEFAULT
    assert c.start_coins == (1, 1, 2) and c.supply == (39, 39, 39)
    assert c.display_size == 3 and c.arma_price == (0, 0, 1)
    assert c.servi == ((2, 1), (1, 2), (0, 3))  # bronze 1, silver up to 2, gold up to 3
    assert c.arena_fields == (1, 1, 2) and c.arena_coins == (3, 2, 1) and c.vp_per_strength == 2
    assert c.stadium_coins == (3, 2, 1) and c.pecunia_vp == 4 and c.rounds == 6
    assert c.forum_fields == ((1, False), (1, True), (2, False), (1, False), (1, True))
    assert c.port_metals == (2, 1, 0)  # bronze, silver, gold
    blue10 = [p for p in range(len(c.plots)) if c.plot_colour[p] == c.colours.index("blue")
              and c.plot_vp[p] == 10]
    assert len(blue10) == 1
    assert c.plot_cost[blue10[0]] == (1, 2, 2) and c.plot_slaves[blue10[0]] == 3


def test_provisional_list_names_the_guesses_with_reasons():
    text = "\n".join(provisional_components())
    for name in ("mercatus.exchanges", "stadium:", "forum.plots"):
        assert name in text
    assert "lost picture" in text and "28 fields" in text
    assert GAME.provisional_components() == provisional_components()


def test_a_corrected_file_is_used_and_the_builtin_data_is_untouched(tmp_path):
    path = tmp_path / "fix.json"
    path.write_text(json.dumps({"stadium": {"fields": {"gold": [1, 1, 2], "silver": [1, 1, 2]}},
                                "mercatus": {"exchanges": [{"give": {"gold": 1}, "get": {"bronze": 3}}]}}))
    game = AquileiaGame.with_components(path)
    assert game.components.stadium_fields[0] == (1, 1, 2)
    assert len(game.components.exchanges) == 1 and game.info.action_space_size < GAME.info.action_space_size
    assert DEFAULT.stadium_fields[0] == (1, 2, 2)
    assert json.loads(export_components()) == json.loads(json.dumps(DATA))
    s = game.setup(3, 1)
    rng = random.Random(1)
    while not s.is_over:
        s.apply(rng.choice(s.legal_actions()))
    assert json.loads(game.export_components())["stadium"]["fields"]["gold"] == [1, 1, 2]


@pytest.mark.parametrize(("content", "message"), [
    ("{not json", "not valid JSON"),
    ("[]", "JSON object"),
    ('{"dragons": {}}', "unknown section"),
    ('{"coins": 5}', "must be an object"),
    ('{"coins": {"start": {"platinum": 1}}}', "unknown metal"),
    ('{"slave_cards": {"cards": [{"slaves": 3, "count": 2}]}}', "one or two slaves"),
    ('{"horse_weapon_cards": {"cards": [{"kind": "sword", "symbols": 1, "count": 1}]}}', "horse or weapon"),
    ('{"stadium_cards": {"cards": [{"colour": "green", "count": 12}]}}', "unknown name"),
    ('{"theatre_cards": {"cards": [["white", "white"]]}}', "two colours"),
    ('{"forum": {"plots": [{"kind": "temple", "cost": {}, "vp": 1}]}}', "unknown name"),
    ('{"forum": {"plots": [{"kind": "bank", "cost": {"gold": 1}, "vp": 1}]}}', "needs an income"),
    ('{"mercatus": {"exchanges": [{"give": {"gold": 1}, "get": {"gold": 2}}]}}', "same metal"),
    ('{"stadium": {"fields": {"gold": [1]}}}', "gold and a silver side"),
    ('{"rounds": {"count": 7}}', "two cards per round"),
    ('{"arena": {"fields": [0, 1]}}', "positive"),
    ('{"tiebreaker_track": {"spaces": 3}}', "5 players"),
])
def test_broken_files_are_rejected_clearly(tmp_path, content, message):
    before = json.dumps(DATA)
    path = tmp_path / "bad.json"
    path.write_text(content)
    with pytest.raises(ComponentsError, match=message):
        AquileiaGame.with_components(path)
    assert json.dumps(DATA) == before


def test_missing_file_is_a_components_error(tmp_path):
    with pytest.raises(ComponentsError, match="cannot read"):
        AquileiaGame.with_components(tmp_path / "nope.json")


def test_cli_lists_exports_and_checks_component_files(tmp_path):
    runner = CliRunner()
    listed = runner.invoke(app, ["games", "aquileia", "--components"])
    assert listed.exit_code == 0 and "provisional: forum.plots" in listed.output
    out = tmp_path / "aquileia.json"
    exported = runner.invoke(app, ["games", "aquileia", "--export-components", str(out)])
    assert exported.exit_code == 0 and json.loads(out.read_text()) == json.loads(export_components())
    checked = runner.invoke(app, ["games", "aquileia", "--components-file", str(out)])
    assert checked.exit_code == 0 and "is valid" in checked.output
    played = runner.invoke(app, ["play", "aquileia", "-p", "3", "--bots", "random,random,random",
                                 "--seed", "4", "-q", "--components-file", str(out),
                                 "--record", str(tmp_path / "game.json")])
    assert played.exit_code == 0, played.output
    replayed = runner.invoke(app, ["replay", str(tmp_path / "game.json"), "--components-file", str(out)])
    assert replayed.exit_code == 0 and "verified" in replayed.output
    bad = tmp_path / "bad.json"
    bad.write_text('{"rounds": {"count": 0}}')
    refused = runner.invoke(app, ["games", "aquileia", "--components-file", str(bad)])
    assert refused.exit_code != 0


def test_observe_is_json_ready_and_states_pickle():
    s = GAME.setup(5, 2)
    json.dumps(s.observe(None))
    t = pickle.loads(pickle.dumps(s))
    assert t.observe(1) == s.observe(1)
    assert GAME.render(s, 0)
