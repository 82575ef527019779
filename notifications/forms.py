"""The settings page's form: per kind, in the site, in the daily email and pushed to the
member's browsers; the digest and the deadline alarm."""

from __future__ import annotations

from django import forms

from .models import Kind


class SettingsForm(forms.Form):
    in_site = forms.MultipleChoiceField(choices=Kind.choices, required=False,
                                        widget=forms.CheckboxSelectMultiple,
                                        label="Show in the site")
    by_email = forms.MultipleChoiceField(choices=Kind.choices, required=False,
                                         widget=forms.CheckboxSelectMultiple,
                                         label="List in the daily email")
    by_push = forms.MultipleChoiceField(choices=Kind.choices, required=False,
                                        widget=forms.CheckboxSelectMultiple,
                                        label="Push to my subscribed browsers")
    digest = forms.BooleanField(required=False, label="Send me a daily email (at most one a "
                                "day, only when something waits for me)")
    alarm = forms.BooleanField(required=False, label="Email me once when a correspondence "
                               "deadline is close (80 % of the time used)")
