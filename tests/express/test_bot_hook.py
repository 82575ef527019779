"""The `bot` command's boundary: express.bot.choose(view, level, seed, seat) -> token."""

from __future__ import annotations

import importlib.machinery
import importlib.util
import json
import sys
import types

import pytest

from express import Game
from express.cli import main
from tests.express.support import SEED3, record, run_cli


@pytest.fixture
def fake_bot(monkeypatch):
    calls: list[tuple[str, str, int, int]] = []
    module = types.ModuleType("express.bot")
    module.__spec__ = importlib.machinery.ModuleSpec("express.bot", None)

    def choose(view: str, level: str, seed: int, seat: int) -> str:
        calls.append((view, level, seed, seat))
        return "Lo"

    module.choose = choose  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "express.bot", module)
    return calls


def test_the_bot_gets_only_its_seats_view_and_its_answer_is_printed(fake_bot, tmp_path,
                                                                      capsys) -> None:
    path = tmp_path / "game.txt"
    path.write_text(record(""), encoding="utf-8")
    assert main(["bot", "--level", "hard", "--seed", "7", "--seat", "2", str(path)]) == 0
    assert json.loads(capsys.readouterr().out) == {"decision": "Lo"}
    assert fake_bot == [(Game.new(3, SEED3).view(2), "hard", 7, 2)]


def test_a_seat_with_no_decision_to_make_is_refused(fake_bot, tmp_path, capsys) -> None:
    path = tmp_path / "game.txt"
    path.write_text(record(""), encoding="utf-8")
    assert main(["bot", "--level", "easy", "--seed", "1", "--seat", "1", str(path)]) == 2
    assert json.loads(capsys.readouterr().out)["at"] is None
    assert fake_bot == []


@pytest.mark.skipif(importlib.util.find_spec("express.bot") is not None,
                    reason="express/bot.py exists")
def test_without_express_bot_the_command_says_so() -> None:
    out = run_cli(["bot", "--level", "easy", "--seed", "1", "--seat", "2"],
                  record("").encode())
    assert out.returncode == 2 and "express/bot.py" in json.loads(out.stdout)["error"]
