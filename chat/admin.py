"""The chat in the admin: messages and reports are shown, never edited (chat.services
owns them); a moderator hides messages, shows hidden ones again and silences their
authors by actions (each needs the message's change permission), and adds, ends or
deletes silences with their end date. Text is shown as Django escapes it."""

from __future__ import annotations

from django.contrib import admin, messages
from django.db.models import Count, QuerySet
from django.http import HttpRequest

from common.admin_views import ReadOnlyAdmin

from . import services
from .models import Message, Report, Silence


class _Moderating(ReadOnlyAdmin):
    def has_moderate_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("chat.change_message")


@admin.register(Message)
class MessageAdmin(_Moderating):
    list_display = ("created", "game", "room_kind", "seq", "author", "text", "hidden",
                    "report_count")
    list_filter = ("hidden", "room__kind")
    search_fields = ("text", "author__username", "room__game__id")
    actions = ("hide_selected", "show_selected", "silence_authors_day",
               "silence_authors_week")

    def get_queryset(self, request: HttpRequest) -> QuerySet[Message]:
        return super().get_queryset(request).select_related("room", "author") \
            .annotate(report_total=Count("reports"))

    @admin.display(description="game")
    def game(self, obj: Message) -> str:
        return obj.room.game_id

    @admin.display(description="room")
    def room_kind(self, obj: Message) -> str:
        return obj.room.kind

    @admin.display(description="reports", ordering="report_total")
    def report_count(self, obj: Message) -> int:
        return getattr(obj, "report_total", 0)

    @admin.action(description="Hide the selected messages (gone from every page)",
                  permissions=["moderate"])
    def hide_selected(self, request: HttpRequest, queryset: QuerySet[Message]) -> None:
        count = services.hide(queryset.select_related("room"))
        self.message_user(request, f"{count} message(s) hidden.", messages.SUCCESS)

    @admin.action(description="Show the selected hidden messages again (back on every page)",
                  permissions=["moderate"])
    def show_selected(self, request: HttpRequest, queryset: QuerySet[Message]) -> None:
        count = services.show(queryset.select_related("room", "author"))
        self.message_user(request, f"{count} message(s) shown again.", messages.SUCCESS)

    @admin.action(description="Silence the selected messages' authors for 24 hours",
                  permissions=["moderate"])
    def silence_authors_day(self, request: HttpRequest, queryset: QuerySet[Message]) -> None:
        count = services.silence(queryset.values_list("author_id", flat=True), 24)
        self.message_user(request, f"{count} member(s) silenced for 24 hours.")

    @admin.action(description="Silence the selected messages' authors for 7 days",
                  permissions=["moderate"])
    def silence_authors_week(self, request: HttpRequest, queryset: QuerySet[Message]) -> None:
        count = services.silence(queryset.values_list("author_id", flat=True), 24 * 7)
        self.message_user(request, f"{count} member(s) silenced for 7 days.")


@admin.register(Report)
class ReportAdmin(_Moderating):
    list_display = ("created", "reporter", "message_author", "message_text", "hidden")
    list_filter = ("message__hidden",)
    actions = ("hide_reported",)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Report]:
        return super().get_queryset(request).select_related("message__author", "reporter")

    @admin.display(description="author")
    def message_author(self, obj: Report) -> str:
        return obj.message.author.get_username()

    @admin.display(description="message")
    def message_text(self, obj: Report) -> str:
        return obj.message.text

    @admin.display(description="hidden", boolean=True)
    def hidden(self, obj: Report) -> bool:
        return obj.message.hidden

    @admin.action(description="Hide the reported messages (gone from every page)",
                  permissions=["moderate"])
    def hide_reported(self, request: HttpRequest, queryset: QuerySet[Report]) -> None:
        reported = Message.objects.filter(reports__in=queryset).distinct() \
            .select_related("room")
        count = services.hide(reported)
        self.message_user(request, f"{count} message(s) hidden.", messages.SUCCESS)


@admin.register(Silence)
class SilenceAdmin(admin.ModelAdmin):
    """Silences are the moderators' own rows: added with an end date, ended early by
    changing it, deleted."""

    list_display = ("member", "until", "reason", "created")
    search_fields = ("member__username",)
    raw_id_fields = ("member",)
