"""The form of "Create a tournament" (docs/tournaments.md, "Pages"): what a member chooses.
The field checks are the form's; everything else (the name's length, the rounds, the member's
open tournaments, the kind's seats) is `tournaments.services.create_tournament`'s, whose
`TournamentError` the view shows on this form."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django import forms
from django.utils import timezone

from games.tables.forms import UNTIMED, TimeControlField, seek_choices
from tournaments.arenas import DURATIONS
from tournaments.models import Tournament
from tournaments.pages import tournament_kinds
from tournaments.services import MAX_ROUNDS, NAME_LENGTH

DEFAULT_TIME_CONTROL = "5+3"


def time_control_choices() -> list[tuple[str, str]]:
    """The lobby's time controls (`games.tables.forms.seek_choices`) of every kind a
    tournament may be of, each once, in the lobby's order."""
    seen: dict[str, str] = {}
    for kind in tournament_kinds():
        for code, label in seek_choices(kind):
            seen.setdefault(code, label)
    return list(seen.items())


class CreateTournamentForm(forms.Form):
    name = forms.CharField(max_length=NAME_LENGTH, label="Name")
    game = forms.ChoiceField(label="Game")  # the kinds, set per form
    system = forms.ChoiceField(label="System", choices=Tournament.System.choices,
                               initial=Tournament.System.SWISS, required=False,
                               help_text="Swiss: rounds of games that start together. "
                               "Arena: a fixed time; you are paired again as soon as you "
                               "are free (a game of two players, a live clock).")
    rounds = forms.IntegerField(min_value=1, max_value=MAX_ROUNDS, initial=5, label="Rounds",
                                required=False, help_text="A Swiss's.")
    duration = forms.TypedChoiceField(
        label="Duration (arena)", coerce=int, initial=60, required=False, empty_value=None,
        choices=[(m, f"{m} minutes") for m in DURATIONS], help_text="An arena's.")
    time_control = TimeControlField(choices=[(UNTIMED, "Untimed")])
    round_pause = forms.TypedChoiceField(
        label="Pause between rounds", coerce=int, required=False, empty_value=None,
        initial="", choices=[("", "Default (1 minute)"), (0, "None"), (30, "30 seconds"),
                             (60, "1 minute"), (120, "2 minutes"), (300, "5 minutes")],
        help_text="A Swiss's: time to see the standings before the next round starts. "
                  "The default with days per turn: none.")
    rated = forms.BooleanField(required=False, initial=True, label="Rated")
    password = forms.CharField(required=False, max_length=64, label="Password (optional)",
                               help_text="Leave empty for a public tournament.",
                               widget=forms.PasswordInput(render_value=True))
    starts_at = forms.DateTimeField(label="Starts at", input_formats=["%Y-%m-%dT%H:%M"],
                                    widget=forms.DateTimeInput(
                                        attrs={"type": "datetime-local"},
                                        format="%Y-%m-%dT%H:%M"))
    # The browser's offset from UTC in minutes (JS's getTimezoneOffset), set by
    # static/js/tournaments.js; without script the start is read as UTC.
    tz_offset = forms.IntegerField(required=False, min_value=-900, max_value=900,
                                   widget=forms.HiddenInput)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("auto_id", "create_%s")
        super().__init__(*args, **kwargs)
        self.fields["game"] = forms.ChoiceField(
            label="Game", choices=[(k.key, k.name) for k in tournament_kinds()])
        choices = time_control_choices()
        self.fields["time_control"] = TimeControlField(
            choices=choices, initial=DEFAULT_TIME_CONTROL
            if DEFAULT_TIME_CONTROL in dict(choices) else choices[0][0])
        if not self.is_bound:
            soon = timezone.now().replace(second=0, microsecond=0) + dt.timedelta(hours=1)
            self.initial.setdefault("starts_at", soon.replace(tzinfo=None))

    def clean_starts_at(self) -> dt.datetime:
        """The start as the member wrote it, in their browser's time zone: made aware."""
        value: dt.datetime = self.cleaned_data["starts_at"]
        return value.replace(tzinfo=None)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        data["system"] = data.get("system") or Tournament.System.SWISS  # none sent: a Swiss
        if data["system"] == Tournament.System.ARENA:
            data["rounds"], data["round_pause"] = 0, None
            if not data.get("duration"):
                self.add_error("duration", "An arena needs its duration.")
        else:
            data["duration"] = None
            if not data.get("rounds") and "rounds" not in self.errors:
                self.add_error("rounds", "A Swiss needs its number of rounds.")
        if "starts_at" in data and self.start() < timezone.now() - dt.timedelta(minutes=1):
            self.add_error("starts_at", "The start must be in the future.")
        return data

    def start(self) -> dt.datetime:
        """The start in UTC, from the local time written and the browser's offset."""
        offset = self.cleaned_data.get("tz_offset") or 0
        naive = self.cleaned_data["starts_at"]
        return (naive + dt.timedelta(minutes=offset)).replace(tzinfo=dt.UTC)
