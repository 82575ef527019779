"""Results written as people read them, in the profile's game lists."""

import pytest

from accounts.profile import result_words

PLAYED_OUT = "played_out"


@pytest.mark.parametrize("args, words", [
    (("win", 21, 14), "won 21–14"),
    (("loss", 11, 14), "lost by 3"),
    (("loss", 14, 14), "lost on the tiebreak, 14–14"),
    (("draw", 12, 12), "drew 12–12"),
    (("win", -4, -14), "won −4 to −14"),
])
def test_a_played_out_result(args, words):
    assert result_words(*args, resigned=False, other_resigned=False,
                        termination=PLAYED_OUT) == words


def test_resignations_and_time():
    kw = {"termination": "resigned"}
    assert result_words("loss", -14, -14, resigned=True, other_resigned=False, **kw) == \
        "resigned"
    assert result_words("win", -14, -14, resigned=False, other_resigned=True, **kw) == \
        "won by resignation"
    assert result_words("loss", 3, 9, resigned=True, other_resigned=False,
                        termination="timed_out") == "lost on time"


@pytest.mark.django_db
def test_the_profile_lists_them(users, play, client):
    play.resign(users["alice"], users["bob"])
    html = client.get("/@/alice").content.decode()
    assert "won by resignation" in html
    assert "resigned" in client.get("/@/bob").content.decode()
