"""A guest's progress, kept in the browser, merged into the account on sign-in: the
preview shows what would change, applying needs that same preview, bad proofs are refused,
and an account's solve is never overwritten."""

from puzzles.models import Progress

from .conftest import SOLVE, post, url


def guest_solve(client, live_week):
    proof = post(client, url(0, "turn"), {"tokens": [], "token": SOLVE}).json()["proof"]
    monday = live_week.puzzles.get(day=0).pk
    tuesday = live_week.puzzles.get(day=1).pk
    return [
        {"puzzle": monday, "attempts": 2, "solved_in": 2, "proof": proof, "shown": False},
        {"puzzle": tuesday, "attempts": 1, "solved_in": None, "proof": None, "shown": False},
    ]


def test_preview_then_merge(client, live_week, member):
    entries = guest_solve(client, live_week)
    client.force_login(member)
    preview = post(client, "/puzzles/merge", {"entries": entries}).json()
    assert not preview["applied"] and not Progress.objects.exists()
    changes = preview["changes"]
    assert changes[0]["after"] == {"attempts": 2, "solved": True, "solved_in": 2,
                                   "shown": False}
    assert changes[1]["after"]["attempts"] == 1 and not changes[1]["after"]["solved"]
    done = post(client, "/puzzles/merge", {"entries": entries, "apply": True,
                                           "expect": changes}).json()
    assert done["applied"]
    p = Progress.objects.get(user=member, puzzle_id=entries[0]["puzzle"])
    assert p.solved and p.solved_in == 2 and p.merged and p.unaided and p.line == SOLVE


def test_merge_without_the_reviewed_preview_changes_nothing(client, live_week, member):
    entries = guest_solve(client, live_week)
    client.force_login(member)
    r = post(client, "/puzzles/merge", {"entries": entries, "apply": True, "expect": []})
    assert r.status_code == 409 and not Progress.objects.exists()


def test_an_accounts_solve_is_kept_and_attempts_add_up(client, live_week, member):
    entries = guest_solve(client, live_week)
    client.force_login(member)
    post(client, url(0, "turn"), {"tokens": [], "token": SOLVE})  # solved in 1 on the account
    changes = post(client, "/puzzles/merge", {"entries": entries}).json()["changes"]
    monday = next(c for c in changes if c["puzzle"] == entries[0]["puzzle"])
    assert monday["before"]["solved_in"] == 1 and monday["after"]["solved_in"] == 1
    assert monday["after"]["attempts"] == 3


def test_forged_proofs_and_closed_puzzles_are_refused(client, live_week, member):
    client.force_login(member)
    friday = live_week.puzzles.get(day=4).pk
    monday = live_week.puzzles.get(day=0).pk
    r = post(client, "/puzzles/merge", {"entries": [
        {"puzzle": monday, "attempts": 1, "proof": "forged", "solved_in": 1},
        {"puzzle": friday, "attempts": 1},
        {"nothing": 1},
    ]}).json()
    assert r["changes"] == [] and len(r["refused"]) == 3


def test_merge_needs_a_member(client, live_week):
    assert post(client, "/puzzles/merge", {"entries": []}).status_code == 403


def test_the_preview_names_only_what_changes_and_the_merge_says_it_is_done(
        client, live_week, member):
    """Each change reads as what it does to the account, with no no-op parts ("0 → 0
    attempts" for a day whose solution alone was seen); applying the merge leaves a message
    for the next page (issue #27, item 14)."""
    entries = guest_solve(client, live_week)
    wednesday = live_week.puzzles.get(day=2).pk
    entries.append({"puzzle": wednesday, "attempts": 0, "solved_in": None, "proof": None,
                    "shown": True})
    client.force_login(member)
    changes = post(client, "/puzzles/merge", {"entries": entries}).json()["changes"]
    words = [c["words"] for c in changes]
    assert words == ["Monday 2 March: 0 → 2 attempts; solved in 2 attempts",
                     "Tuesday 3 March: 0 → 1 attempt",
                     "Wednesday 4 March: the solution was seen"]
    done = post(client, "/puzzles/merge", {"entries": entries, "apply": True,
                                           "expect": changes}).json()
    assert done["applied"]
    html = client.get("/puzzles/").content.decode()
    assert "Merged this browser&#x27;s progress on 3 puzzles into your account." in html
    assert 'role="status"' in html


def test_a_day_whose_solution_alone_was_seen_is_not_tried(client, live_week, member):
    """The week page (and the home page's strip) says "tried" for a day with an attempt;
    a day whose solution was only viewed says "seen" (issue #27, item 14)."""
    client.force_login(member)
    post(client, url(0, "solution"), {})
    post(client, url(1, "turn"), {"tokens": [], "token": "a"})
    html = client.get("/puzzles/").content.decode()
    monday = html[html.index('data-day="2026-03-02"'):html.index('data-day="2026-03-03"')]
    tuesday = html[html.index('data-day="2026-03-03"'):html.index('data-day="2026-03-04"')]
    assert "data-state>seen<" in monday and "tried" not in monday
    assert "data-state>tried<" in tuesday
