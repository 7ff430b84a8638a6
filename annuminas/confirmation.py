"""The no-JavaScript step before a destructive action, for any page (the sheet has its own,
``warbands.views._common.confirmation``, the same pattern).

A button that destroys posts with htmx's ``hx-confirm`` and ``hx-vals='{"confirmed": "1"}'``
(``templates/annuminas/_confirm_attrs.html``): with JavaScript the browser asks and the POST
carries ``confirmed``. Without JavaScript the POST arrives without it, and the view answers with
a page that asks, whose form sends the same fields again with ``confirmed``. Nothing is written
before that.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

NOT_REPOSTED = ("csrfmiddlewaretoken", "confirmed")


def is_confirmed(request: HttpRequest) -> bool:
    return request.POST.get("confirmed") == "1"


def confirmation(
    request: HttpRequest, *, question: str, label: str, back_url: str, back_label: str
) -> HttpResponse | None:
    """None once the POST is confirmed; otherwise the page that asks ``question``, whose button
    (``label``) posts the same fields to the same address, and whose "Cancel" goes to
    ``back_url``."""
    if is_confirmed(request):
        return None
    fields = [
        (name, value)
        for name in request.POST
        if name not in NOT_REPOSTED
        for value in request.POST.getlist(name)
    ]
    return render(
        request,
        "annuminas/confirm.html",
        {
            "question": question,
            "label": label,
            "action": request.path,
            "fields": fields,
            "back_url": back_url,
            "back_label": back_label,
        },
    )
