"""The reference client's own diff (clients/cargo_client/diff.py) rebuilds every state from
the server's diffs (games.frames.diffs): the cases the page's test uses
(tests/test_state_diff_js.py), the state it starts from left as it was, flags kept apart
from numbers, and every operation that does not fit refused with a DiffError."""

from __future__ import annotations

import json

import pytest
from cargo_client.diff import DiffError, apply

from tests.test_state_diff_js import _leaves, cases


def test_the_client_rebuilds_every_new_state_from_the_servers_diff():
    made = cases()
    assert len(made) > 200
    for case in made:
        old = json.loads(json.dumps(case["old"]))
        got = apply(old, json.loads(json.dumps(case["ops"])))  # as it comes off the wire
        assert got == case["new"]
        assert old == case["old"]  # left as it was
        for a, b in _leaves(got, case["new"]):
            assert type(a) is type(b)


@pytest.mark.parametrize("state,ops", [
    ({"a": 1}, {"a": 2}),                      # not a list of operations
    ({"a": 1}, [["a", 2]]),                    # a path that is not a list
    ({"a": 1}, [[["a"], 2, 3]]),               # three parts
    ({"a": 1}, [[[]]]),                        # the whole state removed
    ({"a": 1}, [[["b", "c"], 1]]),             # through a key that is not there
    ({"a": 1}, [[["a", "b"], 1]]),             # through a number
    ({"a": [1]}, [[["a", 2], 1]]),             # past the end of a list, by more than one
    ({"a": [1]}, [[["a", True], 1]]),          # a flag is not an index
    ({"a": [1]}, [[["a", 0]]]),                # a list's item removed
    ({"a": 1}, [[["b"]]]),                     # a key that is not there removed
    ({"a": {}}, [[["a", 0], 1]]),              # an object's key that is a number
])
def test_an_operation_that_does_not_fit_is_refused(state, ops):
    before = json.loads(json.dumps(state))
    with pytest.raises(DiffError):
        apply(state, ops)
    assert state == before


def test_a_list_grows_by_a_set_just_past_its_end():
    assert apply({"turns": ["a"]}, [[["turns", 1], "b"]]) == {"turns": ["a", "b"]}
    assert apply({"a": 1}, [[[], [1]]]) == [1]
