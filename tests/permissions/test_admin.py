"""The matrix's admin: every admin URL pattern belongs to a row (a model of the site's apps
has a row per view, a model of another app the superuser-only rows), every admin action
of the site's models has its row, and each role gets its cell's outcome; the admin shows
no bot seed and no guest's session key.

The admin's world (`AdminWorld`: a dozen scenes made through the services, games played and
rated among them) is made once for the module (tests.module_db): every cell already runs in
a transaction rolled back after it, so each test and each role still finds the same rows.
Making it per test was about 1.4 s of each of the 157 tests (issue #43, session 28)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.contrib import admin
from django.contrib.contenttypes.models import ContentType
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from accounts.models import Player
from chat import services as chat
from chat.models import Report as ChatReport
from chat.models import Silence
from games import services
from games.actors import Actor
from games.models import Challenge, Game, Turn
from puzzles import schedule
from puzzles.daily import admin as daily_admin
from puzzles.daily.models import DailyGame, DailyVoid
from puzzles.models import Progress, Puzzle
from rankings.models import BotRatingChange, RatingChange
from tests.module_db import module_rows
from tests.permissions import matrix
from tests.permissions.test_views import url_names
from tests.permissions.world import (
    ADMIN_APPS,
    PUZZLE_RECORD,
    People,
    build,
    make_people,
    snapshot,
)
from tournaments import services as tournaments
from tournaments.models import Pairing, Schedule

pytestmark = pytest.mark.django_db

SITE_VIEWS = {row.view for row in matrix.ADMIN if row.target == "site"}
MODEL_URLS = {"changelist": "changelist", "add": "add", "change": "change",
              "change POST": "change", "delete": "delete", "delete POST": "delete",
              "history": "history"}


def registered() -> dict[str, admin.ModelAdmin]:
    return {model._meta.label_lower: model_admin
            for model, model_admin in admin.site._registry.items()}


def ours(label: str) -> bool:
    return label.split(".")[0] in ADMIN_APPS


def test_every_admin_url_has_a_row():
    models = {label.replace(".", "_"): label for label in registered()}
    covered = {row.target for row in matrix.ADMIN}
    for name, _route in url_names():
        if not name.startswith("admin:"):
            continue
        if name in SITE_VIEWS or name == "admin:<unnamed django.views.generic.base.RedirectView>":
            continue  # the old object URL, redirected to its change page
        if name == "admin:<unnamed django.contrib.admin.sites.AdminSite.catch_all_view>":
            assert "catch-all" in SITE_VIEWS
            continue
        rest = name[len("admin:"):]
        model = next((m for m in sorted(models, key=len, reverse=True)
                      if rest.startswith(m + "_")), None)
        assert model is not None, f"{name} has no row in tests/permissions/matrix.py"
        label, view = models[model], rest[len(model) + 1:]
        if ours(label):  # another app's own views are that app's (a superuser's)
            assert view in MODEL_URLS.values() and label in covered, name
        else:
            assert matrix.OTHER_MODELS in covered, name


def test_every_model_of_the_sites_apps_has_its_rows():
    for label in registered():
        if not ours(label):
            continue
        views = {row.view for row in matrix.ADMIN if row.target == label}
        assert set(matrix.MODEL_VIEWS) <= views, label


def test_every_admin_action_has_a_row():
    for label, model_admin in registered().items():
        if not ours(label):
            continue
        actions = {name for _, name, _ in model_admin._get_base_actions()}
        rows = {row.view.split(" ", 1)[1] for row in matrix.ADMIN
                if row.target == label and row.view.startswith("action ")}
        # delete_selected is offered only where the superuser may delete
        deletable = next(r for r in matrix.ADMIN
                         if r.target == label and r.view == "delete POST"
                         ).expect["superuser"] == "allowed"
        assert rows == actions if deletable else rows == actions - {"delete_selected"}, label


# --- the objects each row acts on --------------------------------------------------------------


class AdminWorld:
    """One of each row the admin lists, made through the services; recorders stand in for
    the actions that would run the solver or the generator, so that running them shows."""

    def __init__(self, people: People, monkeypatch: pytest.MonkeyPatch) -> None:
        self.calls: list[str] = []
        online = build("online", people).game
        assert online is not None
        services.apply_turn(online.id, actor=Actor.member(people.users["alice"]), ply=0,
                            token="a")
        over = build("online-over", people)  # rated: a RatingChange per player
        bot = build("bot-over", people)  # a BotRatingChange
        daily = build("daily", people)
        from puzzles.daily import services as daily_services

        daily_services.void(daily.game_id, "a test", source=DailyVoid.Source.SITE)
        guest = build("guest-bot", people)
        build("challenge", people)
        build("site", people)
        puzzle = Puzzle.objects.get()
        Progress.objects.create(user=people.users["carol"], puzzle=puzzle, attempts=1)
        Player.objects.get_or_create(user=people.users["alice"])
        said = chat.post(online.id, chat.Reader(Actor.member(people.users["alice"]), True),
                         "a message to moderate")
        chat.report(online.id, chat.Reader(Actor.member(people.users["carol"]), False),
                    "players", said.seq)
        chat.silence([people.users["bob"].pk], hours=1, reason="a test")
        swiss = tournaments.create_tournament(
            name="A Swiss", game_type="cargo-connect", rounds=3,
            starts_at=timezone.now() + dt.timedelta(days=1), options={"size": 5})
        recurring = Schedule.objects.create(
            name="Daily {date}", game_type="cargo-connect", rounds=3, options={"size": 5},
            next_at=timezone.now() + dt.timedelta(days=1))
        tournaments.join(swiss, people.users["alice"])
        build("arena", people)  # an arena game: its Pairing row
        self.objects = {
            "games.game": online, "games.turn": Turn.objects.first(),
            "games.challenge": Challenge.objects.first(),
            "daily.dailygame": DailyGame.objects.first(), "daily.dailyvoid":
                DailyVoid.objects.first(),
            "rankings.ratingchange": RatingChange.objects.first(),
            "rankings.botratingchange": BotRatingChange.objects.first(),
            "accounts.player": Player.objects.first(), "puzzles.puzzle": puzzle,
            "puzzles.week": puzzle.week, "puzzles.progress": Progress.objects.first(),
            "chat.message": said, "chat.report": ChatReport.objects.first(),
            "chat.silence": Silence.objects.first(), "tournaments.tournament": swiss,
            "tournaments.entry": swiss.entries.first(), "tournaments.schedule": recurring,
            "tournaments.pairing": Pairing.objects.first(),
        }
        assert all(self.objects.values()), self.objects
        self.secrets = [s for scene in (over, bot, daily, guest) for s in scene.secrets]
        for module, name in ((schedule, "draft_week"), (schedule, "publish"),
                             (daily_admin.services, "void_outdated")):
            monkeypatch.setattr(module, name, self.recorder(name))
        from puzzles import admin as puzzles_admin

        monkeypatch.setattr(puzzles_admin.validation, "validate", self.recorder("validate"))

    def recorder(self, name: str) -> Any:
        def record(*args: Any, **kwargs: Any) -> Any:
            self.calls.append(name)
            if name == "draft_week":
                return None, []
            if name == "validate":
                return Puzzle.Validation.RUNNING
            if name == "void_outdated":
                return daily_admin.services.VoidReport()
            return 0

        return record

    def state(self) -> tuple:
        return (snapshot(), tuple(self.calls), RatingChange.objects.count(),
                BotRatingChange.objects.count(), Player.objects.count(),
                DailyVoid.objects.count(), Turn.objects.count(), Progress.objects.count())


def change_data(label: str, obj: Any) -> dict[str, Any]:
    """A valid change form for the models whose form may be saved."""
    if label == "puzzles.puzzle":
        return {"record": PUZZLE_RECORD, "week": obj.week_id, "day": obj.day,
                "note": "edited"}
    if label == "puzzles.week":
        return {"monday": obj.monday.isoformat(), "note": "edited",
                "puzzles-TOTAL_FORMS": "1", "puzzles-INITIAL_FORMS": "1",
                "puzzles-MIN_NUM_FORMS": "0", "puzzles-MAX_NUM_FORMS": "1000",
                "puzzles-0-id": obj.puzzles.get().pk, "puzzles-0-week": obj.pk}
    if label == "chat.silence":
        until = obj.until + dt.timedelta(hours=1)
        return {"member": obj.member_id, "until_0": until.date().isoformat(),
                "until_1": until.time().strftime("%H:%M:%S"), "reason": "edited"}
    if label == "tournaments.schedule":
        at = obj.next_at + dt.timedelta(hours=1)
        return {"name": "Edited {date}", "game_type": obj.game_type, "system": "swiss",
                "rounds": 4, "time_control": "", "options": '{"size": 5}', "rated": "on",
                "table_size": "", "max_players": 32, "every_hours": 24, "lead_minutes": 30,
                "next_at_0": at.date().isoformat(), "next_at_1": at.time().strftime("%H:%M:%S"),
                "active": "on"}
    return {"note": "edited"}


def admin_client(role: str, people: People) -> Any:
    from django.test import Client

    client = Client()
    if role == "guest":
        client.cookies["sessionid"] = people.guest
    elif role != "signed_out":
        client.force_login(people.users[{"member": "carol", "staff": "sam",
                                         "staff_view": "vera", "staff_change": "max",
                                         "superuser": "root"}[role]])
    return client


def outcome_of(row: matrix.AdminRow, response: Any, changed: bool) -> str:
    status = response.status_code
    writes = row.view in ("change POST", "delete POST") or row.view.startswith("action ")
    if status == 302 and response["Location"].startswith("/admin/login/"):
        return "sign-in"
    if status in (200, 302) and writes:
        if changed:
            return "allowed"
        return "refused" if row.view.startswith("action ") else f"{status} (no change)"
    if status == 200:
        return "allowed"
    if status == 302:
        return f"302 {response['Location']}"
    return str(status)


def request(row: matrix.AdminRow, label: str, client: Any, world: AdminWorld) -> Any:
    if row.target == "site":
        kwargs: dict[str, Any] = {}
        if row.view == "admin:app_list":
            kwargs = {"app_label": "games"}
        if row.view == "catch-all":
            return client.get("/admin/no-such-page/")
        if row.view == "admin:view_on_site":
            game = world.objects["games.game"]
            kwargs = {"content_type_id": ContentType.objects.get_for_model(Game).pk,
                      "object_id": game.pk}
        return client.get(reverse(row.view, kwargs=kwargs))
    app, model = label.split(".")
    base = f"admin:{app}_{model}_"
    if row.view.startswith("action "):
        obj = world.objects[label]
        return client.post(reverse(base + "changelist"), {
            "action": row.view.split(" ", 1)[1], "_selected_action": [obj.pk],
            "index": 0, "post": "yes"})
    name = base + MODEL_URLS[row.view]
    if row.view in ("changelist", "add"):
        return client.get(reverse(name))
    obj = world.objects[label]
    url = reverse(name, args=[obj.pk])
    if row.view == "change POST":
        return client.post(url, change_data(label, obj))
    if row.view == "delete POST":
        return client.post(url, {"post": "yes"})
    return client.get(url)


def run_cell(row: matrix.AdminRow, label: str, role: str, people: People,
             world: AdminWorld) -> tuple[str, list[str]]:
    """One role's request, rolled back after (so each role finds the same world)."""
    world.calls.clear()
    with transaction.atomic():
        client = admin_client(role, people)
        if row.view == "action show_selected":  # shows a hidden message: hide it first
            type(world.objects[label]).objects.filter(pk=world.objects[label].pk) \
                .update(hidden=True)
        before = world.state()
        response = request(row, label, client, world)
        changed = world.state() != before
        outcome = outcome_of(row, response, changed)
        writes = row.view in ("change POST", "delete POST") or row.view.startswith("action ")
        if changed and (outcome != "allowed" or not writes):
            outcome += " (and it changed something)"
        body = response.content.decode(errors="replace")
        leaked = [s for s in world.secrets if s in body]
        transaction.set_rollback(True)
    return outcome, leaked


