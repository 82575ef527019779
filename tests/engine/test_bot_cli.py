"""`python -m engine bot --level L --seed S [FILE]` (notation.md) and `tournament`."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from engine import Game
from engine.cli import main
from tests.engine.support import REPO

RECORD = '[Size "6"]\n[Rules "0.92"]\n[Orange "CargoBot Hard"]\nc d c d c d  # opening\n'


def run_main(capsys, args: list[str]) -> tuple[int, dict]:
    code = main(args)
    return code, json.loads(capsys.readouterr().out)


def write(tmp_path, text: str) -> str:
    path = tmp_path / "game.txt"
    path.write_text(text, encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_it_prints_a_legal_whole_turn(capsys, tmp_path, level: str) -> None:
    code, out = run_main(capsys, ["bot", "--level", level, "--seed", "3",
                                  write(tmp_path, RECORD)])
    assert code == 0 and list(out) == ["turn"]
    game = Game.from_record(RECORD)
    game.play(out["turn"])  # legal, or this raises


def test_it_unloads_in_the_same_token(capsys, tmp_path) -> None:
    # Blue (no cards left) has a1 a2 a3 and drops a4: an I, worth 6 and a Gold chit.
    record = '[Start "...../...../B..../BO.../BO... b - SLPDR - - - 0 0 5 0.92"]\n'
    code, out = run_main(capsys, ["bot", "--level", "medium", "--seed", "1",
                                  write(tmp_path, record)])
    assert code == 0 and out == {"turn": "a+a1a2a3a4"}


def test_it_reads_standard_input() -> None:
    out = subprocess.run([sys.executable, "-m", "engine", "bot", "--level", "easy", "--seed",
                          "5"], cwd=REPO, input=RECORD.encode(), capture_output=True,
                         timeout=60)
    assert out.returncode == 0
    assert set(json.loads(out.stdout)) == {"turn"}


@pytest.mark.parametrize("record,at,words", [
    ('[Size "6"]\nc d zz\n', 2, "zz"),
    ('[Size "9"]\n', None, "size"),
    ('[Size "6"]\nc resign\n', None, "resigned"),
    ('[Size "5"]\n[Start "BOBOB/OBOBO/BOBOB/OBOBO/BOBOB b - - - - - 0 0 0 0.92"]\n', None,
     "over"),
    ('[Size "5"]\n[Goal "unload:I"]\n[Turns "2"]\n', None, "puzzle"),
])
def test_bad_input_exits_2_with_an_error(capsys, tmp_path, record: str, at, words: str) -> None:
    code, out = run_main(capsys, ["bot", "--level", "easy", "--seed", "1",
                                  write(tmp_path, record)])
    assert code == 2
    assert out["at"] == at and words in out["error"].lower()


@pytest.mark.parametrize("args", [
    ["bot", "--level", "expert", "--seed", "1"],
    ["bot", "--level", "easy"],
    ["bot", "--level", "easy", "--seed", "x"],
])
def test_bad_arguments_exit_2(capsys, args: list[str]) -> None:
    code, out = run_main(capsys, args)
    assert code == 2 and out["at"] is None and "argument" in out["error"]


def test_a_missing_file_is_an_error(capsys, tmp_path) -> None:
    code, out = run_main(capsys, ["bot", "--level", "easy", "--seed", "1",
                                  str(tmp_path / "nope.txt")])
    assert code == 2 and "cannot read" in out["error"]


def test_the_tournament_prints_win_rates_and_move_times(capsys) -> None:
    code = main(["tournament", "--pairings", "easy-random", "--sizes", "5", "--games", "2"])
    text = capsys.readouterr().out
    assert code == 0
    assert "| easy-random | 5×5 | 2 |" in text and "| easy | 5×5 |" in text


def test_the_tournament_rejects_a_bad_pairing(capsys) -> None:
    code, out = run_main(capsys, ["tournament", "--pairings", "easy-expert"])
    assert code == 2 and "pairing" in out["error"]


def test_wilson_interval() -> None:
    from engine.tournament import wilson

    lo, hi = wilson(90, 100)
    assert round(lo, 3) == 0.826 and round(hi, 3) == 0.945
    assert wilson(0, 0) == (0.0, 1.0)
