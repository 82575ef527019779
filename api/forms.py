"""The token settings page's form: a name, the scopes, how long the token lives."""

from __future__ import annotations

from django import forms

from .scopes import ALL
from .tokens import LIFETIMES

LIFETIME_CHOICES = [("30", "30 days"), ("90", "90 days"), ("365", "One year"),
                    ("never", "Never (until you revoke it)")]
assert {key for key, _ in LIFETIME_CHOICES} == set(LIFETIMES)


class TokenForm(forms.Form):
    name = forms.CharField(max_length=60, label="Name",
                           help_text="What the token is for, so you know it again: "
                                     "“my study script”, “the club's bot”.")
    scopes = forms.MultipleChoiceField(
        label="What it may do", widget=forms.CheckboxSelectMultiple,
        choices=[(scope.value, scope.label) for scope in ALL],
        error_messages={"required": "Choose at least one scope."})
    lifetime = forms.ChoiceField(label="Expires after", choices=LIFETIME_CHOICES,
                                 initial="90")
