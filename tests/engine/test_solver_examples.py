"""Every case of shared/spec/examples/solve.jsonl through ``python -m engine solve``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine.game import Game
from engine.notation import format_record, parse_record

REPO = Path(__file__).resolve().parents[2]
SOLVE = (REPO / ".." / "shared" / "spec" / "examples" / "solve.jsonl").resolve()


def _cases():
    if not SOLVE.exists():
        if os.environ.get("CI") == "true":
            pytest.fail(f"{SOLVE} is missing (CI lays shared/ beside the repository)")
        pytest.skip(f"{SOLVE} is missing: shared/ is not beside the repository")
    return [json.loads(line) for line in SOLVE.read_text().splitlines() if line.strip()]


def test_it_solves_every_spec_example():
    for case in _cases():
        out = subprocess.run([sys.executable, "-m", "engine", "solve"], input=case["record"],
                             cwd=REPO, capture_output=True, text=True, timeout=60)
        assert out.returncode == 0, (case["name"], out.stdout, out.stderr)
        got = json.loads(out.stdout)
        assert set(got) == {"solvable", "fewest", "line", "needs_card", "valid"}
        for key in ("solvable", "fewest", "needs_card", "valid"):
            assert got[key] == case["expect"][key], (case["name"], key, got)
        if got["solvable"]:
            rec = parse_record(case["record"])
            game = Game(rec.start, rec.goal, rec.limit)
            for token in got["line"]:
                game.play(token)
            assert game.solved and game.ply == got["fewest"], case["name"]
            # The line also replays as a record through the command line.
            text = format_record(rec.headers, got["line"])
            again = subprocess.run([sys.executable, "-m", "engine", "replay"], input=text,
                                   cwd=REPO, capture_output=True, text=True, timeout=60)
            assert json.loads(again.stdout)["result"]["winner"] == "blue", case["name"]
        else:
            assert got["line"] is None and got["fewest"] is None
