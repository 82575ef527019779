"""Members' progress on the server (attempts, solves, following them to another session),
the figures after solving, the solution line, and guests' signed proofs."""

from django.test import Client

from puzzles.models import Progress

from .conftest import SOLVE, post, url


def test_member_progress_follows_to_another_session(live_week, member):
    first, second = Client(), Client()
    first.force_login(member)
    second.force_login(member)
    post(first, url(0, "turn"), {"tokens": [], "token": "b"})  # attempt 1: out of turns
    r = post(first, url(0, "turn"), {"tokens": [], "token": SOLVE})  # attempt 2: solved
    assert r.json()["progress"] == {"attempts": 2, "solved": True, "solved_in": 2,
                                    "shown": False}
    week = second.get("/puzzles/").content.decode()
    assert 'state-solved" data-state>solved' in week
    page = second.get(url(0)).context["page"]
    assert page["progress"]["solved"] and page["progress"]["solved_in"] == 2
    assert page["figures"]["solvers"] == 1


def test_an_attempt_counts_when_its_first_turn_is_accepted(client, live_week, member):
    client.force_login(member)
    line = live_week.puzzles.get(day=3).solution.split()
    post(client, url(3, "turn"), {"tokens": [], "token": line[0]})
    post(client, url(3, "state"), {"tokens": []})  # undo back to the Start
    post(client, url(3, "turn"), {"tokens": [], "token": line[0]})  # a new attempt
    p = Progress.objects.get(user=member)
    assert p.attempts == 2 and not p.solved
    assert 'state-tried" data-state>tried' in client.get("/puzzles/").content.decode()


def test_figures_after_solving(live_week, django_user_model):
    def solve_as(name, tries):
        c = Client()
        c.force_login(django_user_model.objects.create_user(name, f"{name}@x.org", "pw-long-1"))
        for _ in range(tries - 1):
            post(c, url(0, "turn"), {"tokens": [], "token": "b"})
        return post(c, url(0, "turn"), {"tokens": [], "token": SOLVE}).json()

    solve_as("bob", 1)
    solve_as("carol", 3)
    figures = solve_as("dave", 1)["figures"]
    assert figures["solvers"] == 3
    assert figures["attempts"] == [[1, 2], [3, 1]]
    assert figures["first_turn"] == SOLVE and figures["first_turn_share"] == 100


def test_figures_are_refused_before_solving(client, live_week, member):
    client.force_login(member)
    assert post(client, url(0, "figures"), {}).status_code == 403


def test_the_solution_line_is_stepped_and_a_later_solve_does_not_count(client, live_week,
                                                                        member):
    client.force_login(member)
    r = post(client, url(3, "solution"), {}).json()
    line = live_week.puzzles.get(day=3).solution.split()
    assert r["line"] == line
    assert [s["token"] for s in r["steps"]] == [None, *line]
    assert r["steps"][-1]["state"]["puzzle"]["status"] == "solved"
    assert r["progress"]["shown"]
    for i, token in enumerate(line):
        post(client, url(3, "turn"), {"tokens": line[:i], "token": token})
    p = Progress.objects.get(user=member)
    assert p.solved and not p.unaided
    assert post(client, url(3, "figures"), {}).json()["figures"]["solvers"] == 0


def test_a_guest_gets_a_signed_proof_and_nothing_is_stored(client, live_week):
    r = post(client, url(0, "turn"), {"tokens": [], "token": SOLVE}).json()
    assert r["proof"] and "progress" not in r
    assert not Progress.objects.exists()
    assert post(client, url(0, "figures"), {"proof": r["proof"]}).status_code == 200
    assert post(client, url(0, "figures"), {"proof": r["proof"] + "x"}).status_code == 403
    # A proof is for one puzzle only.
    assert post(client, url(1, "figures"), {"proof": r["proof"]}).status_code == 403


def test_puzzles_count_nowhere_else(live_week, member):
    from games.models import Game, Seat
    from rankings.models import RatingChange

    c = Client()
    c.force_login(member)
    post(c, url(0, "turn"), {"tokens": [], "token": SOLVE})
    assert not Game.objects.exists() and not Seat.objects.exists()
    assert not RatingChange.objects.exists()
