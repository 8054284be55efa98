"""The palio command: autoplay, a person at the terminal, records and replays."""

import json
import re
import subprocess
import sys

from typer.testing import CliRunner

from palio.cli import app

runner = CliRunner()


def test_autoplay_prints_the_log_and_final_scores(tmp_path):
    record = tmp_path / "game.json"
    result = runner.invoke(
        app, ["play", "san-gimignano", "--bots", "random,random", "--seed", "1", "--record", str(record),
              "--lang", "en"]
    )
    assert result.exit_code == 0, result.output
    assert "game over after" in result.output and "Score breakdown:" in result.output
    # the log in words, bots named as the browser names them (never "random", their id)
    assert "Random bot 1 chose to buy stone" in result.output
    assert "random 1" not in result.output
    assert "Seat" not in result.output and "[" not in result.output
    data = json.loads(record.read_text())
    assert data["game"] == "san-gimignano" and data["seed"] == 1 and data["result"]["scores"]
    replay = runner.invoke(app, ["replay", str(record), "--lang", "en"])
    assert replay.exit_code == 0 and "Record verified" in replay.output


def test_a_tampered_record_is_refused_with_a_clear_message(tmp_path):
    record = tmp_path / "game.json"
    runner.invoke(app, ["play", "san-gimignano", "--bots", "random,random", "--seed", "3",
                        "--record", str(record), "-q"])
    data = json.loads(record.read_text())
    data["result"]["scores"] = [999, 0]
    record.write_text(json.dumps(data))
    result = runner.invoke(app, ["replay", str(record)])
    assert result.exit_code == 2 and "replay gives" in result.output
    data["actions"][0] = "build 5,5,5,5,5,5"
    record.write_text(json.dumps(data))
    result = runner.invoke(app, ["replay", str(record)])
    assert result.exit_code == 2 and "move 1" in result.output
    record.write_text("{not json")
    assert "not a JSON game record" in runner.invoke(app, ["replay", str(record)]).output


def test_a_person_plays_and_wrong_entries_are_explained():
    typed = "fly away\n999\nbuild 9,9\ndeclare\nhelp\nhelp 1\n" + "pass\n" * 200
    result = runner.invoke(app, ["play", "san-gimignano", "--seed", "4", "--bots", "random",
                                 "--lang", "en"], input=typed)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "That is not a move of this game. Moves now look like: " in out
    assert "cannot read" not in out  # the parser's own words stay out
    assert "Choose 1-3." in out  # a number out of range
    assert out.count("Moves now look like: buy, exchange, pass") == 2  # build 9,9 too
    # a move that parses but is not legal now: the rules' reason
    assert "You need 4 completed towers to declare the end; you have 0." in out
    assert "Commands: help" in out and "(or type: pass)" in out  # help lists the notation
    assert "1. Buy stone: take 2 cards — Take 2 cards" in out  # help 1 explains choice 1
    assert "Your turn: choose one action" in out and "hand, 5 of 7: 5, 7, 7, 9, 10" in out
    assert "You chose to buy stone" not in out and "You passed" in out  # "You" for the person
    assert "game over after" in out and "Score breakdown:" in out


def test_the_terminal_speaks_japanese_with_lang_or_the_locale():
    typed = "99\ndeclare\n" + "pass\n" * 200
    result = runner.invoke(app, ["play", "san-gimignano", "--seed", "4", "--bots", "random",
                                 "--lang", "ja"], input=typed)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "あなたの番です。アクションを1つ選んでください" in out and "石材の購入：2枚取る" in out
    assert "1〜3から選んでください。" in out
    assert "終了宣言には完成した塔が4つ必要です（現在0つ）。" in out
    assert "あなたはパスしました" in out and "得点の内訳" in out and "完成ボーナス" in out
    by_locale = runner.invoke(app, ["play", "san-gimignano", "--seed", "4", "--bots", "random"],
                              input="pass\n" * 200, env={"LANG": "ja_JP.UTF-8", "LC_ALL": ""})
    assert "あなたの番です" in by_locale.output
    english = runner.invoke(app, ["play", "san-gimignano", "--seed", "4", "--bots", "random"],
                            input="pass\n" * 200, env={"LANG": "C", "LC_ALL": ""})
    assert "Your turn" in english.output
    bad = runner.invoke(app, ["play", "san-gimignano", "--lang", "fr"])
    assert bad.exit_code == 2 and "--lang must be one of en, ja" in bad.output


