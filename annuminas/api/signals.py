"""Every API token of a user dies with his password or his account: a password change or reset
(whichever way: the account pages, the admin, ``changepassword``) and a deactivation delete his
device tokens and his older single token."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db.models.signals import pre_save
from django.dispatch import receiver
from rest_framework.authtoken.models import Token

from .models import ApiToken

User = get_user_model()


def tokens_revoke(user) -> int:
    deleted, _by_model = ApiToken.objects.filter(user=user).delete()
    legacy, _by_model = Token.objects.filter(user=user).delete()
    return deleted + legacy


@receiver(pre_save, sender=User, dispatch_uid="api-tokens-revoke-on-password-or-deactivation")
def revoke_tokens_on_password_or_deactivation(sender, instance, update_fields=None, **kwargs):
    if instance.pk is None:
        return
    if update_fields is not None and not {"password", "is_active"} & set(update_fields):
        return  # e.g. last_login at each login: no extra query
    old = User.objects.filter(pk=instance.pk).values("password", "is_active").first()
    if old is None:
        return
    if old["password"] != instance.password or (old["is_active"] and not instance.is_active):
        tokens_revoke(instance)
