"""The API's pages for people, server-rendered: the member's personal access tokens (made
with a name, scopes and a lifetime; the token shown once, on the page that answers the
form; revoked with a button) and the apps they authorised (revoked with a button), and
the API's reference, read from the same OpenAPI description the site serves
(`api.site`)."""

from __future__ import annotations

import json
import re
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.bots import bot_since

from . import oauth, tokens
from .forms import TokenForm
from .scopes import parse


@login_required
@never_cache
@require_http_methods(["GET", "POST"])
def token_settings(request: HttpRequest) -> HttpResponse:
    """GET: the member's tokens and the form. POST: a new token, shown on this answer only
    (never again: the page after it, and every later one, shows its first characters)."""
    made = None
    status = 200
    if request.method == "POST":
        form = TokenForm(request.POST)
        if form.is_valid():
            try:
                made = tokens.create(request.user, form.cleaned_data["name"],
                                     parse(form.cleaned_data["scopes"]),
                                     tokens.LIFETIMES[form.cleaned_data["lifetime"]])
                form = TokenForm()
            except tokens.TokenRefused as refused:
                form.add_error(None, str(refused))
        if made is None:
            status = 400
    else:
        form = TokenForm()
    return render(request, "api/tokens.html", {
        "form": form, "made": made, "tokens": tokens.of_member(request.user),
        "apps": oauth.authorised(request.user),
        "bot_since": bot_since(request.user)}, status=status)


@login_required
@require_POST
def revoke_token(request: HttpRequest, token_id: int) -> HttpResponse:
    if tokens.revoke(request.user, token_id):
        messages.success(request, "The token is revoked: it opens nothing any more.")
    else:
        messages.error(request, "No such token of yours to revoke (it may be revoked "
                       "already).")
    return redirect("api-tokens")


@login_required
@require_POST
def revoke_app(request: HttpRequest, app_id: int) -> HttpResponse:
    """Revoke every token the member gave an app: it opens nothing of theirs any more."""
    if oauth.revoke_app(request.user, app_id):
        messages.success(request, "The app's access is revoked: its tokens open nothing "
                         "any more.")
    else:
        messages.error(request, "That app holds no access of yours to revoke.")
    return redirect("api-tokens")


@require_GET
def reference(request: HttpRequest) -> HttpResponse:
    """The API's reference page: every operation of the description, with its scope,
    parameters and example, drawn by the site's template."""
    from .site import api

    description = api.get_openapi_schema(path_prefix="/api/")
    return render(request, "api/reference.html", {
        "operations": operations(description), "info": description["info"]})


def operations(description: dict[str, Any]) -> list[dict[str, Any]]:
    """The description's operations in path order, flattened for the template."""
    out = []
    for path, methods in description["paths"].items():
        for method, op in methods.items():
            example = None
            for answer in op.get("responses", {}).values():
                for media, content in answer.get("content", {}).items():
                    if "example" in content:
                        example = (media, json.dumps(content["example"], indent=2)
                                   if media == "application/json" else content["example"])
                        break
                if example:
                    break
            out.append({
                "method": method.upper(), "path": path, "summary": op.get("summary", ""),
                "description": prose(op.get("description", "")), "id": op.get("operationId", ""),
                "scope": op.get("x-scope", ""),
                "parameters": [{"name": p["name"], "in": p["in"],
                                "required": p.get("required", False),
                                "description": p.get("description", "")}
                               for p in op.get("parameters", [])],
                "errors": sorted({str(code) for code in op.get("responses", {})} - {"200"}),
                "example": example})
    return out


def prose(text: str) -> SafeString:
    """A description's text for the page: escaped, `code` spans as <code>, paragraphs
    joined by a line break."""
    html = re.sub(r"`([^`]+)`", r"<code>\1</code>", str(escape(text)))
    return mark_safe("<br>".join(part.replace("\n", " ") for part in html.split("\n\n")))  # noqa: S308
