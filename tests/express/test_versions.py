"""Rules versions (rules.md "Rules versions", notation.md field 11 and the Rules header):
x0.2 is current; a game keeps the version it started with, x0.1 or x0.2."""

from __future__ import annotations

import gzip
import json
import random

import pytest

from express import ExpressError, Game, format_position, parse_position, start_position
from express.determinize import determinize
from express.rules import CURRENT_RULES, RULES_VERSIONS
from express.tournament import GameResult, load, play_game
from tests.express.support import SEED3, from_bag, record, run_cli, to_action


def engineer_start(rules: str) -> str:
    """A full position in phase a1: seat 2 (the Engineer, engine D) moves next with A1 from
    10 to 11 (Fr), its train rbrg."""
    g = to_action(["En", "Lo", "Ma"], {1: "A1A2A3", 2: "A1A2A3", 3: "A3A1A2"}, rules=rules)
    p = g.position
    p.engine[1] = 3
    p.train[1] = from_bag(p, "rbrg")
    return format_position(p)


def test_new_games_and_start_use_x02() -> None:
    assert CURRENT_RULES == "x0.2" and set(RULES_VERSIONS) == {"x0.1", "x0.2"}
    g = Game.new(3, SEED3)
    assert g.position.rules == "x0.2" and g.view(1).endswith(" x0.2")
    assert '[Rules "x0.2"]' in g.record()
    assert format_position(start_position(2, 1)).endswith(" x0.2")
    out = run_cli(["start", "--players", "3", "--seed", "1"])
    assert json.loads(out.stdout)["position"].endswith(" x0.2")


@pytest.mark.parametrize("rules", RULES_VERSIONS)
def test_a_game_keeps_its_version_in_every_form(rules: str) -> None:
    g = Game.new(3, SEED3, rules=rules)
    g.play("Lo")
    assert g.position.rules == rules and g.start.rules == rules
    assert format_position(g.position).endswith(" " + rules)
    assert all(g.view(s).endswith(" " + rules) for s in range(4))
    text = g.record()
    assert f'[Rules "{rules}"]' in text
    again = Game.from_record(text)
    assert again.position == g.position and again.position.rules == rules
    public = g.record(1)
    assert f'[Rules "{rules}"]' in public
    assert determinize(g.view(2), random.Random(1)).rules == rules
    assert parse_position(g.view(0)).rules == rules


def test_positions_of_two_versions_differ() -> None:
    a = start_position(3, SEED3, "x0.1")
    b = start_position(3, SEED3, "x0.2")
    assert a != b and a.copy() == a and a.copy().rules == "x0.1"
    assert format_position(a)[:-4] == format_position(b)[:-4]  # the same setup


@pytest.mark.parametrize("rules", RULES_VERSIONS)
def test_a_start_record_keeps_its_version_with_its_own_rule_46(rules: str) -> None:
    start = engineer_start(rules)
    g = Game.from_record(record("1. | | A1:>.d13", start=start, rules=rules))
    assert g.position.train[1] == "bg" and g.position.yard[1] == "rr"
    assert f'[Start "{start}"]' in g.record() and f'[Rules "{rules}"]' in g.record()
    body = "1. | | A1:>.d2"  # the blue car at Fr: the Engineer of x0.1 only
    if rules == "x0.1":
        assert Game.from_record(record(body, start=start, rules=rules)).position.yard[1] == "b"
    else:
        with pytest.raises(ExpressError, match="match factory Fr") as e:
            Game.from_record(record(body, start=start, rules=rules))
        assert e.value.at == 0


@pytest.mark.parametrize("rules", RULES_VERSIONS)
def test_the_command_line_replays_and_views_each_version(rules: str) -> None:
    text = record("1. | | A1:>.d2", start=engineer_start(rules), rules=rules).encode()
    out = run_cli(["replay"], text)
    if rules == "x0.1":
        body = json.loads(out.stdout)
        assert out.returncode == 0 and body["position"].endswith(" x0.1")
        view = run_cli(["view", "--seat", "2"], text)
        assert json.loads(view.stdout)["position"].endswith(" x0.1")
    else:
        assert out.returncode == 2
        assert json.loads(out.stdout)["at"] == 0


