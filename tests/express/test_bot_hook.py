"""The `bot` command's boundary: express.bot.choose(view, level, seed, seat) -> token."""

from __future__ import annotations

import json

import pytest

from express import Game
from express.bot import choose
from express.cli import main
from tests.express.support import SEED3, record


@pytest.fixture
def calls(monkeypatch):
    """The real bot, with its arguments recorded."""
    import express.bot

    seen: list[tuple[str, str, int, int]] = []

    def spy(view: str, level: str, seed: int, seat: int) -> str:
        seen.append((view, level, seed, seat))
        return choose(view, level, seed, seat)

    monkeypatch.setattr(express.bot, "choose", spy)
    return seen


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_the_bot_gets_only_its_seats_view_and_its_answer_is_printed(calls, tmp_path, capsys,
                                                                      level: str) -> None:
    path = tmp_path / "game.txt"
    path.write_text(record(""), encoding="utf-8")
    assert main(["bot", "--level", level, "--seed", "7", "--seat", "2", str(path)]) == 0
    view = Game.new(3, SEED3).view(2)
    decision = json.loads(capsys.readouterr().out)["decision"]
    assert calls == [(view, level, 7, 2)]
    assert decision == choose(view, level, 7, 2)
    assert decision in Game.new(3, SEED3).legal()


def test_a_seat_with_no_decision_to_make_is_refused(calls, tmp_path, capsys) -> None:
    path = tmp_path / "game.txt"
    path.write_text(record(""), encoding="utf-8")
    assert main(["bot", "--level", "easy", "--seed", "1", "--seat", "1", str(path)]) == 2
    assert json.loads(capsys.readouterr().out)["at"] is None
    assert calls == []


def test_a_bad_level_is_refused_before_the_bot_runs(calls, tmp_path, capsys) -> None:
    path = tmp_path / "game.txt"
    path.write_text(record(""), encoding="utf-8")
    assert main(["bot", "--level", "Hard", "--seed", "1", "--seat", "2", str(path)]) == 2
    assert "bad level" in json.loads(capsys.readouterr().out)["error"]
    assert calls == []
