"""A strict Content-Security-Policy (scripts and styles from our own files only, no inline
script or style) and a Permissions-Policy on every page; no template has an inline script
or a style attribute; `check --deploy --fail-level WARNING` passes in production."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = ["/", "/accounts/login/", "/accounts/signup/", "/play/", "/how-to-play"]


def policy(header: str) -> dict[str, list[str]]:
    out = {}
    for part in header.split(";"):
        words = part.split()
        if words:
            out[words[0]] = words[1:]
    return out


@pytest.mark.django_db
@pytest.mark.parametrize("url", PAGES)
def test_every_page_has_a_strict_csp_and_a_permissions_policy(client, url):
    response = client.get(url, follow=True)
    assert response.status_code == 200, url
    csp = policy(response.headers["Content-Security-Policy"])
    assert csp["script-src"] == ["'self'"] and csp["style-src"] == ["'self'"]
    assert csp["object-src"] == ["'none'"] and csp["frame-ancestors"] == ["'none'"]
    assert not any("unsafe" in word for words in csp.values() for word in words)
    permissions = response.headers["Permissions-Policy"]
    for feature in ("camera=()", "microphone=()", "geolocation=()", "payment=()"):
        assert feature in permissions


@pytest.mark.django_db
@pytest.mark.parametrize("url", PAGES)
def test_rendered_pages_have_no_inline_script_or_style(client, url):
    html = client.get(url, follow=True).content.decode()
    for tag in re.findall(r"<script\b[^>]*>", html):
        assert "src=" in tag or 'type="application/json"' in tag, (url, tag)
    assert not re.search(r"<[a-z][^>]*\sstyle=", html), url
    assert not re.search(r"\son[a-z]+=", html), url
    assert "<style" not in html, url


@pytest.mark.django_db
def test_the_game_page_has_the_policy_and_no_inline_script(client, game):
    response = client.get(f"/g/{game.id}")
    assert response.status_code == 200
    assert policy(response.headers["Content-Security-Policy"])["script-src"] == ["'self'"]
    for tag in re.findall(r"<script\b[^>]*>", response.content.decode()):
        assert "src=" in tag or 'type="application/json"' in tag, tag


def test_no_template_has_an_inline_script_or_style():
    for path in (ROOT / "templates").rglob("*.html"):
        text = path.read_text()
        for tag in re.findall(r"<script\b[^>]*>", text):
            assert "src=" in tag, (path, tag)
        assert not re.search(r"\sstyle=", text), path
        assert not re.search(r"<[a-z][^>]*\son[a-z]+=", text), path


def test_check_deploy_passes_at_warning_level(run_python):
    result = run_python(
        "import django; django.setup(); from django.core.management import call_command; "
        "call_command('check', '--deploy', '--fail-level', 'WARNING')",
        DJANGO_DEBUG="0", DJANGO_SECRET_KEY="k" * 60 + "-deploy-check-Zq9",
        DJANGO_ALLOWED_HOSTS="cargo.example")
    assert result.returncode == 0, result.stderr[-2000:]
