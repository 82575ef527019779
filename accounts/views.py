"""Profile pages: thin views over `accounts.profile`. Any letter case of a username finds
the member and redirects to their own spelling; a deactivated account has no profile."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse

from common.errors import styled_404

from . import profile as queries


def _member_or_redirect(request: HttpRequest, username: str, name: str) -> tuple:
    found = queries.find_member(username)
    if found is None:
        raise Http404("no such player")
    user, misspelled = found
    if misspelled:
        url = reverse(name, kwargs={"username": user.get_username()})
        query = request.GET.urlencode()
        return user, redirect(f"{url}?{query}" if query else url)
    return user, None


@styled_404
def profile(request: HttpRequest, username: str) -> HttpResponse:
    user, moved = _member_or_redirect(request, username, "accounts:user")
    if moved is not None:
        return moved
    viewer = request.user if request.user.is_authenticated else None
    vs = None
    vs_name = request.GET.get("vs", "").strip()
    vs_missing = False
    if vs_name:
        found = queries.find_member(vs_name)
        vs, vs_missing = (found[0], False) if found else (None, True)
    context = queries.profile(user, viewer=viewer, vs=vs)
    context.update(vs_name=vs_name, vs_missing=vs_missing)
    return render(request, "accounts/profile.html", context)


@styled_404
def games(request: HttpRequest, username: str) -> HttpResponse:
    user, moved = _member_or_redirect(request, username, "accounts:games")
    if moved is not None:
        return moved
    page, rows = queries.games_page(user, request.GET.get("page"))
    return render(request, "accounts/games.html",
                  {"profile_user": user, "page": page, "rows": rows})


@login_required
def my_profile(request: HttpRequest) -> HttpResponse:
    return redirect("accounts:user", username=request.user.get_username())