def labels_of(row: matrix.AdminRow) -> list[str]:
    if row.target == matrix.OTHER_MODELS:
        return sorted(label for label in registered() if not ours(label))
    return [row.target]


@pytest.fixture(scope="module")
def made(django_db_setup, django_db_blocker):
    """(people, world): made once for the module, rolled back at its end; the recorders
    stay in place as long (a module-wide `MonkeyPatch`)."""
    with module_rows(django_db_blocker), pytest.MonkeyPatch.context() as patches:
        with django_db_blocker.unblock():
            people = make_people()
            world = AdminWorld(people, patches)
        yield people, world


@pytest.fixture
def people(made, db) -> People:
    return made[0]


@pytest.fixture
def world(made, db) -> AdminWorld:
    made[1].calls.clear()
    return made[1]


@pytest.mark.parametrize("row", matrix.ADMIN, ids=lambda r: f"{r.target} {r.view}")
def test_each_role_gets_its_outcome(row, people, world):
    expected, actual, leaks = {}, {}, {}
    for role in matrix.ADMIN_ROLES:
        expected[role] = row.outcome(role)
        seen = set()
        for label in labels_of(row):
            outcome, leaked = run_cell(row, label, role, people, world)
            seen.add(outcome)
            if leaked:
                leaks[(role, label)] = leaked
        actual[role] = seen.pop() if len(seen) == 1 else f"mixed {sorted(seen)}"
    assert actual == expected
    assert leaks == {}, "secrets in admin pages"


def test_the_admin_shows_no_seed_and_no_guest_key(people, world):
    client = admin_client("superuser", people)
    pages = [reverse("admin:games_game_change", args=[g.pk]) for g in Game.objects.all()]
    pages += [reverse("admin:daily_dailygame_change", args=[d.pk])
              for d in DailyGame.objects.all()]
    pages += [reverse("admin:games_game_changelist"), reverse("admin:daily_dailygame_changelist")]
    for page in pages:
        body = client.get(page).content.decode()
        assert [s for s in world.secrets if s in body] == [], page
    assert len(world.secrets) >= 3  # two bot seeds and a guest's key were looked for
