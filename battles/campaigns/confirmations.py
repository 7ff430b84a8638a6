"""What the campaign page's buttons that destroy ask before they act (the question and the
button's words), for the page that asks without JavaScript; the template asks the same with
``hx-confirm``."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _

from annuminas.confirmation import confirmation
from annuminas.converters import parse_id
from battles.common import access
from battles.models import Campaign

ORGANISER_QUESTIONS = ("delete_pairing", "new_code", "archive", "transition", "close_round")


def withdraw_question(membership, user) -> tuple[str, str]:
    if membership.user_id == user.pk:
        return (
            _("Leave %(campaign)s? Your battles so far stay in it, but you cannot join it again.")
            % {"campaign": membership.campaign.name},
            _("Yes, leave"),
        )
    return (
        _(
            "Remove %(name)s from the campaign? Their battles so far stay, but they cannot "
            "join it again."
        )
        % {"name": membership.user.username},
        _("Yes, remove"),
    )


def manage_question(op: str, *, campaign: Campaign, user, post) -> tuple[str, str] | None:
    """(question, button) for an operation of ``campaign_manage`` that destroys or cannot be
    undone; None for the others. Who may not act is refused here (403), as the service would,
    and an unknown id is a 404: nobody is asked about what he cannot do."""
    if op == "withdraw":
        membership = get_object_or_404(
            campaign.memberships.select_related("user", "campaign"),
            pk=parse_id(post.get("membership")) or 0,
        )
        if membership.user_id != user.pk and not access.is_organiser(user, campaign):
            raise PermissionDenied
        return withdraw_question(membership, user)
    if op in ORGANISER_QUESTIONS and not access.is_organiser(user, campaign):
        raise PermissionDenied
    if op == "delete_pairing":
        battle = get_object_or_404(campaign.battles.all(), pk=parse_id(post.get("battle")) or 0)
        return (
            _("Remove battle %(id)s from the round? The battle is deleted.") % {"id": battle.pk},
            _("Yes, remove it"),
        )
    if op == "new_code":
        return (
            _("Make a new join code? The old code and its join link stop working."),
            _("Yes, make a new code"),
        )
    if op == "archive":
        return (
            _("Archive the campaign? It becomes read-only until an organiser restores it."),
            _("Yes, archive it"),
        )
    if op == "transition" and post.get("state") == Campaign.State.FINISHED:
        return (
            _("Finish the campaign? No more rounds or battles can be played in it."),
            _("Yes, finish it"),
        )
    if op == "close_round":
        get_object_or_404(campaign.rounds.all(), number=parse_id(post.get("round")) or 0)
        return (
            _(
                "Close the round? It cannot be reopened; every battle in it must be confirmed "
                "first."
            ),
            _("Yes, close the round"),
        )
    return None


def manage_confirmation(request, *, op: str, campaign: Campaign):
    """The page that asks before ``op`` (see ``annuminas.confirmation``), or None: the operation
    does not ask, or the POST is confirmed."""
    asked = manage_question(op, campaign=campaign, user=request.user, post=request.POST)
    if asked is None:
        return None
    question, label = asked
    return confirmation(
        request,
        question=question,
        label=label,
        back_url=campaign.get_absolute_url(),
        back_label=campaign.name,
    )
