"""The matrix's API rows (`matrix.API_TOKENS`): each member role sends a token of their own
with the `read` scope, a guest and a signed-out browser none; each gets the outcome its
cell says, nothing changes, and no response carries a scenario's secrets. Every API
endpoint has rows here (and its session rows in `matrix.VIEWS`)."""

from __future__ import annotations

import pytest
from django.db import transaction
from django.test import Client

from api import limits, tokens
from api.scopes import Scope
from games.records import history
from tests.permissions import matrix
from tests.permissions.test_views import outcome_of, row_id, url_of
from tests.permissions.world import ROLE_USERS, People, Scene, build, snapshot


def test_every_api_endpoint_has_token_rows():
    assert {row.name for row in matrix.API_TOKENS} == {
        *matrix.API_ENDPOINTS, *matrix.API_WRITES, "api:board_decision", "api:bot_decision"}


def scope_of(row: matrix.ViewRow) -> Scope:
    if row.name.startswith(("api:challenge_", "api:table_")):
        return Scope.CHALLENGE_WRITE
    return {"api:board_decision": Scope.BOARD_PLAY, "api:bot_decision": Scope.BOT_PLAY,
            "api:bot_upgrade": Scope.BOT_PLAY}.get(row.name, Scope.READ)


def client_of(role: str, people: People, scene: Scene, scope: Scope = Scope.READ) -> Client:
    if role in ("guest", "signed_out") or (role == "player" and scene.player_guest):
        return Client()
    token = tokens.create(people.users[ROLE_USERS[role]], "matrix", [scope], None).token
    return Client(HTTP_AUTHORIZATION=f"Bearer {token}")


# A decision never taken: its number far ahead of any scene's game.
FAR_AHEAD = '{"ply": 999, "token": "a"}'


def request(row: matrix.ViewRow, client: Client, url: str):
    if row.method == "POST":
        return client.post(url, data=FAR_AHEAD, content_type="application/json")
    return client.get(url)


def run_cell(row: matrix.ViewRow, role: str, people: People, scene: Scene
             ) -> tuple[str, list[str]]:
    history.recent.clear()
    limits.clear(limits.per_address(), "127.0.0.1")
    with transaction.atomic():
        client = client_of(role, people, scene, scope_of(row))
        before = snapshot()
        response = request(row, client, url_of(row, scene))
        content = b"".join(response.streaming_content) if response.streaming \
            else response.content
        changed = snapshot() != before
        outcome = outcome_of(row, response, changed)
        if changed and (outcome != "allowed" or row.writes is not True):
            outcome += " (and it changed something)"
        body = content.decode(errors="replace")
        leaked = [secret for secret in scene.secrets if secret in body]
        if row.scenario in matrix.HIDDEN_TODAY and response.status_code == 403:
            answer = response.json()
            if set(answer) != {"code", "error"}:
                leaked.append(f"the hidden game's refusal says more: {answer}")
        transaction.set_rollback(True)
    return outcome, leaked


@pytest.mark.parametrize("row", matrix.API_TOKENS, ids=row_id)
def test_each_role_gets_its_outcome_with_its_own_token(row, people):
    expected, actual, leaks = {}, {}, {}
    scene = build(row.scenario, people)
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
