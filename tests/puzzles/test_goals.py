"""Each goal type, solved and failed, through the turn endpoint (the engine decides)."""

import pytest

from puzzles.models import Puzzle

from .conftest import SOLVE, make_puzzle, post, record, url


@pytest.mark.parametrize("goal", ["unload:I", "score:8", "appcons:1"])
def test_each_goal_solved(client, live_week, goal):
    Puzzle.objects.filter(week=live_week, day=0).delete()
    make_puzzle(record(goal=goal), live_week, 0)
    r = post(client, url(0, "turn"), {"tokens": [], "token": SOLVE})
    assert r.status_code == 200, r.content
    state = r.json()["state"]
    assert state["puzzle"]["status"] == "solved"
    assert state["over"] and state["result"]["winner"] == "blue"
    assert r.json()["events"][-1]["type"] == "over"


@pytest.mark.parametrize("goal", ["unload:I", "score:8", "appcons:1"])
def test_each_goal_failed_when_the_last_turn_ends_without_it(client, live_week, goal):
    Puzzle.objects.filter(week=live_week, day=0).delete()
    make_puzzle(record(goal=goal), live_week, 0)
    r = post(client, url(0, "turn"), {"tokens": [], "token": "b"})
    state = r.json()["state"]
    assert state["puzzle"]["status"] == "out_of_turns"
    assert state["puzzle"]["turns_left"] == 0 and state["legal"] == []


def test_score_counts_only_points_gained_and_no_gold_for_a_shelf_shape(client, live_week):
    # With an I on the shelf, the I scores 6 (no Gold): score:8 is out of reach in one turn.
    Puzzle.objects.filter(week=live_week, day=0).delete()
    start = "...../...../B..../B..../B.... b - - - I - 5 0 0 0.92"
    p = make_puzzle(record(start=start, goal="score:6"), live_week, 0)
    assert p.validation == Puzzle.Validation.VALID
    r = post(client, url(0, "turn"), {"tokens": [], "token": SOLVE})
    s = r.json()["state"]
    assert s["puzzle"]["gained"] == 6 and s["points"]["blue"] == 11
    assert s["puzzle"]["status"] == "solved"


def test_out_of_turns_when_no_turn_can_be_taken(client, live_week):
    Puzzle.objects.filter(week=live_week, day=0).delete()
    # Two turns, but one empty cell: after the drop the bay is full and no turn can be taken.
    start = "O.OOO/OOOOO/OOOOO/OOOOO/OOOOO b - - - - - 0 0 0 0.92"
    p = make_puzzle(record(start=start, goal="appcons:1", turns=2), live_week, 0, prove=False)
    r = post(client, url(0, "turn"), {"tokens": [], "token": "b"})
    s = r.json()["state"]
    assert s["over"] and s["puzzle"]["status"] == "out_of_turns"
    assert s["puzzle"]["turns_left"] == 1  # turns were left, but the bay is full
    assert p.turns == 2


def test_multi_turn_attempt_is_replayed_from_the_tokens(client, live_week):
    line = Puzzle.objects.get(week=live_week, day=3).solution.split()
    assert len(line) >= 2
    for i, token in enumerate(line):
        r = post(client, url(3, "turn"), {"tokens": line[:i], "token": token})
        status = r.json()["state"]["puzzle"]["status"]
        assert status == ("solved" if i == len(line) - 1 else "playing")


def test_a_score_goal_reads_as_points_gained_with_progress(client, live_week):
    """Blue starts with 15 points: the goal says the points are to be gained, and the state
    says how many are gained so far (issue #27, item 10)."""
    Puzzle.objects.filter(week=live_week, day=0).delete()
    start = "...../...../B..../B..../B.... b - - - - - 15 0 0 0.92"
    make_puzzle(record(start=start, goal="score:7", turns=2), live_week, 0)
    page = client.get(url(0)).content.decode()
    assert "Gain 7 points in 2 turns." in page and "Score 7" not in page
    s = post(client, url(0, "state"), {"tokens": []}).json()["state"]
    assert s["puzzle"]["goal_words"] == "Gain 7 points in 2 turns."
    assert s["puzzle"]["progress_words"] == "Gained 0 of 7 points."
    s = post(client, url(0, "turn"), {"tokens": [], "token": "b"}).json()["state"]
    assert s["puzzle"]["progress_words"] == "Gained 0 of 7 points."
    s = post(client, url(0, "turn"), {"tokens": ["b"], "token": SOLVE}).json()["state"]
    assert s["puzzle"]["progress_words"] == "Gained 8 points: the goal of 7 is met."
    assert s["puzzle"]["status"] == "solved" and s["points"]["blue"] == 23
    week_page = client.get("/puzzles/").content.decode()
    assert "Gain 7 points in 2 turns." in week_page


@pytest.mark.parametrize("goal, words, progress", [
    ("unload:I", "Unload an I in 1 turn.", None),
    ("appcons:2", "Unload 2 AppCons in 1 turn.", "Unloaded 0 of 2 AppCons."),
    ("score:1", "Gain 1 point in 1 turn.", "Gained 0 of 1 point.")])
def test_each_goals_words_and_progress(client, live_week, goal, words, progress):
    Puzzle.objects.filter(week=live_week, day=0).delete()
    make_puzzle(record(goal=goal), live_week, 0, prove=False)
    s = post(client, url(0, "state"), {"tokens": []}).json()["state"]
    assert s["puzzle"]["goal_words"] == words
    assert s["puzzle"]["progress_words"] == progress
