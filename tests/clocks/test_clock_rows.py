"""The clock arithmetic on its own (games.timing.clocks, pure): rows written before several clocks
could run at once load and behave as they always did; running clocks started at different
moments are kept, each charged from its own start, and saved in the row's form."""

import datetime as dt

from games.timing.clocks import LAG_ALLOWANCE_MS, Clocks, parse

SINCE = dt.datetime(2026, 12, 1, 12, 0, tzinfo=dt.UTC)
LIVE = parse("5+3")


def after(seconds: float) -> dt.datetime:
    return SINCE + dt.timedelta(seconds=seconds)


def test_a_row_of_one_running_clock_is_as_it_was():
    row = {"left": [200_000, 300_000], "moved": [0, 1], "running": [1]}
    clocks = Clocks.load(LIVE, row, SINCE)
    assert clocks.dump() == row and (clocks.since, clocks.running) == (SINCE, [1])
    assert clocks.flag_at == after(300 + LAG_ALLOWANCE_MS / 1000)
    assert clocks.fallen_seats(after(301)) == [] and clocks.fallen_seats(after(301.001)) == [1]
    assert clocks.remaining(after(60)) == [200_000, 240_000]

    clocks.after_turn(1, after(10), [0], over=False)
    assert clocks.dump() == {"left": [200_000, 300_000 - 9_000 + 3_000], "moved": [0, 1],
                             "running": [0]}
    assert (clocks.since, clocks.flag_at) == (after(10), after(10 + 201))
    clocks.stop(after(20))
    assert clocks.dump()["left"][0] == 200_000 - 9_000 and clocks.since is None


def test_an_old_row_with_several_running_clocks_runs_them_all_from_its_since():
    row = {"left": [100_000, 200_000, 300_000], "moved": [0, 1, 2], "running": [0, 1, 2]}
    clocks = Clocks.load(LIVE, row, SINCE)
    assert clocks.flag_at == after(101)
    clocks.after_turn(0, after(50), [1, 2], over=False)
    assert clocks.dump() == {"left": [100_000 - 49_000 + 3_000, 200_000, 300_000],
                             "moved": [0, 1, 2], "running": [1, 2]}
    assert clocks.since == SINCE  # the two still deciding run on from it
    assert clocks.remaining(after(60)) == [54_000, 140_000, 240_000]


def test_clocks_started_at_different_moments_are_saved_and_loaded():
    clocks = Clocks.new(LIVE, [True, True, True])
    clocks.moved = [0, 1, 2]
    clocks.start([0, 1, 2], SINCE)
    clocks.after_turn(1, after(20), [0, 1, 2], over=False)  # seat 1 decides again
    row = clocks.dump()
    assert row == {"left": [300_000, 300_000 - 19_000 + 3_000, 300_000], "moved": [0, 1, 2],
                   "running": [0, 1, 2], "started_ms": [0, 20_000, 0]}
    loaded = Clocks.load(LIVE, row, SINCE)
    assert loaded == clocks and loaded.flag_at == after(301)

    assert clocks.fallen_seats(after(301.5)) == [0, 2]  # seat 1 started later
    assert clocks.fallen_seats(after(20 + 285.001)) == [0, 2, 1]
    clocks.stop(after(30))  # each keeps what it used from its own start
    assert clocks.left == [300_000 - 29_000, 284_000 - 9_000, 300_000 - 29_000]


def test_a_seat_no_longer_acting_stops_without_restarting_the_others():
    clocks = Clocks.load(LIVE, {"left": [300_000] * 3, "moved": [0, 1, 2],
                                "running": [0, 1, 2]}, SINCE)
    clocks.start([0, 2], after(30))  # seat 1 is out (it resigned)
    assert clocks.dump() == {"left": [300_000, 300_000 - 29_000, 300_000],
                             "moved": [0, 1, 2], "running": [0, 2]}
    assert clocks.since == SINCE
    clocks.ran_out(2)
    assert (clocks.left[2], clocks.running) == (0, [0])


def test_correspondence_gives_each_decision_its_days_again():
    days = parse("1d")
    clocks = Clocks.load(days, {"left": [86_400_000] * 3, "moved": [0, 1, 2],
                                "running": [0, 1, 2]}, SINCE)
    clocks.after_turn(2, after(3600), [0, 1], over=False)
    assert clocks.left == [86_400_000] * 3 and clocks.running == [0, 1]
    assert clocks.remaining(after(7200)) == [86_400_000 - 7_200_000] * 2 + [86_400_000]
