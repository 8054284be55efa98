"""Events pickle in the form earlier versions wrote (OpenSpiel's serialize pickles states)."""

import pickle
from dataclasses import fields

import palio.games as registry
from palio.core.events import Event

# pickle.dumps(Event("x", 1, {"a": 1}, {"b": 2}, frozenset({1}))) as written by the frozen
# Event of commit 4b9c43a
EARLIER = (b"\x80\x04\x95D\x00\x00\x00\x00\x00\x00\x00\x8c\x11palio.core.events\x94\x8c\x05"
           b"Event\x94\x93\x94)\x81\x94]\x94(\x8c\x01x\x94K\x01}\x94\x8c\x01a\x94K\x01s}\x94"
           b"\x8c\x01b\x94K\x02s(K\x01\x91\x94eb.")


def test_an_event_pickled_by_an_earlier_version_loads():
    event = pickle.loads(EARLIER)
    assert event.full() == {"kind": "x", "seat": 1, "a": 1, "b": 2}
    assert event.audience == frozenset({1})


def test_an_event_pickles_as_earlier_versions_did():
    event = Event("x", 1, {"a": 1}, {"b": 2}, frozenset({1}))
    assert pickle.dumps(event, protocol=4) == EARLIER


def test_a_pickled_game_in_progress_plays_on_alike():
    game = registry.get("troyes")
    state = game.setup(2, 5)
    for _ in range(40):
        state.apply_unchecked(state.legal_actions()[-1])
    twin = pickle.loads(pickle.dumps(state))
    assert [e.full() for e in twin.log.to_list()] == [e.full() for e in state.log.to_list()]
    for _ in range(40):
        action = state.legal_actions()[0]
        assert twin.legal_actions() == state.legal_actions()
        state.apply_unchecked(action)
        twin.apply_unchecked(action)
    assert twin.observe(0) == state.observe(0)


def test_emit_makes_the_event_its_class_would():
    """``State.emit`` fills an ``Event`` without calling the class (for speed): every field
    the class has must be set, and alike (a field added to ``Event`` fails here until emit
    sets it too)."""
    state = registry.get("troyes").setup(2, 5)
    start = len(state.log.to_list())
    state.emit("x", 1, secret={"b": 2}, audience={1}, a=1)
    state.emit("y")
    made = state.log.to_list()[start:]
    expected = [Event("x", 1, {"a": 1}, {"b": 2}, frozenset({1})), Event("y")]
    names = [f.name for f in fields(Event)]
    for got, want in zip(made, expected, strict=True):
        # a slot left unset raises AttributeError here
        assert [getattr(got, n) for n in names] == [getattr(want, n) for n in names]
