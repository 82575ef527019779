"""A round's start tells its players (tournaments.signals.round_started, heard by the
notifications app after commit): one notification per paired member linked to their game,
one for a bye linked to the tournament's page, nothing when the start rolls back
(docs/tournaments.md, "Notifications")."""

from __future__ import annotations

import pytest
from django.db import transaction
from django.urls import reverse

from notifications.models import Kind, Notification
from tests.tournaments.test_swiss_services import current, members, swiss
from tournaments import rounds, services
from tournaments.models import Sitting
from tournaments.signals import round_started

pytestmark = pytest.mark.django_db


def test_round_one_tells_each_paired_member_and_the_bye(django_capture_on_commit_callbacks):
    t = swiss()
    people = members(5)
    for member in people:
        services.join(t, member)
    with django_capture_on_commit_callbacks(execute=True):
        assert services.tick() == [f"{t.id}: round 1 started"]
    rows = {n.user_id: n for n in Notification.objects.filter(kind=Kind.TOURNAMENT_ROUND)}
    assert set(rows) == {m.pk for m in people}  # one each
    for sitting in Sitting.objects.filter(round=current(t)).select_related("table", "entry"):
        row = rows[sitting.entry.user_id]
        if sitting.table.game_id is None:
            assert row.text == "Round 1 of Test Swiss: you have a bye this round"
            assert row.url == reverse("tournaments:detail", args=[t.id])
            assert row.game_id is None
        else:
            assert row.text == "Round 1 of Test Swiss has started: play now"
            assert row.game_id == sitting.table.game_id
            assert row.url == reverse("games:game", kwargs={"game_id": sitting.table.game_id})
        assert row.in_site and row.read_at is None


def test_a_start_rolled_back_tells_no_one(django_capture_on_commit_callbacks):
    t = swiss()
    for member in members(4):
        services.join(t, member)
    heard: list[object] = []

    def listen(sender: object, **kwargs: object) -> None:
        heard.append(kwargs)

    round_started.connect(listen, dispatch_uid="test-listen")
    try:
        with django_capture_on_commit_callbacks(execute=True):
            with transaction.atomic():
                rounds.start_round(t)
                transaction.set_rollback(True)
    finally:
        round_started.disconnect(dispatch_uid="test-listen")
    assert heard == []
    assert not Notification.objects.exists()
    assert current(t) is None


def test_a_failing_listener_leaves_the_round_started(django_capture_on_commit_callbacks,
                                                     caplog):
    t = swiss()
    for member in members(4):
        services.join(t, member)

    def broken(sender: object, **kwargs: object) -> None:
        raise RuntimeError("a listener broke")

    round_started.connect(broken, dispatch_uid="test-broken")
    try:
        with django_capture_on_commit_callbacks(execute=True):
            rounds.start_round(t)
    finally:
        round_started.disconnect(dispatch_uid="test-broken")
    assert current(t).number == 1
    assert Notification.objects.filter(kind=Kind.TOURNAMENT_ROUND).count() == 4
    assert "a listener broke" in caplog.text


def test_members_with_push_get_the_round_pushed(django_capture_on_commit_callbacks,
                                                 monkeypatch):
    from notifications import choices, notify

    t = swiss()
    people = members(4)
    for member in people:
        services.join(t, member)
    pushed: list[Notification] = []
    monkeypatch.setattr(choices.subscriptions, "offered", lambda: True)
    monkeypatch.setattr(choices.subscriptions, "subscribed", lambda ids: {people[0].pk})
    monkeypatch.setattr(notify.push, "send_on_commit", pushed.extend)
    with django_capture_on_commit_callbacks(execute=True):
        rounds.start_round(t)
    assert [row.user_id for row in pushed] == [people[0].pk]
    assert pushed[0].kind == Kind.TOURNAMENT_ROUND
