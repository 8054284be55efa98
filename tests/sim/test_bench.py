"""``palio bench``: the figures are measured and printed for any game; speed is never asserted.
Its windows and verdicts go by CPU time, which a clock injected here stands in for."""

import json

from typer.testing import CliRunner

import palio.games as registry
from palio.bots.network import shipped_model
from palio.cli import app
from palio.sim import bench

runner = CliRunner()


def test_bench_prints_and_saves_the_figures_of_one_game(tmp_path):
    path = tmp_path / "bench.json"
    result = runner.invoke(app, ["bench", "san-gimignano", "--seconds", "0.2", "--json", str(path)])
    assert result.exit_code == 0, result.output
    for heading in ("decisions/CPU-s", "games/CPU-s", "copy µs", "mcts it/CPU-s", "x ttt",
                    "CPU share", "san-gimignano", "CPU-s per figure"):
        assert heading in result.output
    assert "OpenSpiel yardstick" in result.output
    data = json.loads(path.read_text())
    assert "process_time" in data["clock"]
    (figures,) = data["games"]
    assert figures["game"] == "san-gimignano" and figures["players"] == 2
    assert figures["games"] >= 1 and figures["decisions"] > figures["games"]
    assert figures["cpu_seconds"] >= 0.2  # the window is CPU time
    assert figures["copies"] > 0 and figures["mcts_iterations"] > 0
    assert figures["mcts_iterations_per_cpu_s"] > 0
    verdicts = {"decisions_per_cpu_s", "games_per_cpu_s"}
    if data["openspiel_yardstick"]["available"]:
        verdicts.add("x_yardstick")
        assert figures["x_yardstick"] > 0 and figures["yardstick_aim"] == bench.YARDSTICK_AIM
    assert set(figures["aims_met"]) == verdicts
    # the learned bot and its network, measured where a model ships for the game
    assert "learned it/CPU-s" in result.output and "net µs" in result.output
    if shipped_model("san-gimignano", 2) is None:
        assert figures["learned_iterations_per_cpu_s"] is None
    else:
        assert figures["learned_iterations_per_cpu_s"] > 0 and figures["network_us"] > 0
        assert figures["features_us"] > 0


def test_bench_measures_every_player_count_unless_one_is_named(tmp_path):
    path = tmp_path / "bench.json"
    result = runner.invoke(app, ["bench", "signorie", "--seconds", "0.05", "--json", str(path)])
    assert result.exit_code == 0, result.output
    counts = [f["players"] for f in json.loads(path.read_text())["games"]]
    assert counts == [2, 3, 4]
    result = runner.invoke(app, ["bench", "signorie", "-p", "3", "--seconds", "0.05",
                                 "--json", str(path)])
    assert [f["players"] for f in json.loads(path.read_text())["games"]] == [3]


def test_bench_refuses_bad_arguments_before_measuring():
    for args, message in (
        (["bench", "no-such-game"], "unknown game"),
        (["bench", "san-gimignano", "--players", "4"], "2 players"),
        (["bench", "san-gimignano", "--seconds", "0"], "--seconds"),
    ):
        result = runner.invoke(app, args)
        assert result.exit_code == 2 and message in result.output, result.output


def test_the_install_hint_survives_rich_markup():
    from rich.console import Console

    from palio.cli.bench import _yardstick_line
    from palio.sim.bench import Yardstick

    console = Console(record=True, width=200)
    missing = Yardstick("python_tic_tac_toe", available=False,
                        note="open_spiel is not installed (pip install 'palio[openspiel]')")
    console.print(_yardstick_line(missing))
    assert "pip install 'palio[openspiel]'" in console.export_text()


class StepClock:
    """A stand-in CPU clock that moves by ``step`` seconds each time it is read."""

    def __init__(self, step: float) -> None:
        self.now = 0.0
        self.step = step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def test_playouts_stop_after_their_cpu_time_whatever_the_wall_clock_says():
    game = registry.get("san-gimignano")
    # the clock is read once at the start and once per game: 1 CPU-second a read, 3 to play
    games, decisions, _wall, cpu = bench.random_playouts(game, 2, 3.0, seed=1, clock=StepClock(1.0))
    assert (games, cpu) == (3, 3.0) and decisions > games
    # a clock that moves half as fast (a process given less of a core): twice the games
    games, _, _, cpu = bench.random_playouts(game, 2, 3.0, seed=1, clock=StepClock(0.5))
    assert (games, cpu) == (6, 3.0)


