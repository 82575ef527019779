"""The API's lean request path (cargosite/apipath.py; docs/api.md, "The API's lean request
path"): the NinjaAPI's URLs go through API_MIDDLEWARE, every other URL (the reference page
at /api/, an unknown /api/… address, every page) through the site's MIDDLEWARE; the API's
answers are the same both ways, status, body and headers, but `Vary: Cookie` (the
sessions middleware's, read by the page stack's presence check); API_LEAN_PATH=0 puts
every request back through MIDDLEWARE. Under ASGI (the site's application, as uvicorn
drives it) and through Django's test client alike."""

from __future__ import annotations

import asyncio
import importlib.metadata
import json
import re
from pathlib import Path
from typing import Any

import pytest
from django.core.handlers.asgi import ASGIHandler
from django.test import Client, override_settings
from django.urls import URLPattern, URLResolver, get_resolver, resolve

from api.scopes import Scope
from cargosite import apipath
from tests.api.support import finished_game, member, token_for

ROOT = Path(__file__).resolve().parents[2]
PAGES = ["/", "/api/", "/api/no-such-endpoint", "/api/bot/game/x/no-such-door",
         "/accounts/tokens/", "/oauth/authorize/", "/play/", "/how-to-play", "/apix",
         "/static/css/site.css", "/healthz"]
ONLY_PAGES_NEED = {"vary"}  # the answer's headers the API's stack leaves out


@pytest.fixture(autouse=True)
def lean_on(settings):
    """The switch on for these tests, whatever the environment says (`make
    test-api-lean-off` runs them too); a test turns it off where it compares."""
    settings.API_LEAN_PATH = True


def sample(route: str) -> str:
    """A real path for a URL pattern's route: each parameter given a value of its type."""
    def value(found: re.Match[str]) -> str:
        return "1" if found.group(1) == "int" else "AbCd1234"

    return re.sub(r"<(?:(\w+):)?\w+>", value, route)


def api_paths() -> list[str]:
    """A path of every URL pattern the NinjaAPI serves (its root aside)."""
    entry = next(e for e in get_resolver().url_patterns
                 if isinstance(e, URLResolver) and e.namespace == apipath.API_NAMESPACE)
    out = []
    for pattern in entry.url_patterns:
        assert isinstance(pattern, URLPattern)
        if pattern.name != apipath.API_ROOT:
            out.append("/api/" + sample(str(pattern.pattern)))
    return out


def test_every_api_url_takes_the_lean_path_and_is_the_api_s_for_the_site_too():
    paths = api_paths()
    assert "/api/openapi.json" in paths and len(paths) > 20
    for path in paths:
        assert apipath.takes(path), path
        match = resolve(path)  # the site's resolver agrees: the same view, the API's
        assert match.namespace == apipath.API_NAMESPACE, path


@pytest.mark.parametrize("path", PAGES)
def test_a_page_or_an_unknown_api_address_never_takes_the_lean_path(path):
    assert not apipath.takes(path)


def test_the_libraries_are_at_the_versions_the_lean_middlewares_were_read_at():
    pins = {}
    for line in (ROOT / "requirements.txt").read_text().splitlines():
        found = re.match(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;\\]+)", line)
        if found:
            pins[found.group(1).lower()] = found.group(2)
    for library, version in apipath.PINNED.items():
        assert pins.get(library.lower()) == version, (library, pins.get(library.lower()))
        assert importlib.metadata.version(library) == version, library


# -- the answers, both ways -------------------------------------------------------------------

