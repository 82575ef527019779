"""The notification pages, thin: the list (members only; opening it marks what it shows
read), the catch-up a page asks for when its socket comes back, the settings page, the
unsubscribe link of the emails (no sign-in: the signed link is the proof), a browser's web
push subscription (JSON, members only) and the service worker, served from the site's
root so that its scope is the whole site."""

from __future__ import annotations

import json
from pathlib import Path

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core import signing
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts import emails

from . import choices, inbox, mail, subscriptions
from .forms import SettingsForm


@login_required
@never_cache
@require_GET
def notification_list(request: HttpRequest) -> HttpResponse:
    items = inbox.open_list(request.user)
    return render(request, "notifications/list.html", {"items": items})


@login_required
@never_cache
@require_GET
def status(request: HttpRequest) -> JsonResponse:
    return JsonResponse(inbox.status(request.user))


@login_required
@require_http_methods(["GET", "POST"])
def settings_page(request: HttpRequest) -> HttpResponse:
    if request.method == "POST":
        form = SettingsForm(request.POST)
        if form.is_valid():
            choices.save(request.user, **form.cleaned_data)
            messages.success(request, "Your notification settings are saved.")
            return redirect("notifications:settings")
    else:
        now = choices.of_member(request.user)
        form = SettingsForm(initial={"in_site": sorted(now.in_site),
                                     "by_email": sorted(now.by_email),
                                     "by_push": sorted(now.by_push),
                                     "digest": now.digest, "alarm": now.alarm})
    return render(request, "notifications/settings.html",
                  {"form": form, "has_email": bool(getattr(request.user, "email", "")),
                   "unconfirmed": emails.unconfirmed(request.user),
                   "push_offered": subscriptions.offered(),
                   "push_key": subscriptions.public_key()}, status=
                  400 if request.method == "POST" else 200)


def _json_body(request: HttpRequest) -> object:
    try:
        return json.loads(request.body or b"null")
    except (ValueError, UnicodeDecodeError):
        raise subscriptions.BadSubscription("the body is not JSON") from None


@login_required
@require_POST
def push_subscribe(request: HttpRequest) -> JsonResponse:
    """This browser's Push API subscription for the signed-in member: 201, or 400 with
    the reason and nothing saved, or 409 if another member holds that endpoint."""
    try:
        subscriptions.subscribe(request.user, _json_body(request))
    except subscriptions.SubscriptionTaken as refused:
        return JsonResponse({"error": str(refused), "taken": True}, status=409)
    except subscriptions.BadSubscription as refused:
        return JsonResponse({"error": str(refused)}, status=400)
    return JsonResponse({"subscribed": True}, status=201)


@login_required
@require_POST
def push_unsubscribe(request: HttpRequest) -> JsonResponse:
    """Forget this browser's subscription (`{"endpoint": url}`) of the member."""
    try:
        gone = subscriptions.unsubscribe(request.user, _json_body(request))
    except subscriptions.BadSubscription as refused:
        return JsonResponse({"error": str(refused)}, status=400)
    return JsonResponse({"unsubscribed": gone})


SERVICE_WORKER = Path(__file__).resolve().parent / "service-worker.js"


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker (a plain JS file beside this module), at /sw.js: served from
    the root, its scope is every page. Checked again on every registration."""
    response = HttpResponse(SERVICE_WORKER.read_bytes(), content_type="text/javascript")
    response["Cache-Control"] = "no-cache"
    return response


@csrf_exempt  # a mail client's one-click POST (RFC 8058) has no token: the signature is
@never_cache
@require_http_methods(["GET", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    try:
        user_id, what = mail.read_token(token)
    except signing.BadSignature:
        return render(request, "notifications/unsubscribe.html", {"bad": True}, status=400)
    choices.unsubscribe(user_id, what)
    return render(request, "notifications/unsubscribe.html",
                  {"what": "the daily email" if what == "digest" else "the deadline alarm"})
