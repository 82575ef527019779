"""django-axes with allauth's sign-in form, where `login` is a username or an email.

allauth calls `authenticate(request, username=...)` or `authenticate(request, email=...)`;
axes counts failures per username, so both spellings of one account must name the same
username: an email that belongs to an account counts as that account's username.
"""

from typing import Any

from django.contrib.auth import get_user_model


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
