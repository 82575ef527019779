"""Forms of the lobby: the time control a seek, a challenge by link or a game against bots
is played with (games.timing.clocks), and the fields of "Play against bots" for a kind of several
seats (`bots_form`). Sizes, colours, seats and levels are checked by the services."""

from __future__ import annotations

from typing import Any

from django import forms

from games.kinds import GameKind
from games.timing import clocks

UNTIMED_CASUAL = "Untimed (casual: not rated)"
UNTIMED = "untimed"  # the form's word for games.timing.clocks.UNTIMED ("")


def _choices(codes: tuple[str, ...]) -> list[tuple[str, str]]:
    out = []
    for code in codes:
        control = clocks.parse(code)
        out.append((code or UNTIMED, f"{code} · {control.description}" if control and control.live
                    else control.label.capitalize() if control else UNTIMED_CASUAL))
    return out


SEEK_CHOICES = _choices((*clocks.LIVE_PRESETS, *clocks.CORRESPONDENCE_PRESETS, clocks.UNTIMED))
BOT_CHOICES = [(UNTIMED, "Untimed"),
               *_choices(clocks.LIVE_PRESETS)]  # CargoBot answers at once: live or none
DEFAULT_SEEK = "10+5"


class TimeControlField(forms.ChoiceField):
    """One of the offered time controls, by code; a bad value names the good ones."""

    def __init__(self, *, choices: list[tuple[str, str]], **kwargs: object) -> None:
        names = ", ".join(code for code, _ in choices)
        super().__init__(choices=choices, label="Time control", error_messages={
            "required": f"Choose a time control: {names}.",
            "invalid_choice": f"%(value)s is not a time control here: choose {names}.",
        }, **kwargs)  # type: ignore[arg-type]

    def clean(self, value: object) -> str:
        """The `games.timing.clocks` code ("" for untimed)."""
        code = super().clean(value)
        return clocks.UNTIMED if code in (UNTIMED, "") else str(code)


def seek_choices(kind: GameKind) -> list[tuple[str, str]]:
    """The time controls a kind's tables are offered: its own live presets
    (`GameKind.time_presets`), else the platform's, then every kind the same
    correspondence days (`clocks.CORRESPONDENCE_PRESETS`) and untimed."""
    if not kind.time_presets:
        return SEEK_CHOICES
    return _choices((*kind.time_presets, *clocks.CORRESPONDENCE_PRESETS, clocks.UNTIMED))


def seek_default(kind: GameKind) -> str:
    """The time control first checked for a kind's table (one it offers)."""
    codes = [code for code, _ in seek_choices(kind)]
    return kind.default_time_control if kind.default_time_control in codes else codes[0]


class SeekForm(forms.Form):
    """A seek in the lobby or a challenge by link: live, correspondence, or untimed (then
    the game is casual); `kind` the table's game, whose time controls are offered (all the
    platform's presets when none is given)."""

    time_control = TimeControlField(choices=SEEK_CHOICES, initial=DEFAULT_SEEK)

    def __init__(self, *args: object, kind: GameKind | None = None, **kwargs: object) -> None:
        kwargs.setdefault("auto_id", "seek_%s")
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        if kind is not None and kind.time_presets:
            self.fields["time_control"] = TimeControlField(choices=seek_choices(kind),
                                                           initial=seek_default(kind))


class BotGameForm(forms.Form):
    """A game against bots: untimed (when left out) or, against CargoBot, a live clock for
    the player; for a `kind` with its own time controls (Cargo Express), one of those."""

    time_control = TimeControlField(choices=BOT_CHOICES, required=False,
                                    initial=UNTIMED)

    def __init__(self, *args: object, kind: GameKind | None = None, **kwargs: object) -> None:
        kwargs.setdefault("auto_id", "bot_%s")
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        if kind is not None and kind.time_presets:
            self.fields["time_control"] = TimeControlField(
                choices=seek_choices(kind), required=False, initial=UNTIMED)


def plays_bots_at_tables(kind: GameKind) -> bool:
    """Does the lobby offer "Play against bots" for this kind (one person and bots at a
    table of several seats; Cargo Connect's two seats have the CargoBot panel)?"""
    return bool(kind.bot_levels) and max(kind.seat_counts) > 2


def level_field(index: int) -> str:
    """The posted field of the level of the `index`-th bot (from 1)."""
    return f"level_{index}"


def bots_form(kind: GameKind, member: bool) -> dict[str, Any]:
    """The fields of "Play against bots" for `kind`, drawn as rows of pills
    (templates/games/_bots_form.html): the player count, a level per bot (the rows past
    the count are ignored), the person's seat, the clock. A guest (`member` false) is not
    offered correspondence days: those games take members only (the service refuses them
    too)."""
    counts = [n for n in kind.seat_counts if n > 1]
    levels = [(level, level.title()) for level in kind.bot_levels]
    rows = []
    for index in range(1, max(counts)):
        with_counts = [n for n in counts if n > index]
        when = "" if len(with_counts) == len(counts) else \
            f" ({' or '.join(map(str, with_counts))} players)"
        rows.append({"legend": f"Bot {index}{when}",
                     "name": level_field(index), "choices": levels,
                     "checked": kind.bot_levels[0], "players": with_counts[0]})
    seats = [("random", "Random"), *((kind.seat_key(i), kind.seat_label(i))
                                     for i in range(max(counts)))]
    choices = [(code, "Untimed" if code == UNTIMED else label) for code, label in
               (seek_choices(kind) if kind.time_presets else BOT_CHOICES)
               if member or code not in clocks.CORRESPONDENCE_PRESETS]
    return {"kind": kind, "title": f"Play against {kind.bots_name}",
            "counts": [(n, str(n)) for n in counts], "count_default": counts[0],
            "levels": rows, "seats": seats,
            "time_choices": choices, "time_default": UNTIMED}


def first_error(form: forms.Form) -> str:
    """The first error's words, for a message on the page."""
    return str(next(iter(form.errors.values()))[0])