def test_the_search_window_is_cpu_time_too():
    game = registry.get("san-gimignano")
    positions = bench.mid_game_positions(game, 2, seed=1, count=2)
    # each search reads the clock twice (0.25 apart): 0.25 CPU-s a decision, so 4 in 1 CPU-s
    iterations, decisions, cpu = bench.mcts_speed(positions, 1.0, seed=1, iterations=5,
                                                  clock=StepClock(0.25))
    assert (decisions, cpu, iterations) == (4, 1.0, 20)


def _figures(game: str, players: int, *, per_cpu_s: float, per_s: float) -> bench.GameFigures:
    """Figures of a run that got a share of a core: fast per CPU-second, slow on the wall."""
    return bench.GameFigures(game=game, players=players, seconds=1.0,
                             decisions_per_cpu_s=per_cpu_s, games_per_cpu_s=per_cpu_s / 250,
                             decisions_per_s=per_s, games_per_s=per_s / 250)


def test_verdicts_go_by_the_rates_per_cpu_second_not_the_wall_clock():
    aim = bench.AIMS["troyes"]
    # a fifth of a core: the wall-clock rates fall far below the aims, the per-CPU ones meet them
    loaded = _figures("troyes", aim.players, per_cpu_s=2 * aim.decisions_per_cpu_s,
                      per_s=0.2 * aim.decisions_per_cpu_s)
    bench.judge(loaded)
    assert loaded.aims_met == {"decisions_per_cpu_s": True, "games_per_cpu_s": True}
    # a whole core that does too little per CPU-second: not met, however the wall clock ran
    slow = _figures("troyes", aim.players, per_cpu_s=0.5 * aim.decisions_per_cpu_s,
                    per_s=0.5 * aim.decisions_per_cpu_s)
    bench.judge(slow)
    assert slow.aims_met == {"decisions_per_cpu_s": False, "games_per_cpu_s": False}


def test_the_yardstick_verdict_divides_rates_per_cpu_second_at_every_player_count():
    for players, per_cpu_s, met in ((2, 61_000, True), (3, 59_000, False)):
        figures = _figures("troyes", players, per_cpu_s=per_cpu_s, per_s=1_000)
        figures.yardstick_decisions_per_cpu_s = 40_000
        bench.judge(figures)
        assert figures.yardstick_aim == 1.5  # issue 34's aim for Troyes
        assert figures.x_yardstick == per_cpu_s / 40_000
        assert figures.aims_met == {"x_yardstick": met}  # no aim of its own at 2 or 3 players
    other = _figures("signorie", 2, per_cpu_s=41_000, per_s=1_000)
    other.yardstick_decisions_per_cpu_s = 40_000
    bench.judge(other)
    assert other.yardstick_aim == 1.0 and other.aims_met == {"x_yardstick": True}
    # without the yardstick there is no ratio to judge
    alone = _figures("signorie", 2, per_cpu_s=41_000, per_s=1_000)
    bench.judge(alone)
    assert alone.x_yardstick is None and alone.aims_met == {}


def test_the_yardstick_runs_in_slices_between_the_games_playouts():
    game = registry.get("san-gimignano")
    clock = StepClock(1.0)
    calls = []

    def yardstick(seconds, seed, run_clock):
        assert run_clock is clock  # the same CPU clock as the game's
        calls.append((seconds, clock.now))
        return bench.Yardstick("fake", True, games=1, decisions=100, decisions_per_cpu_s=50.0)

    games, decisions, _wall, cpu, rate = bench.playouts_beside(game, 2, 8.0, 1, yardstick, clock)
    # four slices of 2 CPU-s of playouts (two games each at 1 CPU-s a game), a yardstick slice
    # of 2 CPU-s after each, read off the clock where the game's slice ended
    assert bench.YARDSTICK_SLICES == 4 and (games, cpu) == (8, 8.0)
    assert [seconds for seconds, _ in calls] == [2.0] * 4
    assert [now for _, now in calls] == [3.0, 6.0, 9.0, 12.0]  # after each slice of the game's
    assert rate == 50.0  # 400 decisions in 8 CPU-s of the yardstick's own
    # without a yardstick: one slice, no ratio
    assert bench.playouts_beside(game, 2, 2.0, 1, None, StepClock(1.0))[4] is None
