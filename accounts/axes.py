"""django-axes with allauth's sign-in form, where `login` is a username or an email.

allauth calls `authenticate(request, username=...)` or `authenticate(request, email=...)`;
axes counts failures per username, so both spellings of one account must name the same
username: an email that belongs to an account counts as that account's username.

Failures are never counted per name alone, or anyone could lock a member out from every
address (issue #28, point 2). `PairAndAddressHandler` locks (name, address) after
AXES_FAILURE_LIMIT failures and an address after AXES_ADDRESS_FAILURE_LIMIT failures with
any names (settings.AXES_LOCKOUT_PARAMETERS lists the two, in that order); a success
clears only that pair's failures, so signing in to one's own account does not wipe an
address's failures with other names. A name that is not a member's is counted the same
way, so the answers tell nobody which names exist.
"""

from typing import Any

from axes.handlers.database import AxesDatabaseHandler
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db.models import Sum


def login_username(request: Any, credentials: dict[str, Any] | None) -> str | None:
    credentials = credentials or {}
    login = credentials.get("username") or credentials.get("email")
    if not login and request is not None:
        data = getattr(request, "POST", {}) or {}
        login = data.get("login") or data.get("username")
    if not login:
        return None
    login = str(login).strip()
    if "@" in login:
        User = get_user_model()
        user = User.objects.filter(email__iexact=login).only("username").first()
        if user is not None:
            return user.username.lower()
    return login.lower()


class PairAndAddressHandler(AxesDatabaseHandler):
    """axes's database handler with a limit of its own for the address (module docstring).

    axes compares one number with AXES_FAILURE_LIMIT: here the larger of the pair's
    failures and the address's failures scaled so that AXES_ADDRESS_FAILURE_LIMIT of them
    reach it."""

    def get_failures(self, request: Any, credentials: dict | None = None) -> int:
        pair, address = (
            attempts.aggregate(n=Sum("failures_since_start"))["n"] or 0
            for attempts in self.get_user_attempts(request, credentials))
        limit = settings.AXES_FAILURE_LIMIT
        return max(pair, address * limit // max(settings.AXES_ADDRESS_FAILURE_LIMIT, 1))

    def reset_user_attempts(self, request: Any, credentials: dict | None = None) -> int:
        pair = self.filter_user_attempts(request, credentials)[0]
        count, _ = pair.delete()
        return count
