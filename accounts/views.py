"""Profile pages: thin views over `accounts.profile`."""

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from .profile import profile as profile_of


def profile(request: HttpRequest, username: str) -> HttpResponse:
    context = profile_of(username)
    if context is None:
        raise Http404("no such player")
    return render(request, "accounts/profile.html", context)


@login_required
def my_profile(request: HttpRequest) -> HttpResponse:
    return redirect("accounts:user", username=request.user.get_username())
