"""How to play Cargo Express explains the seed hash and the stacks' fingerprints exactly as
the site computes them (issue #42, point 12; web.md 2 and 5), and pre-turns and kept drafts
(point 16): its worked example's texts, hashed again here, give the hashes it shows, and
those are the kind's own (`seed_hash`, `plan_salt`, `plan_hash`)."""

import hashlib
import re

import pytest

from express.table import plan_hash, plan_salt, seed_hash


def sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


@pytest.mark.django_db
def test_the_fair_play_section_shows_how_each_hash_is_made(client):
    html = client.get("/how-to-play/cargo-express").content.decode()
    assert 'id="fair"' in html and 'href="#fair"' in html
    texts = dict(re.findall(r'data-fair-text="(\w+)">([^<]+)</code>', html))
    hashes = dict(re.findall(r'data-fair-hash="(\w+)">([0-9a-f]+)</code>', html))
    assert set(texts) == set(hashes) == {"seed", "salt", "fingerprint"}
    game, seed = texts["seed"].split(":")[1:]
    assert texts["seed"] == f"cargo-express:{game}:{seed}"
    assert hashes["seed"] == sha(texts["seed"]) == seed_hash(game, seed)
    assert hashes["salt"] == sha(texts["salt"])[:32]
    _, _, round_, seat = texts["salt"].split(":")
    assert hashes["salt"] == plan_salt(seed, int(round_), int(seat) - 1)
    seat2, round2, stack, salt = texts["fingerprint"].split(":")
    assert (seat2, round2, salt) == (seat, round_, hashes["salt"])
    assert hashes["fingerprint"] == sha(texts["fingerprint"]) == plan_hash(
        int(seat) - 1, int(round_), stack, salt)
    for words in ("SHA-256", "UTF-8", "first 32 hex digits", "top first", "Verified",
                  "Does not match", "SeedHash"):
        assert words in html, words


@pytest.mark.django_db
def test_it_explains_pre_turns_and_kept_drafts(client):
    html = client.get("/how-to-play/cargo-express").content.decode()
    assert 'id="ahead"' in html and 'href="#ahead"' in html
    for words in ("pre-turn", "if they are still legal", "ends the queue", "reload"):
        assert words in html, words
