"""The page applies the server's diffs of a state (issue #45): cases made by
games.frames.diffs (nulls, lists that grow, shrink or change in place, nested objects,
keys added and removed, the whole state replaced) are applied by static/js/live/diff.js
with node, which must rebuild each new state exactly. Runs tests/js/state_diff.mjs;
skipped without node."""

import json
import random
import shutil
import subprocess
from pathlib import Path

import pytest

from games.frames import diffs

ROOT = Path(__file__).resolve().parent.parent


def cases():
    out = []
    pairs = [
        ({"a": 1, "b": None}, {"a": None, "b": 1}),
        ({"a": [1, 2, 3]}, {"a": [1, 2]}),
        ({"a": [1, 2]}, {"a": [1, 2, 3]}),
        ({"a": [[1], 2]}, {"a": [[1], 2, [3], None]}),
        ({"a": []}, {"a": [None]}),
        ({"a": {"b": {"c": [None, {"d": 1}]}}}, {"a": {"b": {"c": [None, {"d": 2, "e": []}]}}}),
        ({"log": [1], "x": 1}, {"x": 2}),
        ({"06": {"cars": "rb"}, "10": 1}, {"06": {"cars": "rbg"}}),
        ({"a": 1}, [1, 2]),
        ({"a": True}, {"a": 1}),
        ({"a": 0}, {"a": False}),
        ({"a": [{"x": i} for i in range(10)]}, {"a": [{"x": i + 1} for i in range(10)]}),
        ({"a/b": {"~": 1}}, {"a/b": {"~": 2}}),
        ({"a": [True, 0], "c": 1}, {"a": [0, True], "c": True, "d": 0}),
        ({"a": [1.5, 2]}, {"a": [1.5, 2.5]}),
    ]
    rng = random.Random(45)
    for _ in range(200):
        pairs.append((_value(rng, 4), _value(rng, 4)))
    for old, new in pairs:
        out.append({"old": old, "new": new, "ops": diffs.diff(old, new)})
    return out


def _value(rng, depth):
    pick = rng.randrange(8 if depth else 4)
    if pick == 0:
        return None
    if pick == 1:  # flags and numbers never share a place in a state (games.frames.diffs)
        return rng.choice([True, False, 0.5])
    if pick == 2:
        return rng.randrange(-3, 4)
    if pick == 3:
        return rng.choice(["", "a", "b"])
    if pick < 6:
        return [_value(rng, depth - 1) for _ in range(rng.randrange(4))]
    return {rng.choice("abcde"): _value(rng, depth - 1) for _ in range(rng.randrange(5))}


def test_the_server_applies_its_own_diffs():
    for case in cases():
        old = json.loads(json.dumps(case["old"]))
        assert diffs.apply(old, case["ops"]) == case["new"]
        assert old == case["old"]  # left as it was
        for a, b in _leaves(diffs.apply(case["old"], case["ops"]), case["new"]):
            assert type(a) is type(b)  # True is not 1, 0 is not False


def _leaves(a, b):
    if isinstance(a, dict):
        for key in a:
            yield from _leaves(a[key], b[key])
    elif isinstance(a, list):
        for x, y in zip(a, b, strict=True):
            yield from _leaves(x, y)
    else:
        yield a, b


def test_a_part_whose_operations_are_longer_is_set_whole():
    ops = diffs.diff({"a": [{"x": i} for i in range(10)]}, {"a": [{"x": i + 1} for i in range(10)]})
    assert ops == [[["a"], [{"x": i + 1} for i in range(10)]]]
    assert diffs.diff({"a": 1, "b": [1, 2]}, {"a": 1, "b": [1, 3]}) == [[["b", 1], 3]]
    assert diffs.diff({"a": 1}, {"a": 1}) == []
    # A list grown at its end: its new items appended (Cargo Connect's `turns`).
    assert diffs.diff({"t": ["a", "b"]}, {"t": ["a", "b", "c"]}) == [[["t", 2], "c"]]
    assert diffs.diff({"t": [False]}, {"t": [1, 2]}) == [[["t"], [1, 2]]]
    # Where two values differ themselves, a flag is not a number; inside lists or objects
    # otherwise equal, Python's `==` is used, which takes True for 1 (no state of the site
    # puts both in one place: documented in games.frames.diffs).
    assert diffs.diff({"a": True}, {"a": 1}) == [[["a"], 1]]
    assert diffs.diff({"a": [True]}, {"a": [1]}) == []


@pytest.mark.skipif(shutil.which("node") is None, reason="no node on PATH")
def test_the_page_applies_the_servers_diffs(tmp_path):
    (tmp_path / "diff.js").write_text((ROOT / "static/js/live/diff.js").read_text())
    (tmp_path / "package.json").write_text('{"type": "module"}')
    (tmp_path / "cases.json").write_text(json.dumps(cases()))
    shutil.copy(ROOT / "tests/js/state_diff.mjs", tmp_path / "run.mjs")
    done = subprocess.run(["node", str(tmp_path / "run.mjs")], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.strip() == "ok"
