"""The game the site offers first is a setting (DEFAULT_GAME_KIND, games.kinds.default_kind),
not a literal in each app (issue #44, point 3): with Cargo Express named, the lobby offers
its seek form first at the lobby's own address, the rankings show its board without
`?type=`, a profile's always-shown cards are its rating's, and a game against its bots
counts for no rating (its bots have no fixed ratings, the kind's `bot_ratings`)."""

import pytest
from django.test import override_settings
from django.urls import reverse

from accounts.profile import _ratings, default_game_cards
from games.kinds import default_kind, first_kinds_first, get_kind
from games.models import Challenge, Game
from rankings.boards import game_types
from rankings.ratings import bot_ratings

pytestmark = pytest.mark.django_db

EXPRESS = "cargo-express"


def test_cargo_connect_is_the_default_and_its_bots_have_fixed_ratings():
    assert default_kind().key == "cargo-connect" == Game().game_type
    assert dict(bot_ratings("cargo-connect")) == {"easy": 800, "medium": 1200, "hard": 1600}
    assert dict(bot_ratings(EXPRESS)) == {}
    assert dict(bot_ratings("no-such-game")) == {}


@override_settings(DEFAULT_GAME_KIND=EXPRESS)
def test_the_setting_puts_another_game_first_everywhere(client, django_user_model):
    assert default_kind().key == EXPRESS
    assert Game().game_type == Challenge().game_type == EXPRESS  # the models' default
    assert game_types()[0][0] == EXPRESS
    kinds = first_kinds_first([get_kind("cargo-connect"), get_kind(EXPRESS)])
    assert [k.key for k in kinds] == [EXPRESS, "cargo-connect"]

    lobby = client.get(reverse("games:index"))
    assert lobby.status_code == 200
    assert lobby.context["kind"].key == EXPRESS  # the lobby's own seek form
    assert [k["key"] for k in lobby.context["kinds"]][0] == EXPRESS

    rankings = client.get(reverse("rankings:index") + "?tab=elo")
    assert rankings.status_code == 200
    assert rankings.context["board"].extra["game_type"] == EXPRESS

    member = django_user_model.objects.create_user("dora", password="pw-for-dora-1")
    cards = _ratings(member)
    assert [c["key"] for c in cards] == ["openskill"]  # ExpressBots have no fixed ratings
    assert cards[0]["note"] == "online games against people"


def test_cargo_connects_cards_keep_their_keys_and_name_its_bots():
    cards = default_game_cards(get_kind("cargo-connect"))
    assert [(key, label) for _, key, label, _ in cards] == [
        ("elo", "Elo rating"), ("bot", "vs CargoBot rating")]
