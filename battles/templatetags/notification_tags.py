"""``{% load notification_tags %}{% unread_count as n %}`` — the reader's unread notifications.

One query per request, remembered on the request so the navigation and a page may both ask.
"""

from django import template

from battles.notifications.selectors import unread_count as count_unread

register = template.Library()


@register.simple_tag(takes_context=True)
def unread_count(context) -> int:
    request = context.get("request")
    user = getattr(request, "user", None) or context.get("user")
    if request is None:
        return count_unread(user=user)
    if not hasattr(request, "_unread_notifications"):
        request._unread_notifications = count_unread(user=user)
    return request._unread_notifications
