"""The terminal's words a new player meets (issue 22, section 4): errors that say what to type,
arguments that say how to fix them, choices numbered in the order shown."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

import palio
from palio.cli import app, play
from palio.cli.play import ask, in_groups, not_a_move
from palio.cli.serve import database_url
from palio.core import describe
from palio.core.errors import PalioError
from palio.core.i18n import LANGUAGES, Translator

runner = CliRunner()
GAMES = list(palio.games())
# what a parser says about itself: it must not reach a player
INTERNALS = re.compile(r"expected|got '|cannot read|takes no arguments|names a .* this game")


def entries_of(state) -> list[str]:
    """Wrong entries a player might type: each verb of the legal moves with a bad argument,
    and text that is no move at all."""
    verbs = {str(a).split()[0] for a in state.legal_actions()}
    return [f"{verb} 99" for verb in sorted(verbs)] + ["fly away", "place 99"]


@pytest.mark.parametrize("lang", list(LANGUAGES))
@pytest.mark.parametrize("game_id", GAMES)
def test_a_wrong_entry_says_what_a_move_looks_like(game_id, lang):
    game = palio.get_game(game_id)
    tr = Translator(lang)
    state = game.setup(game.info.min_players, 3)
    rng = random.Random(3)
    for _ in range(60):
        if state.is_over:
            break
        legal = list(state.legal_actions())
        for text in entries_of(state):
            try:
                state.parse(text)
            except PalioError as exc:
                said = not_a_move(exc, tr, text, legal)
                assert not INTERNALS.search(said), f"{text!r}: {said}"
                # an example a player can type now, and the numbers
                assert any(str(a) in said for a in legal), said
                assert f"{len(legal)}" in said
        state.apply(rng.choice(legal))


def test_place_99_in_troyes_shows_the_places():
    game = palio.get_game("troyes")
    state = game.setup(2, 1)
    while not any(str(a).startswith("place ") for a in state.legal_actions()):
        state.apply(state.legal_actions()[0])
    legal = list(state.legal_actions())
    try:
        state.parse("place 99")
    except PalioError as exc:
        said = not_a_move(exc, Translator("en"), "place 99", legal)
    assert "building letter" not in said and "place P" in said, said


def test_choices_are_numbered_in_the_order_shown(monkeypatch):
    """Grouped choices keep their numbers in order (1 2 3 under one heading, 4 5 under the
    next), and the number typed is the choice shown with it."""
    game = palio.get_game("aquileia")
    for seed in range(6):
        state = game.setup(3, seed)
        rng = random.Random(seed)
        while not state.is_over:
            choices = describe.choices(state, Translator("en"))
            groups = [choices[i]["group"] for i in in_groups(choices)]
            if len(set(groups)) > 1 and groups != [c["group"] for c in choices]:
                break
            state.apply(rng.choice(state.legal_actions()))
        else:
            continue
        break
    else:
        pytest.fail("no position with interleaved groups to check")
    tr = Translator("en")
    printed: list[str] = []
    monkeypatch.setattr(play, "say", lambda text="": printed.append(text))
    action = ask(state, tr, read=lambda _prompt: "2")
    numbers = [int(m.group(1)) for line in printed if (m := re.match(r"\s*(\d+)\. ", line))]
    assert numbers == list(range(1, len(numbers) + 1)), printed
    second = next(line for line in printed if re.match(r"\s*2\. ", line))
    label = next(c["label"] for c in describe.choices(state, tr) if c["notation"] == str(action))
    assert second.strip().startswith(f"2. {label}"), (second, label)


def test_more_bots_than_the_default_player_count_says_to_add_players():
    result = runner.invoke(app, ["play", "aquileia", "--bots", "random,random,random,random"])
    assert result.exit_code == 2 and "-p 4" in result.output, result.output
    result = runner.invoke(app, ["play", "aquileia", "--bots", "random,random,random,random",
                                 "--lang", "ja"])
    assert result.exit_code == 2 and "-p 4" in result.output and "ボット" in result.output


def test_games_lists_options_and_names_rules_documents_that_exist():
    listing = runner.invoke(app, ["games"]).output
    assert "options: nobles" in listing and "palio games <id>" in listing
    for game_id in GAMES:
        out = runner.invoke(app, ["games", game_id]).output
        line = next(line for line in out.splitlines() if line.startswith("rules: "))
        paths = [p for p in re.findall(r"(\S+\.md)", line)]
        assert paths, line
        assert all(Path(p).is_file() for p in paths), line


def test_serve_takes_a_file_path_or_says_what_a_database_url_looks_like(tmp_path):
    assert database_url(str(tmp_path / "games.db")) == f"sqlite:///{tmp_path / 'games.db'}"
    assert database_url("sqlite:///palio.db") == "sqlite:///palio.db"
    for bad in ("foo://bar", str(tmp_path / "no" / "such" / "x.db")):
        with pytest.raises(typer.BadParameter, match="postgresql"):
            database_url(bad)
    result = runner.invoke(app, ["serve", "--db", "foo://bar"])
    assert result.exit_code == 2 and "Traceback" not in result.output
    unreachable = "postgresql+psycopg://nobody:secret@127.0.0.1:9/none"
    result = runner.invoke(app, ["serve", "--db", unreachable])
    assert result.exit_code == 2 and "cannot open the database" in result.output
    assert "secret" not in result.output and "Traceback" not in result.output
