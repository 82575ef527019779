"""Trial 7 (issue #28, point 3): sign-in, sign-up and password reset through nginx, from a
fresh browser each (`Browser`: cookies and the CSRF token), answer the same with Redis
stopped as with Redis up."""

from __future__ import annotations

import asyncio
import http.cookiejar
import time
import urllib.error
import urllib.parse
import urllib.request
from typing import Any

from live_client import insecure_context

from .harness import Trial
from .rows import fresh
from .servers import OwnRedis, Topology, wait_for


class Browser:
    """A browser's cookies and CSRF token against the topology, through nginx."""

    def __init__(self, top: Topology) -> None:
        self.top = top
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(self.jar),
            urllib.request.HTTPSHandler(context=insecure_context()), NoRedirect())

    def request(self, path: str, form: dict[str, str] | None = None) -> tuple[int, str]:
        data = None
        headers = {"Accept": "text/html"}
        if form is not None:
            token = next((c.value for c in self.jar if c.name == "csrftoken"), "")
            data = urllib.parse.urlencode({**form, "csrfmiddlewaretoken": token}).encode()
            headers.update({"Origin": self.top.base, "Referer": self.top.base + path})
        request = urllib.request.Request(self.top.base + path, data=data, headers=headers)
        try:
            with self.opener.open(request, timeout=15) as response:
                return response.status, response.read().decode(errors="replace")
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode(errors="replace")

    def post(self, path: str, form: dict[str, str]) -> int:
        self.request(path)  # the form page: its CSRF cookie
        return self.request(path, form)[0]


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


@fresh
def verified_member(name: str, password: str) -> None:
    from allauth.account.models import EmailAddress
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.create_user(name, f"{name}@example.com", password)
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)


def account_flows(top: Topology, tag: str) -> dict[str, int]:
    """Sign-in (a wrong password, then the right one), sign-up and a password reset, each
    from a fresh browser through nginx: their HTTP statuses."""
    password = "a-long-cargo-pass"
    name = f"acct-{tag}"
    verified_member(name, password)
    return {
        "sign_in_wrong_password": Browser(top).post(
            "/accounts/login/", {"login": name, "password": "wrong"}),
        "sign_in": Browser(top).post("/accounts/login/", {"login": name, "password": password}),
        "sign_up": Browser(top).post("/accounts/signup/", {
            "username": f"new-{tag}", "email": f"new-{tag}@example.com",
            "password1": password, "password2": password}),
        "password_reset": Browser(top).post("/accounts/password/reset/",
                                            {"email": f"{name}@example.com"}),
    }


async def trial_accounts_without_redis(top: Topology, redis: OwnRedis) -> Trial:
    """Issue #28, point 3: allauth's rate limits live in the cache; with Redis down sign-in
    answered 500. Each flow must answer as it does with Redis up."""
    trial = Trial("sign-in, sign-up and password reset while Redis is down")
    up = await asyncio.to_thread(account_flows, top, "up")
    trial.figures["with_redis"] = up
    await asyncio.to_thread(redis.stop)
    try:
        await asyncio.sleep(0.5)
        started = time.perf_counter()
        down = await asyncio.to_thread(account_flows, top, "down")
        trial.figures["flows_while_down_s"] = round(time.perf_counter() - started, 2)
    finally:
        await asyncio.to_thread(redis.start)
    trial.figures["with_redis_down"] = down
    trial.check(down == up, f"while Redis was down: {down}, with Redis up: {up}")
    trial.check(not [s for s in down.values() if s >= 500], f"a 5xx while Redis was down: {down}")
    await asyncio.to_thread(wait_for, "healthz", lambda: top.get("/healthz")[0] == 200, 30)
    return trial
