"""Registering a third-party app (django-oauth-toolkit's `Application`) in the admin, the
one place apps are registered (docs/api.md, "OAuth 2 with PKCE"): a name, its redirect
URIs, whether the consent page is skipped. Every app is a public client of the
authorization-code grant (PKCE S256, no secret: a program a member runs cannot keep one);
a redirect URI is https, or http on a loopback address (RFC 8252, a program on the
member's own computer)."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from django import forms
from oauth2_provider.admin import ApplicationAdmin
from oauth2_provider.models import Application

LOOPBACK = {"127.0.0.1", "::1", "localhost"}


def redirect_refusal(uri: str) -> str | None:
    """Why this redirect URI may not be registered, or None if it may."""
    parts = urlsplit(uri)
    if parts.scheme == "https" and parts.hostname:
        return None
    if parts.scheme == "http" and parts.hostname in LOOPBACK:
        return None
    return f"{uri!r}: a redirect URI is https://…, or http:// on 127.0.0.1, [::1] or localhost."


class AppForm(forms.ModelForm):
    class Meta:
        model = Application
        fields = ("name", "redirect_uris", "skip_authorization", "user")

    def clean_name(self) -> str:
        name = str(self.cleaned_data.get("name", "")).strip()
        if not name:
            raise forms.ValidationError("Give the app the name members will see.")
        return name

    def clean_redirect_uris(self) -> str:
        uris = str(self.cleaned_data.get("redirect_uris", "")).split()
        if not uris:
            raise forms.ValidationError("Give at least one redirect URI.")
        problems = [why for why in map(redirect_refusal, uris) if why]
        if problems:
            raise forms.ValidationError(problems)
        return " ".join(uris)

    def save(self, commit: bool = True) -> Any:
        app = super().save(commit=False)
        app.client_type = Application.CLIENT_PUBLIC
        app.authorization_grant_type = Application.GRANT_AUTHORIZATION_CODE
        app.client_secret = ""
        if commit:
            app.save()
        return app


class AppAdmin(ApplicationAdmin):
    form = AppForm
    list_display = ("pk", "name", "client_id", "redirect_uris", "skip_authorization")
    list_filter = ("skip_authorization",)
    radio_fields: dict[str, Any] = {}
    readonly_fields = ("client_id",)
    fields = ("name", "client_id", "redirect_uris", "skip_authorization", "user")
