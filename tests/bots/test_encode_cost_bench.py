"""benchmarks/encode_cost.py: what building a position's observation entries costs."""

from pathlib import Path

import palio
from tests.benchmark_scripts import benchmark as _script

MODELS = Path(palio.__file__).parent / "models"


def test_positions_are_distinct_copies_viewed_by_the_deciding_seat():
    encode_cost = _script("encode_cost")
    game = palio.get_game("san-gimignano")
    cases = encode_cost.positions(game, 2, 30)
    assert len(cases) == 30
    assert len({id(state) for state, _ in cases}) == 30
    assert all(seat == state.to_move for state, seat in cases)
    assert len({state.move_number for state, _ in cases}) > 10  # positions of the game, not one


def test_the_table_has_a_row_per_player_count_with_the_nonzero_entries(capsys):
    encode_cost = _script("encode_cost")
    encode_cost.main(["signorie", "--positions", "12", "--repeats", "1"])
    rows = [line.split() for line in capsys.readouterr().out.splitlines()[1:]]
    assert [(row[0], row[1]) for row in rows] == [("signorie", "2"), ("signorie", "3"), ("signorie", "4")]
    game = palio.get_game("signorie")
    for row in rows:
        cases = encode_cost.positions(game, int(row[1]), 12)
        nonzero = sum(len(game.observation_entries(s, seat).index) for s, seat in cases) / len(cases)
        assert row[-1] == f"{nonzero:.0f}"
        assert all(float(x) > 0 for x in row[2:5])


def test_search_prints_both_bots_iterations(capsys):
    encode_cost = _script("encode_cost")
    encode_cost.main(["san-gimignano", "--search", str(MODELS / "san-gimignano-2p.npz"), "--moves", "2"])
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[2] for line in lines] == ["learned:", "mcts:"]
    assert all(int(line.split()[3]) > 0 for line in lines)
