"""Account writes."""

from django.contrib.auth import get_user_model
from django.db import transaction
from rest_framework.authtoken.models import Token

User = get_user_model()


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
