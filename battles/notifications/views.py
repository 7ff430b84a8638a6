"""Pages: the inbox, the preferences (with the private calendar URLs) and a campaign's webhooks."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from annuminas.confirmation import confirmation
from battles.calendars import services as calendars
from battles.common import access
from battles.models import Campaign

from . import messages as texts
from . import selectors, services
from .forms import PreferenceForm, WebhookForm

PAGE_SIZE = 30


def _lines(rows) -> list[dict]:
    return [
        {
            "notification": n,
            "text": texts.render(n.event, n.params),
            "label": texts.label(n.event),
            "link": services.link_path(n),
        }
        for n in rows
    ]


@login_required
def notification_inbox(request: HttpRequest) -> HttpResponse:
    unread_only = request.GET.get("unread") == "1"
    page = Paginator(selectors.inbox(user=request.user, unread_only=unread_only), PAGE_SIZE)
    current = page.get_page(request.GET.get("page"))
    return render(
        request,
        "notifications/inbox.html",
        {"page": current, "lines": _lines(current.object_list), "unread_only": unread_only},
    )


def _back(request: HttpRequest, fallback: str) -> str:
    target = request.POST.get("next", "")
    if url_has_allowed_host_and_scheme(target, {request.get_host()}, request.is_secure()):
        return target
    return fallback


@login_required
@require_POST
def notification_read(request: HttpRequest, pk: int) -> HttpResponse:
    notification = get_object_or_404(selectors.inbox(user=request.user), pk=pk)
    services.notification_mark_read(user=request.user, notification_ids=[notification.pk])
    return redirect(_back(request, reverse("notification-inbox")))


@login_required
@require_POST
def notification_read_all(request: HttpRequest) -> HttpResponse:
    count = services.notification_mark_read(user=request.user)
    messages.success(request, _("%(count)s notifications marked read.") % {"count": count})
    return redirect(reverse("notification-inbox"))


def _calendar_urls(request: HttpRequest, token: str) -> list[dict]:
    campaigns = (
        access.visible_campaigns(request.user)
        .filter(memberships__user=request.user)
        .order_by("name")
    )
    urls = [
        {
            "label": _("My battles"),
            "url": request.build_absolute_uri(reverse("calendar-battles", args=[token])),
        }
    ]
    urls += [
        {
            "label": campaign.name,
            "url": request.build_absolute_uri(
                reverse("calendar-campaign", args=[token, campaign.slug])
            ),
        }
        for campaign in campaigns.distinct()
    ]
    return urls


@login_required
@require_http_methods(["GET", "POST"])
def notification_preferences(request: HttpRequest) -> HttpResponse:
    preference = selectors.preference_for(user=request.user)
    initial = {
        "email_mode": preference.email_mode,
        "email_events": preference.email_events,
        "language": preference.language,
    }
    form = PreferenceForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            services.notification_preference_set(user=request.user, **form.cleaned_data)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, _("Preferences saved."))
            return redirect(reverse("notification-preferences"))
    token = calendars.calendar_token_get(user=request.user)
    return render(
        request,
        "notifications/preferences.html",
        {"form": form, "calendar_urls": _calendar_urls(request, token.token)},
        status=400 if form.errors else 200,
    )


@login_required
@require_POST
def calendar_token_rotate(request: HttpRequest) -> HttpResponse:
    asking = confirmation(
        request,
        question=_(
            "Make new calendar addresses? The old ones stop working in every calendar app "
            "that uses them."
        ),
        label=_("Yes, make new addresses"),
        back_url=reverse("notification-preferences") + "#calendars",
        back_label=_("E-mail and calendars"),
    )
    if asking is not None:
        return asking
    calendars.calendar_token_rotate(user=request.user)
    messages.success(request, _("New calendar addresses: the old ones no longer work."))
    return redirect(reverse("notification-preferences") + "#calendars")


def _organised(request: HttpRequest, slug: str) -> Campaign:
    campaign = get_object_or_404(access.visible_campaigns(request.user), slug=slug)
    if not access.is_organiser(request.user, campaign):
        raise PermissionDenied
    return campaign


@login_required
@require_http_methods(["GET", "POST"])
def campaign_webhooks(request: HttpRequest, slug: str) -> HttpResponse:
    campaign = _organised(request, slug)
    form = WebhookForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            services.webhook_create(campaign=campaign, by=request.user, **form.cleaned_data)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, _("Webhook added."))
            return redirect(reverse("campaign-webhooks", args=[slug]))
    return render(
        request,
        "notifications/webhooks.html",
        {
            "campaign": campaign,
            "form": form,
            "webhooks": selectors.campaign_webhooks(campaign=campaign),
            "deliveries": selectors.recent_deliveries(campaign=campaign),
            "signature_header": services.SIGNATURE_HEADER,
        },
        status=400 if form.errors else 200,
    )


WEBHOOK_OPERATIONS = ("enable", "disable", "rotate", "delete")
# What cannot be taken back asks first: a deleted webhook, and a new secret (the receiver
# refuses every signature until it is given the new one).
WEBHOOK_QUESTIONS = {
    "delete": (
        gettext_lazy("Delete the webhook to %(url)s? Its deliveries stop."),
        gettext_lazy("Yes, delete it"),
    ),
    "rotate": (
        gettext_lazy(
            "Give the webhook to %(url)s a new secret? The old one stops at once: until the "
            "receiver has the new one, it will refuse every delivery's signature."
        ),
        gettext_lazy("Yes, a new secret"),
    ),
}


@login_required
@require_POST
def campaign_webhook_change(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    campaign = _organised(request, slug)
    webhook = get_object_or_404(selectors.campaign_webhooks(campaign=campaign), pk=pk)
    op = request.POST.get("op")
    if op not in WEBHOOK_OPERATIONS:
        raise Http404
    if op in WEBHOOK_QUESTIONS:
        question, label = WEBHOOK_QUESTIONS[op]
        asking = confirmation(
            request,
            question=question % {"url": webhook.url},
            label=label,
            back_url=reverse("campaign-webhooks", args=[slug]),
            back_label=_("Webhooks"),
        )
        if asking is not None:
            return asking
    if op == "delete":
        services.webhook_delete(webhook=webhook, by=request.user)
        messages.success(request, _("Webhook deleted."))
    else:
        services.webhook_update(
            webhook=webhook,
            by=request.user,
            active={"enable": True, "disable": False}.get(op),
            rotate_secret=op == "rotate",
        )
        messages.success(request, _("Webhook changed."))
    return redirect(reverse("campaign-webhooks", args=[slug]))