def requests(game_id: str, token: str) -> list[tuple[str, str, dict[str, str], bytes]]:
    """(method, path, headers, body): answers of every kind, each changing nothing."""
    auth = {"authorization": f"Bearer {token}"}
    return [
        ("GET", "/api/user/marta", auth, b""),  # 200 JSON
        ("GET", f"/api/game/{game_id}", auth, b""),
        ("GET", "/api/user/marta", {}, b""),  # 401 no_token, WWW-Authenticate
        ("GET", "/api/user/nobody-at-all", auth, b""),  # the API's JSON 404
        ("GET", "/api/games/user/marta?max=5", auth, b""),  # NDJSON, streamed
        ("POST", f"/api/board/game/{game_id}/decision",
         {**auth, "content-type": "application/json"}, b"{not json"),  # 400
        ("POST", f"/api/board/game/{game_id}/abort", auth, b""),  # 409 game_over
        ("DELETE", "/api/user/marta", auth, b""),  # 405, django-ninja's
        ("GET", "/api/openapi.json", {}, b""),
    ]


@pytest.fixture
def asked(transactional_db):
    marta, kofi = member("marta"), member("kofi")
    game = finished_game(marta, kofi)
    return requests(game.id, token_for(marta, Scope.READ, Scope.BOARD_PLAY))


async def served(app: Any, method: str, path: str, headers: dict[str, str], body: bytes,
                 scheme: str = "http") -> tuple[int, dict[str, str], bytes]:
    """An ASGI application's whole answer, as uvicorn drives it."""
    inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    inbox.put_nowait({"type": "http.request", "body": body, "more_body": False})
    path, _, query = path.partition("?")
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
             "method": method, "scheme": scheme, "path": path, "raw_path": path.encode(),
             "query_string": query.encode(), "root_path": "",
             "client": ("127.0.0.1", 50000), "server": ("testserver", 80),
             "headers": [(k.encode(), v.encode())
                         for k, v in {"host": "testserver", **headers}.items()]}
    answer: dict[str, Any] = {"body": b""}

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            answer["status"] = message["status"]
            answer["headers"] = {k.decode().lower(): v.decode() for k, v in message["headers"]}
        else:
            answer["body"] += message.get("body", b"")

    await asyncio.wait_for(app({**scope}, inbox.get, send), 20)
    return answer["status"], answer["headers"], answer["body"]


def through_client(method: str, path: str, headers: dict[str, str], body: bytes
                   ) -> tuple[int, dict[str, str], bytes]:
    response = Client().generic(method, path, data=body, headers=headers,
                                content_type=headers.get("content-type", ""))
    content = b"".join(response.streaming_content) if response.streaming \
        else response.content
    return response.status_code, {k.lower(): v for k, v in response.headers.items()}, content


def same_but_page_headers(lean: tuple[int, dict[str, str], bytes],
                          full: tuple[int, dict[str, str], bytes], what: str) -> None:
    assert lean[0] == full[0], what
    assert lean[2] == full[2], what
    assert set(full[1]) - set(lean[1]) == ONLY_PAGES_NEED, what  # the page stack's Vary
    assert full[1]["vary"] == "Cookie", what
    assert set(lean[1]) <= set(full[1]), what
    for name, value in lean[1].items():
        assert full[1][name] == value, (what, name)


def the_site() -> Any:
    """The site's ASGI application, the lean path on or off by API_LEAN_PATH."""
    return apipath.route(site=ASGIHandler(), api=apipath.ApiASGIHandler())


def test_under_asgi_every_api_answer_is_the_full_stack_s_but_vary_cookie(asked):
    app = the_site()

    async def both() -> None:
        for method, path, headers, body in asked:
            lean = await served(app, method, path, headers, body)
            with override_settings(API_LEAN_PATH=False):
                full = await served(app, method, path, headers, body)
            same_but_page_headers(lean, full, f"{method} {path}")
            assert "vary" not in lean[1]
            assert lean[1]["x-frame-options"] == "DENY"
            assert "content-security-policy" in lean[1] or lean[0] in (404, 500)
            assert "camera=()" in lean[1]["permissions-policy"]

    asyncio.run(both())


def test_through_the_test_client_every_api_answer_is_the_full_stack_s(asked):
    for method, path, headers, body in asked:
        lean = through_client(method, path, headers, body)
        with override_settings(API_LEAN_PATH=False):
            full = through_client(method, path, headers, body)
        same_but_page_headers(lean, full, f"{method} {path}")


