"""Look-alike usernames are refused at sign-up: names are stored NFKC, unique without
regard to case, and a name whose skeleton (accounts/usernames.py) matches a member's is
refused."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from accounts.usernames import skeleton

SIGNED_UP = iter(range(1, 10_000))


def sign_up(_client, username):
    """Each sign-up from a fresh browser (a signed-in one is sent home)."""
    n = [next(SIGNED_UP)]
    return Client().post("/accounts/signup/", {
        "username": username, "email": f"user{n[0]}@example.com",
        "password1": "a-long-cargo-pass", "password2": "a-long-cargo-pass"})


@pytest.fixture
def alice(db):
    return get_user_model().objects.create_user("alice", "alice@example.com",
                                                "a-long-cargo-pass")


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["ａｌｉｃｅ",   # fullwidth
                                  "аlice",       # Cyrillic а
                                  "ALICE", "Alice",
                                  "a1ice",       # digit one for l
                                  "аlісе"])      # Cyrillic а, і, с, е around a Latin l
def test_a_look_alike_of_an_existing_name_is_refused(client, alice, name):
    response = sign_up(client, name)
    assert response.status_code == 200, name  # the form again, with the error
    assert get_user_model().objects.count() == 1


@pytest.mark.django_db
def test_the_fullwidth_look_alike_from_the_probe_is_refused(client):
    assert sign_up(client, "relalice").status_code == 302
    assert sign_up(client, "ｒｅｌａｌｉｃｅ").status_code == 200
    assert list(get_user_model().objects.values_list("username", flat=True)) == ["relalice"]


@pytest.mark.django_db
def test_names_are_stored_in_nfkc(client):
    assert sign_up(client, "ｅｒｉｎ").status_code == 302
    assert get_user_model().objects.filter(username="erin").exists()


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["alicia", "bob", "josé", "alice2"])
def test_different_names_are_accepted(client, alice, name):
    assert sign_up(client, name).status_code == 302, name


def test_the_skeleton_folds_width_and_script():
    assert {skeleton(n) for n in ["alice", "ａｌｉｃｅ", "аlice", "a1ice"]} == {skeleton("alice")}
    assert skeleton("josé") != skeleton("jose")


@pytest.mark.django_db
@pytest.mark.parametrize(("member", "look_alike"), [
    ("alicep", "aIicep"),   # capital I for l: mapped before folding, not folded to i
    ("mary", "rnary"),      # rn for m (Unicode's confusables: m → rn)
    ("rnary", "mary"),
    ("wendy", "vvendy"),    # vv for w
    ("dave", "clave"),      # cl for d
    ("maxwell", "rnaxvvell"),
])
def test_look_alikes_from_the_probe_are_refused(member, look_alike):
    """Issue #28, point 7: each was accepted beside the member's name."""
    get_user_model().objects.create_user(member, f"{member}@example.com", "a-long-cargo-pass")
    assert sign_up(None, look_alike).status_code == 200, look_alike
    assert get_user_model().objects.count() == 1


def test_the_skeleton_maps_before_folding_and_covers_sequences():
    assert skeleton("aIicep") == skeleton("alicep") != skeleton("aiicep")
    assert skeleton("rnary") == skeleton("mary") == skeleton("Mary")
    assert skeleton("vvendy") == skeleton("wendy")
    assert skeleton("clave") == skeleton("dave")
