"""Every worked example of shared/spec/examples through the real `python -m engine`.

solve.jsonl belongs to the solver's tests. The examples sit in ../shared beside the repo
(CI clones it there): missing examples fail under CI=true and skip otherwise.
"""

from __future__ import annotations

import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.engine.support import REPO, examples


def run(args: list[str], stdin: bytes = b"") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "engine", *args], cwd=REPO, input=stdin,
                          capture_output=True, timeout=60)


def run_all(jobs: list[tuple[list[str], bytes]]) -> list[subprocess.CompletedProcess]:
    """Run many commands, a few at a time (each is a fresh interpreter)."""
    with ThreadPoolExecutor(max_workers=4) as pool:
        return list(pool.map(lambda job: run(*job), jobs))


def test_every_replay_example_prints_exactly_the_expected_json() -> None:
    cases = examples("replay.jsonl")
    outs = run_all([(["replay"], case["record"].encode("utf-8")) for case in cases])
    failures = []
    for case, out in zip(cases, outs, strict=True):
        if out.returncode != 0 or json.loads(out.stdout) != case["expect"]:
            failures.append((case["name"], out.returncode, out.stdout[:300]))
    assert not failures


def test_replay_reads_a_file_argument_too(tmp_path) -> None:
    case = examples("replay.jsonl")[1]
    path = tmp_path / "game.txt"
    path.write_text(case["record"], encoding="utf-8")
    out = run(["replay", str(path)])
    assert out.returncode == 0 and json.loads(out.stdout) == case["expect"]


def test_every_unloads_example_prints_exactly_the_expected_json() -> None:
    cases = examples("unloads.jsonl")
    outs = run_all([(["unloads", case["position"]], b"") for case in cases])
    for case, out in zip(cases, outs, strict=True):
        assert out.returncode == 0, case["name"]
        assert json.loads(out.stdout) == case["expect"], case["name"]


def test_every_error_example_exits_2_with_one_error_object() -> None:
    cases = examples("errors.jsonl")
    jobs = [(case["args"], bytes.fromhex(case["stdin_hex"]) if "stdin_hex" in case
             else case.get("stdin", "").encode("utf-8")) for case in cases]
    for case, out in zip(cases, run_all(jobs), strict=True):
        name = case["name"]
        assert out.returncode == case.get("expect_exit", 2) == 2, name
        lines = out.stdout.decode("utf-8").splitlines()
        assert len(lines) == 1, name
        body = json.loads(lines[0])
        assert set(body) == {"error", "at"}, name
        assert isinstance(body["error"], str) and body["error"].strip(), name
        assert body["at"] is None or isinstance(body["at"], int), name
        if "expect_at" in case:
            assert body["at"] == case["expect_at"], name
        assert b"Traceback" not in out.stderr, name


@pytest.mark.parametrize("args, stdin", [
    (["replay"], b"[Size \"5\"]\na b zz"),
    (["replay", "/nonexistent/file"], b""),
    (["unloads"], b""),
    (["unloads", "not a position"], b""),
    (["nonsense"], b""),
    ([], b""),
    (["replay"], b"\xff\xfe\x00"),
    (["replay"], b"[Start \"" + b"." * 5000 + b"\"]"),
    (["replay"], b"[Size \"5\"]\n" + b"a " * 3000),
])
def test_bad_input_never_gives_a_traceback(args: list[str], stdin: bytes) -> None:
    out = run(args, stdin)
    assert out.returncode == 2
    body = json.loads(out.stdout)
    assert set(body) == {"error", "at"} and body["error"]
    assert b"Traceback" not in out.stderr


def test_the_error_index_counts_turn_tokens_and_resign() -> None:
    out = run(["replay"], b'[Size "5"]\na b resign c')
    assert out.returncode == 2 and json.loads(out.stdout)["at"] == 3
    out = run(["replay"], b'[Size "9"]\na')
    assert json.loads(out.stdout)["at"] is None