def test_asgi_and_the_test_client_give_the_same_api_answer(asked):
    app = the_site()
    for method, path, headers, body in asked:
        under_asgi = asyncio.run(served(app, method, path, headers, body))
        assert through_client(method, path, headers, body) == under_asgi, f"{method} {path}"


@pytest.mark.django_db(transaction=True)
def test_https_the_security_headers_and_the_redirect_are_the_site_s():
    with override_settings(SECURE_HSTS_SECONDS=3600, SECURE_SSL_REDIRECT=True):
        app = the_site()  # the middlewares read these settings when they are made
        secure = asyncio.run(served(app, "GET", "/api/openapi.json", {}, b"", "https"))
        plain = asyncio.run(served(app, "GET", "/api/openapi.json", {}, b"", "http"))
        with override_settings(API_LEAN_PATH=False):
            full_secure = asyncio.run(served(app, "GET", "/api/openapi.json", {}, b"",
                                             "https"))
            full_plain = asyncio.run(served(app, "GET", "/api/openapi.json", {}, b"", "http"))
    assert secure[1]["strict-transport-security"] == "max-age=3600"
    same_but_page_headers(secure, full_secure, "https")
    assert plain[0] == full_plain[0] == 301
    assert plain[1]["location"] == full_plain[1]["location"] \
        == "https://testserver/api/openapi.json"
    for name in ("x-content-type-options", "referrer-policy", "cross-origin-opener-policy"):
        assert secure[1][name] == full_secure[1][name], name


@pytest.mark.django_db(transaction=True)
def test_a_host_the_site_does_not_serve_is_refused_on_the_lean_path_too():
    app = the_site()
    bad = {"host": "evil.example"}

    async def ask() -> tuple[int, int]:
        lean = await served(app, "GET", "/api/openapi.json", bad, b"")
        with override_settings(API_LEAN_PATH=False):
            full = await served(app, "GET", "/api/openapi.json", bad, b"")
        return lean[0], full[0]

    with override_settings(ALLOWED_HOSTS=["testserver"]):
        assert asyncio.run(ask()) == (400, 400)


# -- which stack answered -----------------------------------------------------------------------

class Recorder:
    def __init__(self, name: str, seen: list[tuple[str, str]]) -> None:
        self.name, self.seen = name, seen

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        self.seen.append((self.name, scope["path"]))


def routed(paths: list[str]) -> list[tuple[str, str]]:
    seen: list[tuple[str, str]] = []
    app = apipath.route(site=Recorder("site", seen), api=Recorder("api", seen))
    for path in paths:
        scope = {"type": "http", "path": path, "root_path": ""}
        asyncio.run(app(scope, None, None))
    return seen


def test_asgi_routes_the_api_s_urls_to_its_stack_and_every_page_to_the_site_s():
    api = api_paths()
    assert routed(api + PAGES) == [("api", p) for p in api] + [("site", p) for p in PAGES]


def test_with_the_switch_off_asgi_routes_everything_to_the_site_s_stack():
    api = api_paths()
    with override_settings(API_LEAN_PATH=False):
        assert routed(api) == [("site", p) for p in api]


@pytest.mark.django_db(transaction=True)
def test_a_page_through_the_site_s_application_takes_the_page_stack():
    from cargosite.asgi import application

    home = asyncio.run(served(application, "GET", "/how-to-play", {}, b""))
    assert home[0] == 200 and home[1]["vary"] == "Cookie"  # the sessions middleware ran
    reference = asyncio.run(served(application, "GET", "/api/", {}, b""))
    assert reference[0] == 200 and b"<html" in reference[2].lower()
    unknown = asyncio.run(served(application, "GET", "/api/no-such-endpoint", {}, b""))
    assert unknown[0] == 404 and b"<html" in unknown[2].lower()  # the site's 404 page


