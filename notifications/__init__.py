"""Notifications for members (issue #29): in the site (the header's bell, the list page,
live over the socket a page already has open), by email (a daily digest, an alarm when a
deadline is close, each with a signed one-click unsubscribe) and the member's choices
(docs/notifications.md).

- `models`: `Notification` (one per member and event), `NotificationSettings` (the
  member's choices), `DeadlineAlarm` (one row per alarm sent: once per decision);
- `notify`: the one call per platform point that makes notifications (a turn, a table
  joined or started, a rematch offered, a game ended) and sends them live after commit;
- `inbox`: what the bell and the list page read, and marking read;
- `choices`: reading and saving a member's settings;
- `mail`: the digest, the alarm and the unsubscribe links;
- `tasks`: the Celery beat tasks that send the emails.
"""
