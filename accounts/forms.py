"""allauth's sign-in form for this site (ACCOUNT_FORMS["login"]).

Email verification is `mandatory` so that sign-up cannot tell whether an email is
registered (settings, docs/production.md). allauth applies the same setting to every
password sign-in, which would stop members who never confirmed an address (all of them
before #28) until a link reached them, and nobody at all on a site without a mail server.
A password sign-in therefore keeps the `optional` behaviour it always had: verification is
asked for at sign-up only.
"""

from __future__ import annotations

from typing import Any

from allauth.account.app_settings import EmailVerificationMethod
from allauth.account.forms import LoginForm


class SignInForm(LoginForm):
    def _clean_with_password(self, credentials: dict[str, Any]) -> Any:
        result = super()._clean_with_password(credentials)
        login = getattr(self, "_login", None)
        if login is not None:
            login.email_verification = EmailVerificationMethod.OPTIONAL
        return result
