"""allauth's adapter for this site: usernames are normalised (NFKC), unique without regard
to case, and refused when they look like an existing member's (accounts/usernames.py); a
password-reset mail says whether its account confirmed the address (accounts/emails.py).
Set by ACCOUNT_ADAPTER."""

from __future__ import annotations

from typing import Any

from allauth.account.adapter import DefaultAccountAdapter
from allauth.utils import build_absolute_uri
from django import forms
from django.contrib.auth import get_user_model
from django.db.models.functions import Length
from django.urls import reverse

from . import emails
from .usernames import look_alike_taken, normalise, skeleton


class AccountAdapter(DefaultAccountAdapter):
    def clean_username(self, username: str, shallow: bool = False) -> str:
        username = normalise(username)
        username = super().clean_username(username, shallow=shallow)
        if shallow:
            return username
        User = get_user_model()
        if User.objects.filter(username__iexact=username).exists():
            raise self.validation_error("username_taken")
        # A name's skeleton has one or two characters for each of its characters (`m` is
        # `rn`), so only names between half the skeleton's length and all of it can match.
        length = len(skeleton(username))
        near = User.objects.annotate(n=Length("username")).filter(
            n__gte=(length + 1) // 2, n__lte=length)
        taken = look_alike_taken(username, list(near.values_list("username", flat=True)))
        if taken is not None:
            raise forms.ValidationError(
                "That username looks too much like an existing member's; choose another.")
        return username

    def send_password_reset_mail(self, user: Any, email: str, context: dict) -> None:
        """allauth's mail, told whether this account confirmed the address: the mail goes
        to every account claiming it, and one that did not confirm it may be a squatter's
        (the mail then says the owner may sign up with the address instead)."""
        context = {**context, "confirmed": emails.confirmed_by(user, email),
                   "signup_url": build_absolute_uri(context.get("request"),
                                                    reverse("account_signup"))}
        super().send_password_reset_mail(user, email, context)
