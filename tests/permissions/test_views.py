"""The matrix's pages and endpoints: every URL pattern of the site (but the admin's, in
test_admin.py) has rows in `matrix.VIEWS`, and each role gets the outcome its cell says,
changes only what an allowed write changes, and never sees a scenario's secrets (bot seeds,
a guest's session key). docs/permissions.md is the matrix rendered."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import pytest
from django.db import transaction
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.utils import timezone

from games.records import history
from tests.module_db import module_rows
from tests.permissions import matrix
from tests.permissions.world import People, Scene, build, make_people, snapshot

ROOT = Path(__file__).resolve().parents[2]
SIGN_IN = ("/accounts/login/", "/admin/login/")


def url_names(patterns: Any = None, namespace: str = "") -> list[tuple[str, str]]:
    """Every named URL pattern, walked through the resolver: (name, route)."""
    out = []
    for p in get_resolver().url_patterns if patterns is None else patterns:
        if isinstance(p, URLResolver):
            ns = namespace
            if p.namespace:
                ns = f"{namespace}:{p.namespace}" if namespace else p.namespace
            out += [(n, str(p.pattern) + r) for n, r in url_names(p.url_patterns, ns)]
        elif isinstance(p, URLPattern):
            name = p.name or f"<unnamed {p.lookup_str}>"
            out.append((f"{namespace}:{name}" if namespace else name, str(p.pattern)))
    return out


def test_every_url_pattern_has_rows():
    site = {name for name, _ in url_names() if not name.startswith("admin:")}
    covered = {row.name for row in matrix.VIEWS}
    assert site - covered == set(), "URL patterns without a row in tests/permissions/matrix.py"
    assert covered - site == set(), "rows of URL patterns that no longer exist"


def test_rows_are_unique_and_complete():
    keys = [(r.name, r.method, r.scenario) for r in matrix.VIEWS]
    assert len(keys) == len(set(keys))
    for row in matrix.VIEWS:
        assert set(row.expect) == set(matrix.ROLES), row
        assert row.scenario in matrix.SCENARIOS, row


def test_the_docs_are_the_matrix_rendered():
    text = (ROOT / "docs" / "permissions.md").read_text()
    assert text == matrix.render(), \
        "docs/permissions.md is stale: python -m tests.permissions.matrix > docs/permissions.md"


# --- asserting each row ----------------------------------------------------------------------


URL_KWARGS = {
    "daily:day": {"day": "past_day"}, "puzzles:week": {"monday": "monday"},
    "accounts:user": {"username": "username"}, "accounts:games": {"username": "username"},
    "api:profile": {"username": "username"}, "api:export": {"username": "username"},
    "api:challenge_create": {"username": "username"},
}


def url_of(row: matrix.ViewRow, scene: Scene) -> str:
    if row.data == "review_key":
        return reverse(row.name, kwargs={"key": "no-such-review"})
    if row.data == "unsubscribe-token":
        return reverse(row.name, kwargs={"token": "not-a-signed-link"})
    if row.data == "token-id":
        return reverse(row.name, kwargs={"token_id": 999999})
    if row.data == "app-id":
        return reverse(row.name, kwargs={"app_id": 999999})
    if row.data == "oauth-authorize":  # an app registered in this cell's transaction
        from tests.api.oauth_flow import authorize_url, pkce, register_app

        return authorize_url(register_app(), "read", pkce())
    if row.data == "email_key":
        return reverse(row.name, kwargs={"key": "no-such-key"})
    if row.data == "reset_key":
        return reverse(row.name, kwargs={"uidb36": "1", "key": "no-such-key"})
    if row.name == "howto-game":
        return reverse(row.name, kwargs={"game": "cargo-express"})
    if row.name in URL_KWARGS:
        return reverse(row.name, kwargs={k: scene.kwargs[v]
                                         for k, v in URL_KWARGS[row.name].items()})
    for key in ("game_id", "challenge_id", "tournament_id"):
        try:
            return reverse(row.name, kwargs={key: scene.kwargs[key]})
        except Exception:
            continue
    if row.name.startswith("puzzles:") and row.name not in ("puzzles:index", "puzzles:merge"):
        return reverse(row.name, kwargs={"day": scene.kwargs["day"]})
    return reverse(row.name)


def request_data(row: matrix.ViewRow, scene: Scene) -> tuple[dict[str, Any] | str, str | None]:
    """The request's parameters, and its content type when it sends a JSON body."""
    kind = row.data
    if kind == "games:turn":
        return {"ply": scene.ply(), "token": scene.player_token()}, None
    if kind == "games:resign":
        return {"ply": scene.ply()}, None
    if kind == "after":
        return {"after": 0}, None
    if kind == "analysis":
        return {"ply": 0, "line": ""}, None
    if kind == "seek":
        return {"size": 5, "mode": "lobby", "color": "random", "time_control": "10+5"}, None
    if kind == "quick":
        return {"size": 5, "time_control": "10+5"}, None
    if kind == "start":
        return {"level": "easy"}, None
    if kind == "api-token":
        return {"name": "matrix", "scopes": ["read"], "lifetime": "30"}, None
    if kind == "theme":
        return {"theme": "light"}, None
    if kind == "notification-settings":
        return {"in_site": ["your_turn"], "by_email": ["your_turn"], "digest": "on"}, None
    if kind == "push-subscription":
        return json.dumps({"endpoint": "https://push.example.com/send/1", "keys": {
            "p256dh": "BA" + "A" * 85, "auth": "A" * 22}}), "application/json"
    if kind == "push-endpoint":
        return json.dumps({"endpoint": "https://push.example.com/send/1"}), "application/json"
    if kind == "claim":
        return {"result": "win"}, None
    if kind == "bot":
        return {"level": "easy", "size": 5, "color": "blue"}, None
    if kind == "bots":
        return {"game_type": "cargo-express", "players": 3, "level_1": "easy",
                "level_2": "hard", "seat": "random", "time_control": "untimed"}, None
    if kind == "tournament":
        start = timezone.now() + dt.timedelta(days=1)
        return {"name": "Matrix Cup", "game": "cargo-connect", "rounds": 3,
                "time_control": "5+3", "starts_at": start.strftime("%Y-%m-%dT%H:%M"),
                "tz_offset": 0}, None
    if kind == "daily":
        return {"difficulty": "medium"}, None
    if kind in ("puzzle", "puzzle-turn", "merge"):
        body: dict[str, Any] = {"tokens": []}
        if kind == "puzzle-turn":
            body["token"] = "a+a1a2a3a4"
        if kind == "merge":
            body = {"entries": []}
        return json.dumps(body), "application/json"
    return {}, None


