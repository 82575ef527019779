"""The curators' admin: puzzles (a visual board editor over the puzzle record, validation by
the solver with its figures, each day's problems) and weeks (draft from the generator,
publish when every day is filled with a valid, unused puzzle that fits the day)."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

from engine.describe import CARD_NAMES
from engine.geometry import SHAPE_ORDER
from engine.position import CARD_ORDER, RULES_VERSIONS

from . import schedule, validation
from .models import DAY_NAMES, Progress, Puzzle, Week
from .records import WEEK_SCHEDULE, RecordError, goal_words, parse

NEW_RECORD = ('[Size "5"]\n[Rules "0.92"]\n'
              '[Start "...../...../...../...../..... b - - - - - 0 0 0 0.92"]\n'
              '[Goal "unload:I"]\n[Turns "1"]\n')


class RecordEditor(forms.Textarea):
    """The puzzle record as text, with the visual editor (static/js/puzzles/editor.js)
    above it; the editor writes the text, and the text is what the server reads."""

    def render(self, name: str, value: Any, attrs: dict[str, Any] | None = None,
               renderer: Any = None) -> SafeString:
        textarea = super().render(name, value, attrs, renderer)
        config = {
            "cards": [[c, CARD_NAMES[c]] for c in CARD_ORDER],
            "shapes": list(SHAPE_ORDER),
            "rules": list(RULES_VERSIONS),
            "schedule": [{"day": DAY_NAMES[i], "size": d.size, "limits": list(d.limits),
                          "needs_card": d.needs_card} for i, d in enumerate(WEEK_SCHEDULE)],
        }
        return mark_safe(render_to_string("puzzles/admin/editor.html", {
            "textarea": textarea, "config": json.dumps(config)}))


class PuzzleForm(forms.ModelForm):
    record = forms.CharField(widget=RecordEditor(attrs={"rows": 7, "cols": 90}),
                             help_text="The puzzle record (Size, Rules, Start, Goal, Turns). "
                                       "The board editor above writes it; you may edit it here.")

    class Meta:
        model = Puzzle
        fields = ["week", "day", "note"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["record"].initial = self.instance.record if self.instance.pk else NEW_RECORD

    def clean_record(self) -> Any:
        try:
            return parse(self.cleaned_data["record"])
        except RecordError as e:
            raise forms.ValidationError(str(e)) from None

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        parts = data.get("record")
        old = Puzzle.objects.select_related("week").filter(pk=self.instance.pk).first()
        if old is not None and old.week is not None and old.week.published:
            changed = parts is not None and (parts.start, parts.goal, parts.turns) != (
                old.start, old.goal, old.turns)
            moved = (data.get("week"), data.get("day")) != (old.week, old.day)
            if changed or moved:
                raise forms.ValidationError(
                    f"This puzzle is live in {old.week} (published): its position, goal, limit "
                    f"and day can no longer change.")
        week = data.get("week")
        if week is not None and week.published and (old is None or old.week_id != week.pk):
            raise forms.ValidationError(f"{week} is published: no puzzle can be added to it.")
        if (week is None) != (data.get("day") is None):
            raise forms.ValidationError("Give both a week and a day, or neither.")
        return data

    def save(self, commit: bool = True) -> Puzzle:
        parts = self.cleaned_data["record"]
        self.instance.start, self.instance.goal, self.instance.turns = (
            parts.start, parts.goal, parts.turns)
        return super().save(commit)


def _validated(request: HttpRequest, admin_: admin.ModelAdmin, puzzle: Puzzle) -> None:
    outcome = validation.validate(puzzle)
    if outcome == Puzzle.Validation.RUNNING:
        admin_.message_user(request, f"{puzzle}: the proof runs in the background (Celery); "
                            f"this page shows its figures when it is done.", messages.INFO)
        return
    figures = f"{puzzle.proof_nodes} nodes, {puzzle.proof_seconds:.3f} s"
    if outcome == Puzzle.Validation.VALID:
        found = validation.problems(puzzle, puzzle.day)
        level = messages.WARNING if found else messages.SUCCESS
        extra = f" For its day: {'; '.join(found)}." if found else ""
        admin_.message_user(request, f"{puzzle}: valid, solvable in exactly {puzzle.turns} "
                            f"({figures}).{extra}", level)
    else:
        admin_.message_user(request, f"{puzzle}: invalid: {puzzle.validation_error} "
                            f"({figures if puzzle.proof_nodes is not None else 'no proof'}).",
                            messages.ERROR)


@admin.register(Puzzle)
class PuzzleAdmin(admin.ModelAdmin):
    form = PuzzleForm
    change_form_template = "puzzles/admin/puzzle_change_form.html"
    list_display = ("id", "scheduled", "size", "goal", "turns", "validation", "fewest",
                    "needs_card", "proof_seconds", "proof_nodes", "source")
    list_filter = ("validation", "size", "source", "week__status")
    search_fields = ("id", "goal", "note")
    actions = ["validate_selected"]
    readonly_fields = ("goal_in_words", "proof", "day_problems", "solution", "created_at",
                       "updated_at")
    fieldsets = [
        (None, {"fields": ["record", "goal_in_words"]}),
        ("Schedule", {"fields": ["week", "day", "day_problems", "note"]}),
        ("Proof", {"fields": ["proof", "solution", "created_at", "updated_at"]}),
    ]

    @admin.display(description="Day", ordering="week__monday")
    def scheduled(self, obj: Puzzle) -> str:
        date = obj.date
        return f"{DAY_NAMES[date.weekday()][:3]} {date}" if date and obj.day is not None else "—"

    @admin.display(description="Goal in words")
    def goal_in_words(self, obj: Puzzle) -> str:
        return goal_words(obj.goal, obj.turns) if obj.pk else "—"

    @admin.display(description="Validation")
    def proof(self, obj: Puzzle) -> str:
        if not obj.pk:
            return "—"
        if obj.validation == Puzzle.Validation.RUNNING:
            return "Running in the background (reload this page to see the figures)."
        if obj.validation == Puzzle.Validation.UNVALIDATED:
            return "Not validated: use “Save and validate”."
        figures = ""
        if obj.proof_nodes is not None and obj.validated_at:
            figures = (f"Fewest {obj.fewest}, needs a card: {'yes' if obj.needs_card else 'no'}; "
                       f"proof: {obj.proof_nodes} nodes, {obj.proof_seconds} s, at "
                       f"{obj.validated_at:%Y-%m-%d %H:%M} UTC.")
        verdict = "Valid" if obj.validation == Puzzle.Validation.VALID else \
            f"Invalid: {obj.validation_error}"
        return f"{verdict}. {figures}".strip()

    @admin.display(description="Problems for its day")
    def day_problems(self, obj: Puzzle) -> str:
        if not obj.pk:
            return "—"
        found = validation.problems(obj, obj.day)
        return "; ".join(found) if found else "None: it can go live on its day."

    @admin.action(description="Validate the selected puzzles with the solver",
                  permissions=["change"])
    def validate_selected(self, request: HttpRequest, queryset: QuerySet[Puzzle]) -> None:
        for puzzle in queryset:
            _validated(request, self, puzzle)

    def _after_save(self, request: HttpRequest, obj: Puzzle,
                    default: HttpResponse) -> HttpResponse:
        if "_validate" in request.POST:
            _validated(request, self, obj)
            return HttpResponseRedirect(reverse("admin:puzzles_puzzle_change", args=[obj.pk]))
        return default

    def response_add(self, request: HttpRequest, obj: Puzzle,
                     post_url_continue: str | None = None) -> HttpResponse:
        return self._after_save(request, obj, super().response_add(request, obj,
                                                                   post_url_continue))

    def response_change(self, request: HttpRequest, obj: Puzzle) -> HttpResponse:
        return self._after_save(request, obj, super().response_change(request, obj))


class PuzzleInline(admin.TabularInline):
    model = Puzzle
    template = "puzzles/admin/week_puzzles_inline.html"  # Django's, its headers named
    extra = 0
    fields = ("day", "summary", "validation", "problems_here")
    readonly_fields = fields
    can_delete = False
    show_change_link = True
    ordering = ("day",)

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.display(description="Puzzle")
    def summary(self, obj: Puzzle) -> str:
        return f"{obj.size}×{obj.size}: {goal_words(obj.goal, obj.turns)}"

    @admin.display(description="Problems")
    def problems_here(self, obj: Puzzle) -> str:
        return "; ".join(validation.problems(obj, obj.day)) or "—"


def _next_monday() -> dt.date:
    return schedule.monday_of(schedule.today()) + dt.timedelta(days=7)


class WeekForm(forms.ModelForm):
    class Meta:
        model = Week
        fields = ["monday", "note"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not self.instance.pk:
            self.fields["monday"].initial = _next_monday()

    def clean_monday(self) -> dt.date:
        monday = self.cleaned_data["monday"]
        if monday.weekday() != 0:
            raise forms.ValidationError(f"{monday} is a {DAY_NAMES[monday.weekday()]}: a week "
                                        f"starts on a Monday.")
        if self.instance.pk and self.instance.published and monday != self.instance.monday:
            raise forms.ValidationError("A published week keeps its Monday.")
        return monday


@admin.register(Week)
class WeekAdmin(admin.ModelAdmin):
    form = WeekForm
    change_form_template = "puzzles/admin/week_change_form.html"
    list_display = ("monday", "status", "automatic", "days_filled", "problems_count")
    list_filter = ("status", "automatic")
    inlines = [PuzzleInline]
    readonly_fields = ("status", "published_at", "automatic", "problems")
    actions = ["draft_selected", "publish_selected"]

    @admin.display(description="Days filled")
    def days_filled(self, obj: Week) -> str:
        return f"{obj.puzzles.count()} of 7"

    @admin.display(description="Problems")
    def problems_count(self, obj: Week) -> str:
        return "—" if obj.published else str(len(schedule.week_problems(obj)))

    @admin.display(description="What keeps it from going live")
    def problems(self, obj: Week) -> str:
        if not obj.pk:
            return "—"
        if obj.published:
            return "Published."
        found = schedule.week_problems(obj)
        if not found:
            return "Nothing: it can be published."
        return format_html("<ul>{}</ul>", format_html_join("", "<li>{}</li>",
                                                           ((p,) for p in found)))

    def _draft(self, request: HttpRequest, week: Week) -> None:
        try:
            _, filled = schedule.draft_week(week.monday)
        except schedule.ScheduleError as e:
            self.message_user(request, f"{week}: {e}", messages.ERROR)
            return
        if filled:
            self.message_user(request, f"{week}: generated "
                              f"{', '.join(DAY_NAMES[d] for d in filled)} (review, then publish).")
        else:
            self.message_user(request, f"{week}: every day already has a puzzle.",
                              messages.WARNING)

    def _publish(self, request: HttpRequest, week: Week) -> bool:
        try:
            schedule.publish(week)
        except schedule.ScheduleError as e:
            self.message_user(request, f"{week} was not published: {e}", messages.ERROR)
            return False
        self.message_user(request, f"{week} is published.", messages.SUCCESS)
        return True

    @admin.action(description="Draft from the generator (fills the days without a puzzle)",
                  permissions=["change"])
    def draft_selected(self, request: HttpRequest, queryset: QuerySet[Week]) -> None:
        for week in queryset:
            self._draft(request, week)

    @admin.action(description="Publish the selected weeks", permissions=["change"])
    def publish_selected(self, request: HttpRequest, queryset: QuerySet[Week]) -> None:
        for week in queryset:
            self._publish(request, week)

    def response_change(self, request: HttpRequest, obj: Week) -> HttpResponse:
        here = HttpResponseRedirect(reverse("admin:puzzles_week_change", args=[obj.pk]))
        if "_publish" in request.POST:
            self._publish(request, obj)
            return here
        if "_draft" in request.POST:
            self._draft(request, obj)
            return here
        return super().response_change(request, obj)


@admin.register(Progress)
class ProgressAdmin(admin.ModelAdmin):
    list_display = ("user", "puzzle", "attempts", "solved_at", "solved_in", "unaided", "merged")
    list_filter = ("unaided", "merged")
    search_fields = ("user__username",)
    readonly_fields = ("user", "puzzle", "attempts", "solved_at", "solved_in", "line",
                       "shown_at", "unaided", "merged", "updated_at")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # a member's own record: shown, deleted if need be, never edited