@pytest.mark.parametrize("header, start", [("x0.1", "x0.2"), ("x0.2", "x0.1")])
def test_a_start_whose_version_differs_from_the_rules_header_is_an_error(header: str,
                                                                         start: str) -> None:
    text = record("", start=engineer_start(start), rules=header)
    with pytest.raises(ExpressError, match=f"Start position is in rules {start}") as e:
        Game.from_record(text)
    assert e.value.at is None
    out = run_cli(["replay"], text.encode())
    assert out.returncode == 2 and json.loads(out.stdout)["at"] is None


@pytest.mark.parametrize("version", ["x0.3", "x0.0", "0.92", "X0.2", "x0.2 ", ""])
def test_any_other_version_is_an_error(version: str) -> None:
    with pytest.raises(ExpressError, match="rules version|Rules header"):
        Game.from_record(record("", rules=version))
    with pytest.raises(ExpressError, match="version|11 fields"):
        parse_position(format_position(start_position(3, 1)).replace(" x0.2", " " + version))
    with pytest.raises(ExpressError, match="version"):
        Game.new(3, 1, rules=version)
    with pytest.raises(ValueError):
        start_position(3, 1, version)


def test_a_record_without_a_rules_header_is_an_error() -> None:
    with pytest.raises(ExpressError, match="Rules header"):
        Game.from_record('[Game "cargo-express"]\n[Players "3"]\n[Seed "1"]\n')


def test_a_game_refuses_a_rules_header_other_than_its_start() -> None:
    with pytest.raises(ExpressError, match="differs"):
        Game(start_position(3, 1, "x0.2"), {"Game": "cargo-express", "Rules": "x0.1"})
    with pytest.raises(ExpressError, match="differs"):
        Game.new(3, 1, {"Rules": "x0.1"})


def test_self_play_records_its_version_and_old_lines_read_as_x01(tmp_path) -> None:
    r = play_game(("easy", "easy"), 3, "easy-self", 0, 0, "x0.1")
    assert r.rules == "x0.1"
    old = json.loads(r.to_json())
    del old["rules"]  # a line saved before x0.2 existed
    assert GameResult.from_json(json.dumps(old)).rules == "x0.1"
    new = play_game(("easy", "easy"), 3, "easy-self", 0)
    assert new.rules == "x0.2"
    path = tmp_path / "games.jsonl.gz"
    with gzip.open(path, "wt", encoding="utf-8") as f:
        f.write(json.dumps(old) + "\n" + new.to_json() + "\n")
    assert [g.rules for g in load([str(path)])] == ["x0.1", "x0.2"]


def test_balance_and_tournament_take_the_version(tmp_path) -> None:
    save = tmp_path / "b.jsonl"
    out = run_cli(["balance", "--level", "easy", "--players", "2", "--games", "1",
                   "--rules", "x0.1", "--save", str(save)])
    assert out.returncode == 0 and b"--rules x0.1" in out.stdout
    assert b"rules: x0.1" in out.stdout
    assert json.loads(save.read_text())["rules"] == "x0.1"
    report = run_cli(["balance", "--load", str(save)])
    assert report.returncode == 0 and b"rules: x0.1" in report.stdout
    saved = tmp_path / "t.jsonl"
    out = run_cli(["tournament", "--pairings", "medium-easy", "--players", "2", "--games", "1",
                   "--rules", "x0.1", "--save", str(saved)])
    assert out.returncode == 0 and b"--rules x0.1" in out.stdout
    again = run_cli(["tournament", "--load", str(saved)])
    assert again.returncode == 0 and b"(rules x0.1)" in again.stdout
    assert out.stdout.split(b"\n", 1)[1] == again.stdout.split(b"\n", 1)[1]
    bad = run_cli(["tournament", "--games", "1", "--rules", "x0.3"])
    assert bad.returncode == 2 and b"--rules" in bad.stdout