def outcome_of(row: matrix.ViewRow, response: Any, changed: bool) -> str:
    status = response.status_code
    if status in (301, 302):
        location = response["Location"]
        if location.startswith(SIGN_IN):
            return "sign-in"
        if row.allowed.startswith("302") and location.startswith(row.allowed.split()[1]) \
                and (changed or row.writes is not True):
            return "allowed"
        if row.method == "POST" and not changed:
            return "refused"
        return f"302 {location}"
    if str(status) == row.allowed:
        return "allowed" if changed or row.writes is not True else f"{status} (no change)"
    detail = ""
    if response.get("Content-Type", "").startswith("application/json"):
        detail = response.json().get("code", "")
    elif "games/hidden.html" in [t.name for t in response.templates]:
        detail = "hidden"
    return f"{status} {detail}".strip()


def run_cell(row: matrix.ViewRow, role: str, people: People, scene: Scene
             ) -> tuple[str, list[str]]:
    """One role's request in the scene, rolled back after (so each role finds the same
    scene): its outcome, and any secret of the scene the response contained."""
    history.recent.clear()  # per process, not rolled back
    with transaction.atomic():
        client = people.client(role, scene)
        url = url_of(row, scene)
        data, content_type = request_data(row, scene)
        before = snapshot()
        if row.method == "GET":
            response = client.get(url, data)
        elif content_type:
            response = client.post(url, data, content_type=content_type)
        else:
            response = client.post(url, data)
        changed = snapshot() != before
        outcome = outcome_of(row, response, changed)
        if changed and (outcome != "allowed" or row.writes is False):
            outcome += " (and it changed something)"
        body = response.content.decode(errors="replace")
        leaked = [secret for secret in scene.secrets if secret in body]
        if row.scenario in matrix.HIDDEN_TODAY and role != "player" \
                and response.get("Content-Type", "").startswith("application/json"):
            # a refusal of a hidden game tells nothing of it: no ply, no state
            answer = response.json()
            if answer.get("ply") is not None or "state" in answer:
                leaked.append(f"the hidden game's ply or state: {answer}")
        transaction.set_rollback(True)
    return outcome, leaked


def row_id(row: matrix.ViewRow) -> str:
    return f"{row.name} {row.method} {row.scenario}"


@pytest.fixture(scope="module")
def made(django_db_setup, django_db_blocker):
    """(people, the `site` scene): made once for the module, rolled back at its end (each
    test's own transaction, a savepoint inside it, is rolled back after the test). The other
    scenarios' scenes are still built per test, in its transaction: scenes of different
    scenarios together would change each other's rows' outcomes (alice's Daily Challenge
    games pick each daily scene's difficulty and day, her games count against her pace
    for a new one, an arena pairs only players not already playing). The `site` scene,
    whose rows are a third of the matrix, is a published week with one puzzle, the week
    before it and no game: no other scenario's row reads the Weekly Puzzles (games,
    challenges, tables, tournaments and the Daily Challenge), so it is there for every
    row, as the people are."""
    with module_rows(django_db_blocker):
        with django_db_blocker.unblock():
            people = make_people()
            site = build("site", people)
        yield people, site


@pytest.fixture
def people(made, db) -> People:
    return made[0]


@pytest.fixture
def site_scene(made, db) -> Scene:
    return made[1]


@pytest.mark.parametrize("row", matrix.VIEWS, ids=row_id)
def test_each_role_gets_its_outcome(row, people, site_scene):
    expected, actual, leaks = {}, {}, {}
    scene = site_scene if row.scenario == "site" else build(row.scenario, people)
    for role in matrix.ROLES:
        want = row.outcome(role)
        if want == matrix.NA:
            continue
        expected[role] = want
        actual[role], leaked = run_cell(row, role, people, scene)
        if leaked:
            leaks[role] = leaked
    assert actual == expected
    assert leaks == {}, "secrets in responses"