def test_quit_leaves_the_game():
    result = runner.invoke(app, ["play", "tiletum", "-p", "2", "--seed", "1", "--bots", "random",
                                 "--lang", "en"], input="quit\n")
    assert result.exit_code == 0 and "Bye." in result.output  # leaving is not an error
    assert "Take a die from the wheel" in result.output  # the prompt, as the board's last line


def test_text_that_looks_like_rich_markup_is_printed_as_it_is(tmp_path):
    """Names and game text reach the terminal with markup off: "[b]" and "[completed]" stay."""
    record = tmp_path / "game.json"
    runner.invoke(app, ["play", "san-gimignano", "--bots", "random,random", "--seed", "2",
                        "--record", str(record), "-q"])
    data = json.loads(record.read_text())
    data["seats"] = ["[b]Ann[/b]", "[completed]"]
    record.write_text(json.dumps(data))
    result = runner.invoke(app, ["replay", str(record), "--log", "--lang", "en"])
    assert result.exit_code == 0, result.output
    assert "[b]Ann[/b] chose to" in result.output and "[completed] ·" in result.output


def test_replay_log_is_in_words_in_either_language(tmp_path):
    record = tmp_path / "game.json"
    runner.invoke(app, ["play", "tiletum", "-p", "2", "--bots", "random,greedy", "--seed", "5",
                        "--record", str(record), "-q"])
    english = runner.invoke(app, ["replay", str(record), "--log", "--lang", "en"]).output
    assert "Random bot took the" in english and "Greedy bot" in english
    assert "Final scoring." in english and "greedy" not in english
    assert "Starting VP" in english and "Record verified" in english
    japanese = runner.invoke(app, ["replay", str(record), "--log", "--lang", "ja"]).output
    assert "ボット（ランダム）" in japanese and "greedy" not in japanese and "random" not in japanese
    assert "最終得点計算。" in japanese and "初期勝利点" in japanese and "記録を検証しました" in japanese


def test_bad_arguments_get_clear_errors():
    result = runner.invoke(app, ["play", "no-such-game"])
    assert result.exit_code == 2 and "unknown game" in result.output
    result = runner.invoke(app, ["play", "san-gimignano", "-p", "3"])
    assert result.exit_code == 2 and "2 players" in result.output
    result = runner.invoke(app, ["play", "san-gimignano", "--bots", "nobody,random"])
    assert result.exit_code == 2 and "unknown bot" in result.output


def test_games_lists_games_and_components():
    result = runner.invoke(app, ["games"])
    assert "san-gimignano" in result.output
    result = runner.invoke(app, ["games", "san-gimignano", "--components"])
    assert "option nobles" in result.output and "No provisional" in result.output


