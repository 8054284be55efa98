"""The Writer every encoder writes through (``palio.core.encoding``)."""

from __future__ import annotations

import pytest

from palio.core.encoding import Layout, Writer, one_hot, one_hots, set_bits, tally


def small_layout() -> Layout:
    lay = Layout()
    lay.add("flags", 3, 1, "three flags")
    lay.add("pick", 4, 1, "one-hot")
    lay.add("slots", 6, 1, "two one-hots of 3")
    lay.add("counts", 5, 9, "tally")
    return lay


def test_sparse_writes_give_the_same_vector_as_dense_ones():
    dense = Writer(small_layout())
    dense.put("flags", [1.0, 0.0, 2.5])
    dense.put("pick", one_hot(2, 4))
    dense.put("slots", one_hots([None, 1], 3, 2))
    dense.put("counts", tally([4, 0, 4], 5))
    sparse = Writer(small_layout())
    sparse.put("flags", [1.0, 0.0, 2.5])
    sparse.hot("pick", 2)
    sparse.put("slots", [0.0, 0.0, 0.0, 0.0, 1.0], padded=True)
    sparse.tally("counts", [4, 0, 4])
    expected = [1.0, 0.0, 2.5, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 2]
    for writer in (dense, sparse):
        encoded = writer.done()
        assert encoded.dense() == expected
        assert encoded.index == [i for i, v in enumerate(expected) if v]
        assert encoded.value == [v for v in expected if v]


@pytest.mark.parametrize("write", [
    lambda w: w.hot("pick", 0),                        # a block out of order
    lambda w: w.put("flags", [1.0, 0.0]),              # the wrong size
    lambda w: w.put("flags", [0.0] * 4, padded=True),  # padded, but too long
])
def test_a_block_that_does_not_match_the_layout_is_refused(write):
    with pytest.raises(ValueError, match="layout|into"):
        write(Writer(small_layout()))


@pytest.mark.parametrize(("block", "write"), [
    ("pick", lambda w: w.hot("pick", 4)),
    ("pick", lambda w: w.hot("pick", -1)),
    ("slots", lambda w: w.hots("slots", [0, 3], 3)),
    ("slots", lambda w: w.hots("slots", [0, 0, 0], 3)),
    ("counts", lambda w: w.tally("counts", [5])),
])
def test_a_position_outside_its_block_or_slot_is_refused(block, write):
    w = Writer(small_layout())
    for earlier in small_layout().blocks:  # the blocks before it, left empty
        if earlier.name == block:
            break
        w.put(earlier.name, [0.0] * earlier.size)
    with pytest.raises(ValueError, match="position|slots"):
        write(w)


def test_an_unfinished_encoding_is_refused():
    w = Writer(small_layout())
    w.put("flags", [0.0] * 3)
    with pytest.raises(ValueError, match="stopped before block 'pick'"):
        w.done()


def test_value_bits_sparse_and_puts_write_what_put_would():
    dense = Writer(small_layout())
    dense.put("flags", [0.0, 3.0, 0.0])
    dense.put("pick", [0.0, 1.0, 0.0, 1.0])
    dense.put("slots", [0.0, 2.0, 0.0, 0.0, 0.0, 4.0])
    dense.put("counts", [0.0] * 5)
    sparse = Writer(small_layout())
    sparse.sparse("flags", [(0, 0), (1, 3)])  # a zero value is left out
    sparse.bits("pick", [3, 1, 3])
    sparse.puts(("slots", "counts"), [0, 2, 0, 0, 0, 4] + [0] * 5)
    expected = dense.done()
    got = sparse.done()
    assert (got.index, got.value) == (expected.index, expected.value)
    assert all(type(v) is float for v in got.value)
    one = Layout()
    one.add("a", 1, 9, "a count")
    one.add("b", 1, 9, "another")
    w = Writer(one)
    w.value("a", 0)
    w.value("b", 7)
    done = w.done()
    assert (done.index, done.value) == ([1], [7.0])


@pytest.mark.parametrize(("message", "write"), [
    ("position 3 of a block of 3", lambda w: w.sparse("flags", [(3, 1.0)])),
    ("positions must increase", lambda w: w.sparse("flags", [(1, 1.0), (1, 2.0)])),
    ("positions must increase", lambda w: w.sparse("flags", [(2, 1.0), (0, 2.0)])),
    ("position -1", lambda w: w.sparse("flags", [(-1, 1.0)])),
    ("position 4 of a block of 4", lambda w: (w.put("flags", [0] * 3), w.bits("pick", [0, 4]))),
    ("where the layout has 'flags'", lambda w: w.value("flags", 1.0)),  # flags holds three
    ("where the layout has 'flags'", lambda w: w.puts(("pick", "slots"), [0.0] * 10)),
    ("where the layout has 'flags'", lambda w: w.puts((), [])),
    ("wrote 3 values into flags, pick", lambda w: w.puts(("flags", "pick"), [0.0] * 3)),
])
def test_sparse_writes_outside_their_block_are_refused(message, write):
    with pytest.raises(ValueError, match=message):
        write(Writer(small_layout()))


def test_set_bits_lists_the_bits_of_a_mask_below_its_size():
    assert set_bits(0, 5) == []
    assert set_bits(0b10110, 5) == [1, 2, 4]
    assert set_bits(0b100001, 5) == [0]  # bit 5 lies past the size


def test_hots_count_ids_from_first_and_leave_empty_slots_out():
    w = Writer(small_layout())
    w.put("flags", [0.0] * 3)
    w.hot("pick", None)
    w.hots("slots", [-1, 12], 3, first=10, empty=-1)  # id 12 is position 2 of its slot
    w.mask("counts", 0b1100101)  # bits 5 and 6 lie past the block
    done = w.done()
    assert done.index == [3 + 4 + 3 + 2, 13 + 0, 13 + 2]
    assert done.value == [1.0] * 3


@pytest.mark.parametrize("write", [
    lambda w: w.hots("slots", [9, None], 3, first=10),   # below first
    lambda w: w.hots("slots", [13], 3, first=10),        # past the slot
    lambda w: w.hots("slots", [-1], 3),                  # -1 is empty only when said so
])
def test_hots_refuse_an_id_outside_the_slot(write):
    w = Writer(small_layout())
    w.put("flags", [0.0] * 3)
    w.hot("pick", None)
    with pytest.raises(ValueError, match="of a slot of 3"):
        write(w)
