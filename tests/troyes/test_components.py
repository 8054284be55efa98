"""Troyes component data: the rulebook's numbers, the provisional list, and a corrected
components file (exported, edited, validated, played on) through Python and the CLI."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from palio.cli import app
from palio.core.errors import ComponentsError
from palio.games.troyes import GAME, TroyesGame
from palio.games.troyes.components import DATA, DEFAULT, load_components, provisional_components


def test_the_rulebook_numbers():
    c = DEFAULT
    assert (c.start_money, c.start_influence, c.influence_max, c.citizens_per_player) == (5, 4, 20, 12)
    assert c.start_citizens == {2: 6, 3: 5, 4: 4} and c.red_events == {2: 4, 3: 5, 4: 6}
    assert c.characters_each == {2: 2, 3: 1, 4: 1}
    assert (c.income, c.salary, c.penalty_vp) == (10, (2, 1, 0), 2)
    assert c.die_prices == (2, 4, 6) and (c.reroll_cost, c.citizen_cost, c.flip_cost) == (1, 2, 4)
    assert c.cathedral_influence == (1, 1, 1, 2, 2, 2) and c.missing_level_vp == 2
    assert c.n_spaces == 18 and len(c.building_spaces[0]) == 6
    assert sum(1 for k in c.cards if not k[6]) == 27
    assert len(c.events) == 1 + 16 + 1  # Marauding, 8 red + 4 white + 4 yellow, Resistance
    assert [k[0] for k in c.events if k[1] == "red" and not k[8]].count("brigands") == 3


def test_every_provisional_card_is_listed():
    lines = provisional_components()
    for card in DATA["activity_cards"]["cards"]:
        assert any(line.startswith(f"activity card {card['key']} ") for line in lines)
    assert sum(line.startswith("event ") for line in lines) == len(DATA["event_cards"]["cards"]) + 1
    assert any(line.startswith("two_player_neutral.spaces") for line in lines)


def test_a_corrected_file_changes_the_numbers_and_plays(tmp_path):
    data = json.loads(GAME.export_components())
    data["activity_cards"]["cards"][0]["hire"] = 9
    data["buildings"]["bishopric"] = [{"values": [1, 2, 3], "slots": 3}, {"values": [4, 5, 6], "slots": 3}]
    path = tmp_path / "troyes.json"
    neutral = {"spaces": [["palace", 3, 1], ["palace", 4, 1], ["bishopric", 1, 3],
                          ["bishopric", 2, 3], ["city_hall", 2, 2], ["city_hall", 3, 2]]}
    path.write_text(json.dumps({"activity_cards": data["activity_cards"], "buildings": data["buildings"],
                                "two_player_neutral": neutral}), encoding="utf-8")
    game = TroyesGame.with_components(path)
    assert game.components.cards[0][3] == 9
    assert [r[3] for r in game.components.rows if r[0] == 1] == [3, 3]
    for players in (2, 3):
        state = game.setup(players, 1)
        while not state.is_over:
            state.apply(state.legal_actions()[-1])
    assert DEFAULT.cards[0][3] != 9  # the built-in data is untouched


@pytest.mark.parametrize(("change", "message"), [
    ({"buildings": {"palace": [{"values": [1], "slots": 1}]}}, "every die value"),
    ({"activity_cards": {"cards": [{"key": "juggler", "colour": "red", "round": 1, "delayed": False,
                                    "hire": 1, "divisor": 1, "spaces": [1]}]}}, "unknown name"),
    ({"setup": {"start_money": -1}}, "start_money"),
    ({"nonsense": {}}, "unknown section"),
    ({"effects": {"cards": {"artisan": {"deniers": "six"}}}}, "artisan"),
    ({"round": {"die_prices": [3, 2, 6]}}, "die_prices must not fall"),
])
def test_a_broken_file_is_refused_with_a_clear_error(tmp_path, change, message):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(change), encoding="utf-8")
    with pytest.raises(ComponentsError, match=message):
        load_components(path)


def test_the_command_line_lists_exports_and_checks(tmp_path):
    runner = CliRunner()
    listed = runner.invoke(app, ["games", "troyes", "--components"])
    assert listed.exit_code == 0 and "provisional" in listed.output and "merchant" in listed.output
    out = tmp_path / "data.json"
    exported = runner.invoke(app, ["games", "troyes", "--export-components", str(out)])
    assert exported.exit_code == 0 and json.loads(out.read_text(encoding="utf-8")) == DATA
    checked = runner.invoke(app, ["games", "troyes", "--components-file", str(out)])
    assert checked.exit_code == 0
    (tmp_path / "bad.json").write_text("{", encoding="utf-8")
    bad = runner.invoke(app, ["games", "troyes", "--components-file", str(tmp_path / "bad.json")])
    assert bad.exit_code != 0
