"""allauth's sign-in and sign-up forms for this site (ACCOUNT_FORMS).

Email verification is `mandatory` so that sign-up cannot tell whether an email is
registered (settings, docs/production.md). allauth applies the same setting to every
password sign-in, which would stop members who never confirmed an address (all of them
before #28) until a link reached them, and nobody at all on a site without a mail server.
A password sign-in therefore keeps the `optional` behaviour it always had: verification is
asked for at sign-up only.

An address is not a member's until they confirm it (accounts/emails.py): the sign-up form
treats an address as taken only if someone confirmed it (`emails.taken`), so that a
squatter's unconfirmed claim does not keep the address's owner out (issue #42, point 4).
"""

from __future__ import annotations

from typing import Any

from allauth.account.adapter import get_adapter
from allauth.account.app_settings import EmailVerificationMethod
from allauth.account.forms import LoginForm, SignupForm
from allauth.account.models import EmailAddress
from django.http import HttpRequest

from . import emails


class SignInForm(LoginForm):
    def _clean_with_password(self, credentials: dict[str, Any]) -> Any:
        result = super()._clean_with_password(credentials)
        login = getattr(self, "_login", None)
        if login is not None:
            login.email_verification = EmailVerificationMethod.OPTIONAL
        return result


class SignUpForm(SignupForm):
    def validate_unique_email(self, value: str) -> str:
        """Taken only if confirmed (or set by the operator): then no account is made and
        the owner gets a notice (allauth's `account_already_exists`, answered on the page
        like any sign-up). An address others only claim makes the account."""
        email = get_adapter().validate_unique_email(value)
        self.account_already_exists = emails.taken(email)
        return email

    def save(self, request: HttpRequest) -> Any:
        """The account, with its claim to the address even when others claim it too
        (allauth keeps no second row of an address; the verification mail needs one)."""
        user = super().save(request)
        email = self.cleaned_data.get("email")
        if email and not EmailAddress.objects.filter(user=user, email__iexact=email).exists():
            EmailAddress.objects.create(user=user, email=email, primary=True, verified=False)
        return user