def test_the_console_script_runs_as_a_real_process():
    result = subprocess.run(
        [sys.executable, "-m", "palio", "play", "san-gimignano", "--bots", "greedy,random", "-q", "--seed", "2"],
        capture_output=True, text=True, timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert "game over" in result.stdout


def test_a_corrected_components_file_is_checked_and_played(tmp_path):
    exported = tmp_path / "tiletum.json"
    result = runner.invoke(app, ["games", "tiletum", "--export-components", str(exported)])
    assert result.exit_code == 0, result.output
    data = json.loads(exported.read_text())
    data["fairs"]["board_vp"] = [2, 3, 3, 5]
    exported.write_text(json.dumps(data))
    result = runner.invoke(app, ["games", "tiletum", "--components-file", str(exported)])
    assert result.exit_code == 0 and "is valid" in result.output, result.output
    result = runner.invoke(app, ["play", "tiletum", "--components-file", str(exported),
                                 "--bots", "random,random", "--seed", "2", "-q"])
    assert result.exit_code == 0 and "game over after" in result.output, result.output


def test_a_broken_components_file_is_refused_with_a_clear_message(tmp_path):
    broken = tmp_path / "broken.json"
    broken.write_text('{"no_such_section": {}}')
    result = runner.invoke(app, ["play", "tiletum", "--components-file", str(broken),
                                 "--bots", "random,random"])
    assert result.exit_code == 2 and "unknown section" in result.output
    broken.write_text("{not json")
    result = runner.invoke(app, ["games", "tiletum", "--components-file", str(broken)])
    assert result.exit_code == 2 and "not valid JSON" in result.output
    result = runner.invoke(app, ["play", "san-gimignano", "--components-file", str(broken),
                                 "--bots", "random,random"])
    assert result.exit_code == 2 and "no component data" in result.output


def test_the_person_is_you_in_the_second_person():
    """Seat names "You": log lines about that seat say "You pass", never "You passes"."""
    result = runner.invoke(app, ["play", "aquileia", "-p", "3", "--seed", "3", "--bots", "random,random",
                                 "--lang", "en"], input="1\n" * 400)
    assert result.exit_code == 0, result.output
    assert "You place a henchman on" in result.output
    assert "You places" not in result.output and "of You" not in result.output


def test_a_missing_or_unreadable_model_file_is_refused_before_the_game_starts(tmp_path):
    """As palio simulate does: one line, exit 2, and no board shown first (issue 35)."""
    broken = tmp_path / "broken.npz"
    broken.write_bytes(b"not a model")
    for path in (tmp_path / "missing.npz", broken):
        result = runner.invoke(app, ["play", "san-gimignano", "--seed", "1", "--bots",
                                     f"learned:model={path}", "--lang", "en"], input="1\n" * 50)
        assert result.exit_code == 2, result.output
        lines = result.output.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error:") and str(path) in lines[0], lines


def test_quit_in_a_recorded_game_saves_the_record_so_far(tmp_path):
    record = tmp_path / "game.json"
    result = runner.invoke(app, ["play", "san-gimignano", "--seed", "4", "--bots", "random",
                                 "--record", str(record), "--lang", "en"], input="1\nquit\n")
    assert result.exit_code == 0 and "Bye." in result.output
    saved = json.loads(record.read_text())
    assert saved.get("result") is None and len(saved["actions"]) >= 1
    replay = runner.invoke(app, ["replay", str(record), "--lang", "en"])
    assert replay.exit_code == 0, replay.output


def test_hint_lists_choices_in_the_order_of_the_values_it_prints(monkeypatch):
    import palio.review
    from palio.cli.play import show_hint
    from palio.core.i18n import Translator

    def fake_hint(state, seat, seed, tr):  # by visits, as the search gives them
        return {"choices": [{"label": label, "value": value, "percent": round(100 * value),
                             "reason": label.lower(), "line": ""}
                            for label, value in (("A", 0.40), ("B", 0.55), ("C", 0.10))]}

    monkeypatch.setattr(palio.review, "hint", fake_hint)
    printed = []
    monkeypatch.setattr("palio.cli.play.say", printed.append)
    state = palio.new_game("san-gimignano", players=2, seed=1)
    show_hint(state, Translator("en"))
    values = [int(v) for line in printed[1:] for v in re.findall(r"about (\d+)%", line)]
    assert values == [55, 40, 10] and "B" in printed[1]


def test_games_speaks_japanese_with_lang_or_the_locale():
    for args, env in ((["games", "--lang", "ja"], {}), (["games"], {"LANG": "ja_JP.UTF-8"})):
        out = runner.invoke(app, args, env={"LC_ALL": "", "LC_MESSAGES": "", **env}).output
        assert "アクイレイア" in out and "オプション" in out and "players" not in out, out
    detail = runner.invoke(app, ["games", "aquileia", "--lang", "ja"]).output
    assert "オプション tiebreaker_ends" in detail and "出版社の英語版ルール" in detail, detail
    english = runner.invoke(app, ["games", "aquileia", "--lang", "en"]).output
    assert "option tiebreaker_ends" in english and "default: off" in english, english
