"""The command line's contract: JSON out, exit 2 and {"error", "at"} for every bad input."""

from __future__ import annotations

import json

import pytest

from tests.express.support import record, run_cli

PLAYED = "1. Lo Dr En | A2A1A3 A2A3A1 A3A1A2 | A2:^.>>.s1"


@pytest.mark.parametrize("args, stdin", [
    ([], b""),
    (["nonsense"], b""),
    (["start"], b""),
    (["start", "--players", "5", "--seed", "1"], b""),
    (["start", "--players", "3", "--seed", "18446744073709551616"], b""),
    (["start", "--players", "3", "--seed", "0x10"], b""),
    (["start", "--players", " 3", "--seed", "1"], b""),
    (["start", "--players", "3"], b""),
    (["start", "--players", "3", "--seed", "1", "--nonsense"], b""),
    (["replay", "/nonexistent/file"], b""),
    (["replay"], b"\xff\xfe\x00"),
    (["replay"], b""),
    (["replay"], record("1. Lo Dr |").encode()),
    (["view", "--seat", "4"], record("").encode()),
    (["view", "--seat", "-1"], record("").encode()),
    (["view"], record("").encode()),
    (["bot", "--level", "easy", "--seed", "1", "--seat", "1"], record("").encode()),
    (["bot", "--level", "nope", "--seed", "1", "--seat", "2"], record("").encode()),
    (["bench", "--seconds", "x"], b""),
    (["bench", "--seconds", "0.1", "--rules", "x0.3"], b""),
    (["replay"], b'[Game "cargo-express"]\n[Rules "x0.1"]\n[Players "3"]\n'),
    (["replay"], record("1. Lo Dr En | " + "A1A2A3 " * 3000).encode()),
    (["replay"], b'[Game "cargo-express"]\n[Game "cargo-express"]\n'),
])
def test_bad_input_exits_2_with_one_json_error_and_no_traceback(args: list[str],
                                                                 stdin: bytes) -> None:
    out = run_cli(args, stdin)
    assert out.returncode == 2, out.stdout
    lines = out.stdout.decode().splitlines()
    assert len(lines) == 1
    body = json.loads(lines[0])
    assert set(body) == {"error", "at"} and body["error"]
    assert out.stderr == b""


@pytest.mark.parametrize("body, at", [
    ("1. Lo Dr En | A2A1A3 A2A3A1 A3A1A2 | A1:>", 6),       # a turn: after 3 picks, 3 plans
    ("1. Lo Dr En | A2A1A3 A2A3A1 | A3A1A2", 5),            # '|' before planning is over
    ("1. Lo resign2 Dr Xx", 3),                              # resign counts as a token
    ("2. Lo", 0),                                            # the wrong round number
    ("1. Lo Dr En | - A2A3A1 A3A1A2 A1A2A3", 6),             # '-' counts; 4 entries for 3
    (PLAYED + " A2:^.>>.d1 | R5", 8),                        # '|' in the middle of TURNS
])
def test_the_error_index_counts_decision_tokens(body: str, at: int) -> None:
    out = run_cli(["replay"], record(body).encode())
    assert out.returncode == 2
    assert json.loads(out.stdout)["at"] == at


def test_header_errors_have_no_index() -> None:
    out = run_cli(["replay"], b'[Game "cargo-express"]\n[Rules "x0.1"]\n[Players "9"]\n')
    assert json.loads(out.stdout) == {"error": json.loads(out.stdout)["error"], "at": None}


def test_a_byte_order_mark_and_crlf_are_accepted() -> None:
    text = "\ufeff" + record(PLAYED).replace("\n", "\r\n")
    out = run_cli(["replay"], text.encode("utf-8"))
    assert out.returncode == 0 and json.loads(out.stdout)["phase"] == "a1"


def test_comments_and_line_breaks_mean_nothing() -> None:
    body = "1. Lo Dr # the picks\nEn|A2A1A3 A2A3A1\nA3A1A2|A2:^.>>.s1 # first turn"
    a = run_cli(["replay"], record(body).encode())
    b = run_cli(["replay"], record(PLAYED).encode())
    assert a.returncode == 0 and a.stdout == b.stdout


def test_view_and_bot_read_a_file_argument(tmp_path) -> None:
    path = tmp_path / "game.txt"
    path.write_text(record(PLAYED), encoding="utf-8")
    out = run_cli(["view", "--seat", "0", str(path)])
    assert out.returncode == 0 and json.loads(out.stdout)["position"].split(" ")[1] == "?32"


def test_bench_prints_rounds_and_turns_per_second() -> None:
    out = run_cli(["bench", "--seconds", "0.3"])
    body = json.loads(out.stdout)
    assert out.returncode == 0 and body["turns/s"] > 0 and body["rounds/s"] > 0
    assert body["rules"] == "x0.2"  # the current version unless --rules says another


def test_bench_plays_the_rules_version_asked() -> None:
    """Issue #30: the bench plays either version, and says which."""
    old = json.loads(run_cli(["bench", "--seconds", "0.2", "--rules", "x0.1"]).stdout)
    assert old["rules"] == "x0.1" and old["turns/s"] > 0


@pytest.mark.parametrize("args", [["--help"], ["-h"], ["start", "--help"], ["start", "-h"],
                                  ["replay", "--help"], ["bot", "-h"], ["balance", "--help"],
                                  ["start", "--players", "9", "--help"]])
def test_help_is_printed_on_standard_output_with_status_0(args: list[str]) -> None:
    """Issue #27, item 15: `python -m express --help` printed a JSON error and exited 2."""
    out = run_cli(args)
    assert out.returncode == 0, out.stdout
    text = out.stdout.decode()
    assert text.startswith("usage: python -m express") and "-h, --help" in text
    assert out.stderr == b""
    if len(args) == 1:
        for command in ("start", "replay", "view", "bot", "bench", "tournament", "balance"):
            assert command in text
