from allauth.account.views import LoginView as AllauthLoginView
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from rest_framework.authtoken.models import Token

from annuminas.confirmation import confirmation

from .lockout import device_cookie_set
from .services import TOO_MANY_LOGIN_ATTEMPTS, api_token_rotate


@login_required
def profile(request: HttpRequest) -> HttpResponse:
    token = Token.objects.filter(user=request.user).first()
    return render(request, "account/profile.html", {"token": token})


@login_required
@require_POST
def token_rotate(request: HttpRequest) -> HttpResponse:
    if Token.objects.filter(user=request.user).exists():
        asking = confirmation(
            request,
            question=_(
                "Replace your API token? Every app that uses the current one stops working "
                "until you give it the new one."
            ),
            label=_("Yes, replace it"),
            back_url=reverse("profile"),
            back_label=_("Profile"),
        )
        if asking is not None:
            return asking
    api_token_rotate(user=request.user)
    messages.success(request, _("A new API token was issued; the previous one no longer works."))
    return redirect("profile")


class LoginView(AllauthLoginView):
    """allauth's login page; when the failed-login limit bites (``annuminas.accounts.lockout``,
    checked before any password is hashed) the page answers 429 with ``Retry-After`` and says
    when to come back. A successful login leaves a device cookie, so this browser is not held by
    its name's lockout next time."""

    def form_valid(self, form):
        response = super().form_valid(form)
        user = self.request.user
        if user.is_authenticated:
            device_cookie_set(response, user)
        return response

    def form_invalid(self, form):
        response = super().form_invalid(form)
        if login_throttled(form):
            response.status_code = 429
            wait = getattr(self.request, "login_retry_after", None)
            if wait:
                response["Retry-After"] = str(wait)
        return response


def login_throttled(form) -> bool:
    return any(
        error.code == TOO_MANY_LOGIN_ATTEMPTS
        for errors in form.errors.as_data().values()
        for error in errors
    )
