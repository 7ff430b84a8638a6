"""Account writes, and the one way to check a password (with the failed-login limits)."""

from allauth.account.adapter import get_adapter
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import transaction
from django.http import HttpRequest
from rest_framework.authtoken.models import Token

User = get_user_model()

# allauth's error code when ACCOUNT_RATE_LIMITS["login_failed"] refuses an attempt.
TOO_MANY_LOGIN_ATTEMPTS = "too_many_login_attempts"


class LoginThrottled(Exception):
    """Too many failed logins for this login name or from this address: try again in
    ``retry_after`` seconds."""

    def __init__(self, retry_after: int = 60):
        self.retry_after = retry_after
        super().__init__(f"retry after {retry_after} s")


def user_authenticate(*, request: HttpRequest, login: str, password: str) -> User | None:
    """The active user with this username (or e-mail) and password, or None.

    Goes through allauth's adapter, like the login page: the failed-login limits
    (``annuminas.accounts.lockout``: per login name and per address for an unknown device) are
    checked *before* the password is hashed, and only failures count. Raises ``LoginThrottled``
    once a limit is reached — even for the right password, until the window has passed.
    """
    try:
        user = get_adapter(request).authenticate(request, username=login, password=password)
    except ValidationError as exc:
        if exc.code == TOO_MANY_LOGIN_ATTEMPTS:
            raise LoginThrottled(getattr(request, "login_retry_after", None) or 60) from exc
        raise
    if user is None or not user.is_active:
        return None
    return user


@transaction.atomic
def api_token_rotate(*, user: User) -> Token:
    """Replace the user's API token with a new one (the old one stops working at once)."""
    Token.objects.filter(user=user).delete()
    return Token.objects.create(user=user)


@transaction.atomic
def demo_user_ensure(*, username: str, password: str, email: str) -> User:
    """Create the demo account, or reset its password; running it twice changes nothing else."""
    user, _created = User.objects.get_or_create(username=username, defaults={"email": email})
    user.set_password(password)
    user.save(update_fields=["password"])
    from allauth.account.models import EmailAddress

    EmailAddress.objects.update_or_create(
        user=user, email=email, defaults={"verified": True, "primary": True}
    )
    return user
