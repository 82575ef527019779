"""Mail when production has no mail server (issue #28, point 4).

With DEBUG off and no EMAIL_HOST, Django's console backend would write every message into
the ASGI processes' logs: password-reset links and sign-up confirmations, which grant
access to whoever reads the log. `NoMailBackend` sends nothing and logs one line per
message, with its subject only (no body, no address). `common.checks` refuses a
deployment whose backend writes messages where a log reader sees them.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from django.core.mail.backends.base import BaseEmailBackend

log = logging.getLogger(__name__)


class NoMailBackend(BaseEmailBackend):
    """Sends nothing; one warning line per message, naming its subject only."""

    def send_messages(self, email_messages: Sequence[Any]) -> int:
        for message in email_messages:
            log.warning("mail not sent (no EMAIL_HOST is set): %r to %d recipient(s)",
                        str(message.subject)[:80], len(message.recipients()))
        return 0
