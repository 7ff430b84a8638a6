"""Notifications: the inbox, e-mail (immediate or a daily digest) and per-campaign webhooks.

Other services announce what happened with one call, inside their transaction::

    from battles.notifications.services import notify
    notify(event=Event.REPORT_TO_CONFIRM, battle=battle, actor=reporter)

The event is written to an outbox row in that transaction and fanned out by a Celery task after
the commit (a rollback sends nothing; a broker outage leaves the row for the sweeper).
"""
