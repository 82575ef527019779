"""The events Game.play returns, which the site animates from."""

from __future__ import annotations

from tests.engine.support import game_at, pos, replay


def test_a_drop_names_its_cell_and_ply() -> None:
    game = replay('[Size "5"]\na')
    assert game.play("a") == [{"type": "drop", "side": "orange", "cell": "a2", "ply": 1}]


def test_a_rotation_lists_each_module_from_turned_to_settled() -> None:
    game = game_at(pos("...../...../...../...../BO..."))
    [event] = game.play("S>")
    assert event["type"] == "rotate" and event["direction"] == "right"
    # a1 -> a5 -> a2 ; b1 -> a4 -> a1
    assert event["moves"] == [["a1", "a5", "a2"], ["b1", "a4", "a1"]]
    game = game_at(pos("...../...../...../...../BO...", lock="c"))
    events = game.play("S<")
    assert [e["type"] for e in events] == ["rotate", "lock_released"]
    assert events[0]["moves"] == [["a1", "e1", "e1"], ["b1", "e2", "e2"]]
    assert all(e["ply"] == 0 for e in events)


def test_lockdown_and_its_release() -> None:
    game = replay('[Size "5"]\n')
    [e] = game.play("Lc")
    assert (e["type"], e["corridor"], e["locked"]) == ("lockdown", "c", "c")
    [e] = game.play("Lc")
    assert (e["type"], e["corridor"], e["locked"]) == ("lockdown", "c", None)


def test_a_purge_lists_what_it_destroyed_and_what_fell() -> None:
    game = game_at(pos("...../...../B..../O..../xB..."))
    [e] = game.play("P1")
    assert e["type"] == "purge" and e["corridor"] == "1"
    assert e["destroyed"] == ["a1", "b1"]
    assert e["moves"] == [["a2", "a1"], ["a3", "a2"]]


def test_new_damage_destroys_and_moves() -> None:
    game = game_at(pos("...../...../B..../O..../xB..."))
    [e] = game.play("Da1a2")
    assert e["type"] == "damage" and e["destroyed"] == ["a1", "a2"]
    assert e["emptied"] == [] and e["moves"] == [["a3", "a1"]]


def test_old_damage_empties_in_place() -> None:
    game = game_at(pos("...../...../O..../B..../OB...", rules="0.88"))
    [e] = game.play("Da3a1")
    assert e["emptied"] == ["a1", "a3"] and e["destroyed"] == [] and e["moves"] == []


def test_a_reroute_names_its_cell() -> None:
    game = game_at(pos("...../...../...../...../BO..."))
    assert game.play("Rb1") == [{"type": "reroute", "side": "blue", "cell": "b1", "ply": 0}]


def test_an_unload_names_its_chit_and_points() -> None:
    game = game_at(pos("...../...../...../...../BBB..", orange_shelf="I", blue_points=1))
    events = game.play("d+d1c1b1a1")
    assert events[-1] == {"type": "unload", "side": "blue", "cells": "a1b1c1d1", "shape": "I",
                          "value": 6, "chit": "steel", "gained": 6, "points": 7, "ply": 0}
    game = game_at(pos("...../...../...../...../BBB.."))
    assert game.play("d+a1b1c1d1")[-1]["chit"] == "gold"
    assert game.position.points[0] == 8
    game = game_at(pos("...../...../...../...../BBB..", blue_shelf="I"))
    e = game.play("d+a1b1c1d1")[-1]
    assert (e["chit"], e["gained"]) == (None, 6)


def test_a_pass_is_an_event() -> None:
    game = game_at(pos("BBBB./OOOO./BBBB./OOOO./BBBO.", lock="e", blue="-", orange="L"))
    assert game.play("-") == [{"type": "pass", "side": "blue", "ply": 0}]


def test_the_last_turn_ends_with_the_over_event_and_its_audit() -> None:
    game = game_at(pos("BBBB./OOOO./BBBB./OOOO./BBBB.", blue_shelf="OTJLSZ",
                       orange_shelf="otjlsz", turns=40))
    for token in ("e", "e", "e", "e"):
        game.play(token)
    events = game.play("e+a5b5c5d5")
    assert [e["type"] for e in events] == ["drop", "unload", "over"]
    over = events[-1]
    assert over["ply"] == 4
    assert over["result"] == {"winner": "blue", "blue": 8, "orange": -2}
    assert over["audit"]["blue"]["rust"] == 0 and over["audit"]["orange"]["rust"] == 1
    assert over["audit"]["decided_by"] == "score"


def test_resign_gives_an_over_event_naming_who_resigned() -> None:
    game = replay('[Size "5"]\na')
    [e] = game.play("resign")
    assert e["type"] == "over" and e["resigned"] == "orange" and e["ply"] == 1
    assert e["result"]["winner"] == "blue"
