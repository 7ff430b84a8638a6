"""The home page: the "what next" dashboard for a signed-in user, the product page for visitors;
and the number of things waiting, which the navigation loads on every page."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from battles.battlelog.selectors import battle_at_table

from . import views
from .dashboard import dashboard_for


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    if not request.user.is_authenticated:
        return views.home(request)
    dashboard = dashboard_for(user=request.user)
    return render(
        request,
        "annuminas/dashboard.html",
        {
            "dashboard": dashboard,
            "waiting_count": dashboard.waiting_count,
            "at_table": battle_at_table(request.user),
        },
    )


@never_cache
@require_GET
def waiting_badge(request: HttpRequest) -> HttpResponse:
    """The navigation's count (an htmx fragment); empty for visitors and when nothing waits."""
    count = dashboard_for(user=request.user).waiting_count if request.user.is_authenticated else 0
    return render(request, "annuminas/_waiting_badge.html", {"waiting_count": count})
