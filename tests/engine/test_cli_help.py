"""`python -m engine --help` (and each command's) prints help on standard output with
status 0, while every real error keeps the JSON contract (issue #27, item 15)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def run(args: list[str]) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "engine", *args], cwd=REPO, input=b"",
                          capture_output=True, timeout=120)


@pytest.mark.parametrize("args", [["--help"], ["-h"], ["replay", "--help"], ["bot", "-h"],
                                  ["solve", "--help"], ["bench", "--seed", "2", "-h"]])
def test_help_on_standard_output_with_status_0(args: list[str]) -> None:
    out = run(args)
    assert out.returncode == 0 and out.stderr == b""
    assert out.stdout.decode().startswith("usage: python -m engine")


@pytest.mark.parametrize("args", [[], ["nonsense"], ["bench", "--seconds", "x"],
                                  ["unloads"]])
def test_real_errors_keep_the_json_contract(args: list[str]) -> None:
    out = run(args)
    assert out.returncode == 2 and out.stderr == b""
    body = json.loads(out.stdout)
    assert set(body) == {"error", "at"}
