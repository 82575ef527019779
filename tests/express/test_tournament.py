"""The tournament and balance commands: seats rotated, reports, CPU times, errors."""

from __future__ import annotations

import json

import pytest

from express.tournament import _turn_kinds, balance_report, run, run_selfplay, wilson
from tests.express.support import run_cli


def test_a_pairing_rotates_the_seat_of_a_over_games_that_share_a_setup() -> None:
    results = run(["easy-random"], 3, 3, seed=2)
    assert [r.a_seat for r in results] == [1, 2, 3]
    assert [r.levels for r in results] == [("easy", "random", "random"),
                                           ("random", "easy", "random"),
                                           ("random", "random", "easy")]
    assert len({r.first for r in results}) == 1  # one setup seed, so one stationmaster
    assert all(r.cpu["easy"] and "random" not in r.cpu for r in results)


def test_the_tournament_command_prints_win_rates_with_intervals_and_cpu_times() -> None:
    out = run_cli(["tournament", "--pairings", "easy-random", "--players", "2",
                   "--games", "2", "--seed", "3"])
    assert out.returncode == 0, out.stdout
    text = out.stdout.decode()
    assert text.startswith("# python -m express tournament --pairings easy-random --players 2")
    assert "| easy-random | 2 | 2 |" in text and "95% CI (Wilson)" in text
    assert "| easy |" in text and "median CPU s" in text


def test_the_balance_report_counts_rounds_caps_seats_actions_characters_contracts() -> None:
    results = run_selfplay("easy", 2, 3, seed=4)
    text = balance_report(results)
    for line in ("games: 3, seats: 2", "rounds per game", "reached round 30",
                 "position 1", "seat 2", "scores (all seats)", "character picks",
                 "contracts fulfilled per game"):
        assert line in text
    turns = sum(sum(v for k, v in r.actions.items()
                    if k not in ("special attach ^", "driver step *", "fulfil f"))
                for r in results)
    assert turns == sum(3 * 2 * r.rounds for r in results)  # one action kind per turn


@pytest.mark.parametrize(("token", "kinds"), [
    ("A3:^.<<<", ["special attach ^", "none"]),
    ("C5:>>t<<.d3.f11", ["fulfil f", "uncouple d"]),
    ("D:>>*.a1", ["driver step *", "attach a"]),
    ("B4:~", ["lost"]),
    ("-:~", ["lost"]),
    ("A2:>.f06.s1", ["fulfil f", "sign s"]),
    ("A2:>.o3=rgb", ["reorder o"]),
])
def test_each_turn_counts_one_action_kind_and_its_extras(token: str, kinds: list[str]) -> None:
    assert sorted(_turn_kinds(token)) == sorted(kinds)


def test_wilson() -> None:
    lo, hi = wilson(55, 100)
    assert 0.45 < lo < 0.46 and 0.64 < hi < 0.65


@pytest.mark.parametrize("args", [
    ["tournament", "--pairings", "easy-expert"],
    ["tournament", "--pairings", "easy"],
    ["tournament", "--players", "5"],
    ["tournament", "--games", "0"],
    ["tournament", "--jobs", "x"],
    ["balance", "--level", "random"],
    ["balance", "--seed", "-3"],
])
def test_bad_arguments_exit_2_with_json(args: list[str]) -> None:
    out = run_cli(args)
    assert out.returncode == 2
    assert set(json.loads(out.stdout)) == {"error", "at"}


def test_first_goes_on_with_a_stopped_run_game_for_game(tmp_path) -> None:
    """A game's deal and seats follow from its index and the seed alone: games 1–2 of a
    run started at ``--first 1`` are games 1–2 of the whole run."""
    whole = run(["easy-random"], 2, 3, seed=5)
    rest = run(["easy-random"], 2, 3, seed=5, first=1)

    def game(r) -> dict:  # type: ignore[no-untyped-def]
        return {k: v for k, v in json.loads(r.to_json()).items() if k != "cpu"}

    assert [game(r) for r in rest] == [game(r) for r in whole[1:]]
    save = tmp_path / "rest.jsonl"
    out = run_cli(["tournament", "--pairings", "easy-random", "--players", "2",
                   "--games", "3", "--first", "2", "--seed", "5", "--save", str(save)])
    assert out.returncode == 0, out.stdout
    assert "--games 3 --first 2 --seed 5" in out.stdout.decode()
    assert [json.loads(line)["index"] for line in save.read_text().splitlines()] == [2]
    bad = run_cli(["tournament", "--pairings", "easy-random", "--games", "3", "--first", "3"])
    assert bad.returncode == 2 and "--first" in json.loads(bad.stdout)["error"]
