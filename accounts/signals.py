"""Other apps' signals this app answers: allauth's (a confirmed address drops the other
accounts' unconfirmed claims to it, accounts/emails.py) and the tournaments' end
(`tournaments.signals.tournament_finished`: the tournament achievements,
accounts/achievements.py)."""

from __future__ import annotations

from typing import Any

from allauth.account.signals import email_confirmed

from tournaments.signals import tournament_finished

from . import achievements, emails


def _confirmed(sender: Any, request: Any, email_address: Any, **kwargs: Any) -> None:
    emails.release_claims(email_address)


def connect() -> None:
    email_confirmed.connect(_confirmed, dispatch_uid="accounts.release_claims")
    tournament_finished.connect(achievements.tournament_finished,
                                dispatch_uid="accounts.tournament_achievements")