@pytest.mark.django_db(transaction=True)
def test_the_site_s_application_answers_the_api_on_the_lean_path():
    from cargosite.asgi import application

    answer = asyncio.run(served(application, "GET", "/api/openapi.json", {}, b""))
    assert answer[0] == 200 and json.loads(answer[2])["openapi"] == "3.1.0"
    assert "vary" not in answer[1] and answer[1]["x-frame-options"] == "DENY"
    with override_settings(API_LEAN_PATH=False):
        full = asyncio.run(served(application, "GET", "/api/openapi.json", {}, b""))
    assert full[1]["vary"] == "Cookie"


def test_with_the_switch_off_the_test_client_s_stack_is_the_site_s_whole():
    from django.test.client import ClientHandler

    on = ClientHandler()
    on.load_middleware()
    with override_settings(API_LEAN_PATH=False):
        off = ClientHandler()
        off.load_middleware()

    def first(handler: ClientHandler) -> Any:
        chain: Any = handler._middleware_chain
        return getattr(chain, "__wrapped__", chain)

    assert isinstance(first(on), apipath.ApiRouteMiddleware)
    assert not isinstance(first(off), apipath.ApiRouteMiddleware)


@pytest.mark.django_db
def test_through_the_test_client_the_api_skips_the_page_stack_and_pages_do_not():
    marta = member("marta")
    token = token_for(marta, Scope.READ)
    api = Client().get("/api/user/marta", headers={"authorization": f"Bearer {token}"})
    assert api.status_code == 200 and "Vary" not in api.headers
    page = Client().get("/how-to-play")
    assert page.status_code == 200 and page.headers["Vary"] == "Cookie"
    with override_settings(API_LEAN_PATH=False):
        full = Client().get("/api/user/marta", headers={"authorization": f"Bearer {token}"})
    assert full.headers["Vary"] == "Cookie" and full.content == api.content


@pytest.mark.django_db(transaction=True)
def test_a_signed_in_browser_s_cookie_opens_nothing_on_the_lean_path_either():
    marta = member("marta")
    browser = Client()
    browser.force_login(marta)
    cookie = f"sessionid={browser.cookies['sessionid'].value}"

    async def ask() -> tuple[int, bytes]:
        status, _, body = await served(the_site(), "GET", "/api/user/marta",
                                       {"cookie": cookie}, b"")
        return status, body

    status, body = asyncio.run(ask())
    assert status == 401 and json.loads(body)["code"] == "no_token"


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_under_asgi_the_api_stack_stays_on_the_event_loop_until_the_view(monkeypatch):
    """Every API_MIDDLEWARE middleware runs on the loop's thread; the view on another."""
    import threading

    from django_permissions_policy import PermissionsPolicyMiddleware

    loop_thread = threading.get_ident()
    seen: list[tuple[str, int]] = []
    for cls in (apipath.SecurityMiddleware, apipath.CSPMiddleware,
                apipath.CommonMiddleware, apipath.XFrameOptionsMiddleware):
        original = cls.process_response

        def noting(self: Any, request: Any, response: Any, _o: Any = original,
                   _n: str = cls.__name__) -> Any:
            seen.append((_n, threading.get_ident()))
            return _o(self, request, response)

        monkeypatch.setattr(cls, "process_response", noting)
    applied = PermissionsPolicyMiddleware._apply_headers

    def noting_policy(self: Any, response: Any) -> Any:
        seen.append(("PermissionsPolicyMiddleware", threading.get_ident()))
        return applied(self, response)

    monkeypatch.setattr(PermissionsPolicyMiddleware, "_apply_headers", noting_policy)
    status, _, _ = await served(apipath.ApiASGIHandler(), "GET", "/api/user/marta", {}, b"")
    assert status == 401
    assert sorted(name for name, _ in seen) == sorted(
        ["SecurityMiddleware", "CSPMiddleware", "CommonMiddleware",
         "XFrameOptionsMiddleware", "PermissionsPolicyMiddleware"])
    assert {thread for _, thread in seen} == {loop_thread}
