"""Site pages: home, health, and error pages in the visitor's language."""

import logging
import sys

import redis
from django.conf import settings
from django.contrib import admin
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import (
    PermissionDenied,
    RequestDataTooBig,
    TooManyFieldsSent,
    TooManyFilesSent,
)
from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views import defaults
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from .api.errors import json_error_response
from .outage import RETRY_AFTER_SECONDS, database_unreachable, outage
from .tasks import ping

logger = logging.getLogger(__name__)


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "annuminas/home.html")


def admin_login(request: HttpRequest) -> HttpResponse:
    """``/admin/login/``: the site's login page, never the admin's own form.

    The admin's form authenticates through ``ModelBackend`` directly, around the failed-login
    limits the login page and the token endpoint apply; so every sign-in goes through the login
    page, which returns to ``next``. A signed-in user the admin does not admit is refused rather
    than sent to log in again (the login page would send him straight back).
    """
    if not request.user.is_authenticated:
        return redirect_to_login(
            request.GET.get("next") or reverse("admin:index"), settings.LOGIN_URL
        )
    if admin.site.has_permission(request):
        return redirect("admin:index")
    raise PermissionDenied(_("Only staff may use the league administration."))


def favicon(request: HttpRequest) -> HttpResponse:
    """``/favicon.ico``, which browsers ask for on pages that name no icon (the admin, the
    API's JSON): the site's icon."""
    return redirect(static("img/favicon.svg"), permanent=True)


def _database_state() -> dict:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:  # any driver error means "down"; the reason is reported
        logger.warning("health: database unreachable: %s", exc)
        return {"ok": False, "vendor": connection.vendor, "error": str(exc)[:200]}
    return {"ok": True, "vendor": connection.vendor}


def _broker_state(check_worker: bool) -> dict:
    if not settings.REDIS_URL:
        return {
            "ok": True,
            "mode": "in-process",
            "detail": _("No broker configured: tasks run in-process."),
        }
    try:
        client = redis.Redis.from_url(
            settings.REDIS_URL, socket_connect_timeout=2, socket_timeout=2
        )
        client.ping()
    except redis.RedisError as exc:
        logger.warning("health: broker unreachable: %s", exc)
        return {"ok": False, "mode": "redis", "error": str(exc)[:200]}
    state: dict = {"ok": True, "mode": "redis"}
    if check_worker:
        try:
            state["worker"] = ping.apply_async().get(timeout=5)
        except Exception as exc:  # no worker answered in time
            state["ok"] = False
            state["worker"] = {"pong": False, "error": str(exc)[:200] or type(exc).__name__}
    return state


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    """200 when the database and the broker answer, 503 otherwise.

    ``?worker=1`` (staff only; others get the plain answer) also sends the ``ping`` task and
    waits for a worker's answer. Anonymous callers (load balancers, uptime probes) get the
    states only; staff also see the details (vendor, mode, the drivers' error messages, which
    can name hosts and ports).
    """
    staff = request.user.is_authenticated and request.user.is_staff
    database = _database_state()
    # The worker round-trip holds this web worker up to 5 s and queues a task: staff only.
    broker = _broker_state(check_worker=staff and request.GET.get("worker") == "1")
    healthy = database["ok"] and broker["ok"]
    if not staff:
        database, broker = _states_only(database), _states_only(broker)
    return JsonResponse(
        {"status": "ok" if healthy else "unavailable", "database": database, "broker": broker},
        status=200 if healthy else 503,
    )


def _states_only(component: dict) -> dict:
    state = {"ok": component["ok"]}
    if "worker" in component:
        state["worker"] = {"ok": bool(component["worker"].get("pong"))}
    return state


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    """A request Django refuses before any view (too many fields, a body over the size limit, a
    bad host): under /api/ the one error shape, like every other API answer."""
    if not request.path.startswith("/api/"):
        return defaults.bad_request(request, exception)
    if isinstance(exception, TooManyFieldsSent | TooManyFilesSent):
        message = _("The request has too many fields.")
    elif isinstance(exception, RequestDataTooBig):
        # Over DATA_UPLOAD_MAX_MEMORY_SIZE: 413, as the schema declares for every write.
        return json_error_response(413, "payload_too_large", _("The request body is too large."))
    else:
        message = _("Bad request.")
    return json_error_response(400, "bad_request", message)


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    if request.path.startswith("/api/"):
        return json_error_response(404, "not_found", _("Not found."))
    return render(request, "404.html", status=404)


def server_error(request: HttpRequest) -> HttpResponse:
    """A 500 page or error; the database out of reach is a 503 instead (``database_unavailable``).

    Django calls this while it handles the exception, so ``sys.exc_info()`` is that exception.
    """
    exception = sys.exc_info()[1]
    if database_unreachable(exception):
        return database_unavailable(request, exception)
    if request.path.startswith("/api/"):
        return json_error_response(500, "server_error", _("Server error: we have been notified."))
    return render(request, "500.html", status=500)


def database_unavailable(request: HttpRequest, exception: BaseException) -> HttpResponse:
    """503 with Retry-After: the error shape under /api/, a page in the visitor's language
    otherwise. The page reads nothing from the database (no menu, no user), and the answer is
    marked as logged: ``annuminas.outage`` logs the outage once, not each request's traceback."""
    outage.report(exception)
    message = _("The site cannot reach its database for a moment. Try again in half a minute.")
    if request.path.startswith("/api/"):
        response = json_error_response(503, "service_unavailable", message)
    else:
        page = render_to_string("503.html", {"message": message})
        response = HttpResponse(page, status=503)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    response["Cache-Control"] = "no-store"
    response._has_been_logged = True  # django.request would log a traceback per request
    return response
