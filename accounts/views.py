from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render

from games import services


def profile(request, username):
    try:
        context = services.profile(username)
    except services.NotFound:
        raise Http404("no such player") from None
    return render(request, "accounts/profile.html", context)


@login_required
def my_profile(request):
    return redirect("accounts:user", username=request.user.username)
