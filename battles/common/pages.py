"""What the campaign and battle pages share: who reaches a page, and how a service's refusal
reaches the reader (flash messages, or errors on the form he posted)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.paginator import Page
from django.http import Http404, HttpRequest

from annuminas.errors import Conflict
from battles.campaigns import selectors
from battles.common import access
from battles.models import Campaign


def login_or_404(view):
    """Anonymous visitors of a page they cannot see are sent to log in, others get 404."""

    def wrapper(request, *args, **kwargs):
        try:
            return view(request, *args, **kwargs)
        except PermissionDenied:
            if not request.user.is_authenticated:
                return redirect_to_login(request.get_full_path())
            raise

    wrapper.__name__ = view.__name__
    wrapper.__doc__ = view.__doc__
    return wrapper


def visible_or_login(request: HttpRequest, find: Callable[[], Any]) -> Any:
    """What ``find`` returns; an anonymous visitor who may not see it is sent to log in (with
    ``login_or_404``), anyone else gets 404."""
    try:
        return find()
    except Http404:
        if not request.user.is_authenticated:
            raise PermissionDenied from None
        raise


def organised_campaign(request: HttpRequest, slug: str) -> Campaign:
    """The campaign page data for one of its organisers; 404 if he may not see it, else 403."""
    campaign = selectors.campaign_detail(user=request.user, slug=slug)
    if not access.is_organiser(request.user, campaign):
        raise PermissionDenied
    return campaign


def service_error_message(request: HttpRequest, error: Exception) -> None:
    """A service's refusal as error messages on the next page."""
    if isinstance(error, ValidationError):
        for message in error.messages:
            messages.error(request, message)
    else:
        messages.error(request, str(getattr(error, "detail", error)))


def form_write(form, service: Callable[..., Any], **kwargs: Any) -> bool:
    """Call ``service(**kwargs)``; its refusal (``ValidationError``, ``Conflict``) shows on
    ``form``, nothing written. True when it wrote."""
    try:
        service(**kwargs)
    except ValidationError as error:
        add_service_errors(form, error)
    except Conflict as error:
        form.add_error(None, str(error.detail))
    else:
        return True
    return False


def add_service_errors(form: forms.Form, error: ValidationError) -> None:
    """Show a service's ``ValidationError`` on the form (field errors where the field exists)."""
    if hasattr(error, "error_dict"):
        for field, field_messages in error.message_dict.items():
            form.add_error(field if field in form.fields else None, field_messages)
    else:
        form.add_error(None, error.messages)


@dataclass(frozen=True)
class Pager:
    """A page of a long list and the addresses of its neighbours (the page's other query
    parameters kept, ``#anchor`` so the reader lands on the list)."""

    page: Page
    previous_url: str | None
    next_url: str | None


def pager(request: HttpRequest, page: Page, param: str, anchor: str) -> Pager:
    def url(number: int) -> str:
        query = request.GET.copy()
        query[param] = str(number)
        query.pop("edit", None)
        return f"?{query.urlencode()}#{anchor}"

    return Pager(
        page,
        url(page.previous_page_number()) if page.has_previous() else None,
        url(page.next_page_number()) if page.has_next() else None,
    )
