"""Every worked example of shared/spec/express/examples through the real `python -m express`.

The examples sit in ../shared beside the repo (or $CARGO_SHARED): missing examples fail
under CI=true and skip otherwise.
"""

from __future__ import annotations

import json
import subprocess
from concurrent.futures import ThreadPoolExecutor

from tests.express.support import examples, run_cli


def run_all(jobs: list[tuple[list[str], bytes]]) -> list[subprocess.CompletedProcess[bytes]]:
    """Run many commands, two at a time (each is a fresh interpreter; the machine has 2 cores)."""
    with ThreadPoolExecutor(max_workers=2) as pool:
        return list(pool.map(lambda job: run_cli(*job), jobs))


def test_every_start_example_prints_exactly_the_expected_json() -> None:
    cases = examples("start.jsonl")
    for case, out in zip(cases, run_all([(c["args"], b"") for c in cases]), strict=True):
        assert out.returncode == 0, case["name"]
        assert json.loads(out.stdout) == case["expect"], case["name"]


def test_every_replay_example_prints_exactly_the_expected_json() -> None:
    cases = examples("replay.jsonl")
    outs = run_all([(["replay"], c["record"].encode("utf-8")) for c in cases])
    failures = [(c["name"], out.returncode, out.stdout[:300]) for c, out in
                zip(cases, outs, strict=True)
                if out.returncode != 0 or json.loads(out.stdout) != c["expect"]]
    assert not failures


def test_every_view_example_prints_exactly_the_expected_json() -> None:
    cases = examples("view.jsonl")
    outs = run_all([(c["args"], c["record"].encode("utf-8")) for c in cases])
    failures = [(c["name"], out.returncode, out.stdout[:300]) for c, out in
                zip(cases, outs, strict=True)
                if out.returncode != 0 or json.loads(out.stdout) != c["expect"]]
    assert not failures


def test_every_error_example_exits_2_with_one_error_object() -> None:
    cases = examples("errors.jsonl")
    jobs = [(c["args"], bytes.fromhex(c["stdin_hex"]) if "stdin_hex" in c
             else c.get("stdin", "").encode("utf-8")) for c in cases]
    for case, out in zip(cases, run_all(jobs), strict=True):
        name = case["name"]
        assert out.returncode == 2, name
        lines = out.stdout.decode("utf-8").splitlines()
        assert len(lines) == 1, name
        body = json.loads(lines[0])
        assert set(body) == {"error", "at"}, name
        assert isinstance(body["error"], str) and body["error"].strip(), name
        assert body["at"] is None or isinstance(body["at"], int), name
        if "expect_at" in case:
            assert body["at"] == case["expect_at"], name
        assert out.stderr == b"", name


def test_replay_reads_a_file_argument_too(tmp_path) -> None:
    case = examples("replay.jsonl")[1]
    path = tmp_path / "game.txt"
    path.write_text(case["record"], encoding="utf-8")
    out = run_cli(["replay", str(path)])
    assert out.returncode == 0 and json.loads(out.stdout) == case["expect"]
