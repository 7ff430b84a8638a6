"""Campaign pages. Thin: a selector to read, a form to parse, a service to write.

What a visitor may not see answers 404 (or sends an anonymous visitor to log in); an action he
may not take answers 403. Service errors come back to the page as messages or form errors.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST

from annuminas.converters import parse_id
from annuminas.errors import Conflict
from battles.campaigns import selectors, services
from battles.campaigns.confirmations import manage_confirmation
from battles.campaigns.forms import (
    CampaignForm,
    GenerateForm,
    JoinForm,
    OrganiserForm,
    RoundDatesForm,
)
from battles.campaigns.league_settings import preset_settings
from battles.campaigns.presets import PRESETS
from battles.campaigns.services.schedule import round_open_scheduled, round_schedule
from battles.campaigns.summary import house_rules_summary
from battles.common import access
from battles.common.pages import (
    add_service_errors,
    form_write,
    login_or_404,
    organised_campaign,
    pager,
    service_error_message,
    visible_or_login,
)
from battles.models import Campaign, Membership, Round


def _visible_campaign(request: HttpRequest, slug: str) -> Campaign:
    """The campaign page data, or: anonymous → login; not allowed to see it → 404."""
    return visible_or_login(
        request, lambda: selectors.campaign_detail(user=request.user, slug=slug)
    )


def campaign_list(request: HttpRequest) -> HttpResponse:
    archived = request.GET.get("archived") == "1"
    campaigns = list(selectors.campaign_list(user=request.user, archived=archived))
    roles = {}
    if request.user.is_authenticated:
        roles = dict(
            Membership.objects.filter(user=request.user, campaign__in=campaigns).values_list(
                "campaign_id", "role"
            )
        )
    for campaign in campaigns:
        campaign.my_role = roles.get(campaign.pk)
    return render(
        request,
        "battles/campaign_list.html",
        {"campaigns": campaigns, "archived": archived},
    )


def preset_table() -> dict:
    """The presets' guidelines: a column per setting a preset sets (``league_settings``)."""
    settings = preset_settings()

    def cell(setting, value) -> str:
        return "—" if value is None else f"{value} {setting.unit}".strip()

    return {
        "settings": settings,
        "rows": [
            (preset, [(s, cell(s, s.presets[preset.slug])) for s in settings]) for preset in PRESETS
        ],
    }


@login_required
@require_http_methods(["GET", "POST"])
def campaign_create(request: HttpRequest) -> HttpResponse:
    form = CampaignForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            campaign = services.campaign_create(
                organiser=request.user,
                name=data["name"],
                description=data["description"],
                preset=data["preset"],
                public=data["public"],
                house_rules=form.house_rules(creating=True),
                allowed_warband_types=data["allowed_warband_types"],
            )
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            messages.success(request, _("Campaign created. Open it when you are ready."))
            return redirect(campaign)
    return render(
        request,
        "battles/campaign_form.html",
        {"form": form, "presets": preset_table(), "creating": True},
    )


@login_required
@require_http_methods(["GET", "POST"])
def campaign_edit(request: HttpRequest, slug: str) -> HttpResponse:
    campaign = organised_campaign(request, slug)
    form = CampaignForm(request.POST or None, initial=CampaignForm.initial_for(campaign))
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        changes = {
            "name": data["name"],
            "description": data["description"],
            "public": data["public"],
            "preset": data["preset"],
            **form.house_rules(creating=False),
        }
        if form_write(
            form,
            services.campaign_update,
            campaign=campaign,
            by=request.user,
            changes=changes,
            allowed_warband_types=data["allowed_warband_types"],
        ):
            messages.success(request, _("House rules saved."))
            return redirect(campaign)
    return render(
        request,
        "battles/campaign_form.html",
        {"form": form, "presets": preset_table(), "creating": False, "campaign": campaign},
    )


def _shown_round(request: HttpRequest, rounds: list[Round], open_round: Round | None):
    """The round whose battles the page lists: ``?round=N``, else the open one, else the last."""
    number = parse_id(request.GET.get("round", ""))
    chosen = next((r for r in rounds if r.number == number), None)
    return chosen or open_round or (rounds[-1] if rounds else None)


@login_or_404
def campaign_detail(request: HttpRequest, slug: str) -> HttpResponse:
    """The campaign, its members a page at a time, its rounds, and the battles of one round a
    page at a time (the open round's, unless another is asked for)."""
    campaign = _visible_campaign(request, slug)
    organiser = access.is_organiser(request.user, campaign)
    rounds = list(campaign.rounds.all())
    open_round = next((r for r in rounds if r.status == Round.Status.OPEN), None)
    shown = _shown_round(request, rounds, open_round)
    members = selectors.members_page(campaign, request.GET.get("members"))
    battles = selectors.round_battles_page(shown, request.GET.get("page")) if shown else None
    managing = organiser and open_round is not None and not campaign.archived
    editing = parse_id(request.GET.get("edit", "")) if managing else None
    return render(
        request,
        "battles/campaign_detail.html",
        {
            "campaign": campaign,
            "is_organiser": organiser,
            "members": pager(request, members, "members", "members"),
            "rounds": rounds,
            "open_round": open_round,
            "shown_round": shown,
            "battles": pager(request, battles, "page", f"round-{shown.number}") if shown else None,
            "editing": editing,
            "players": selectors.players(campaign) if editing else [],
            "unpaired": selectors.players_unpaired(campaign, open_round) if managing else [],
            "my_membership": selectors.membership_of(campaign, request.user),
            "house_rules": house_rules_summary(campaign),
            "next_states": [
                (state, label)
                for state, label in Campaign.State.choices
                if state in services.TRANSITIONS.get(campaign.state, ())
            ],
            "generate_form": GenerateForm(),
            "organiser_form": OrganiserForm(),
            "round_dates_form": RoundDatesForm(),
            "open_round_dates_form": RoundDatesForm(round=open_round) if open_round else None,
        },
    )


MANAGE_OPERATIONS = (
    "transition", "archive", "unarchive", "new_code", "open_round", "close_round", "generate",
    "add_organiser", "withdraw", "add_pairing", "edit_pairing", "delete_pairing", "round_dates",
)  # fmt: skip


def _round_dates(post, round: Round | None = None) -> dict:
    """The posted start day and deadline, checked; ``ValidationError`` (nothing written) if not."""
    form = RoundDatesForm(post, round=round)
    if not form.is_valid():
        raise ValidationError([e for errors in form.errors.values() for e in errors])
    return form.cleaned_data


@login_required
@require_POST
def campaign_manage(request: HttpRequest, slug: str) -> HttpResponse:
    """The organiser's buttons on the campaign page (and a player's "leave"), one service each."""
    campaign = selectors.campaign_visible(user=request.user, slug=slug)
    op = request.POST.get("op")
    if op not in MANAGE_OPERATIONS:
        raise Http404
    if (asking := manage_confirmation(request, op=op, campaign=campaign)) is not None:
        return asking
    try:
        done = _campaign_manage_run(op, campaign=campaign, user=request.user, post=request.POST)
    except (ValidationError, Conflict) as error:
        service_error_message(request, error)
    else:
        messages.success(request, done)
    return redirect(_back_to(campaign, request.POST))


def _back_to(campaign: Campaign, post) -> str:
    """The campaign page, at the round (and page of its battles) the button was on."""
    number, page = parse_id(post.get("round", "")), parse_id(post.get("page", ""))
    if number is None:
        return campaign.get_absolute_url()
    query = f"?round={number}" + (f"&page={page}" if page else "")
    return f"{campaign.get_absolute_url()}{query}#round-{number}"


def _campaign_manage_run(op: str, *, campaign: Campaign, user, post) -> str:
    """Run one organiser's button; the answer says what was done, for the flash message."""
    if op == "transition":
        campaign = services.campaign_transition(
            campaign=campaign, by=user, state=post.get("state", "")
        )
        return _("The campaign is now: %(state)s.") % {"state": campaign.get_state_display()}
    if op in ("archive", "unarchive"):
        services.campaign_archive(campaign=campaign, by=user, archived=op == "archive")
        if op == "archive":
            return _("Campaign archived: it is kept, read-only.")
        return _("Campaign taken out of the archive.")
    if op == "new_code":
        campaign = services.campaign_new_join_code(campaign=campaign, by=user)
        return _("New join code: %(code)s.") % {"code": campaign.join_code}
    if op == "open_round":
        round = round_open_scheduled(campaign=campaign, by=user, **_round_dates(post))
        return _("Round %(number)d opened.") % {"number": round.number}
    if op == "round_dates":
        round = get_object_or_404(campaign.rounds.all(), number=_posted_int(post, "round"))
        round_schedule(round=round, by=user, **_round_dates(post, round))
        return _("Dates of round %(number)d saved.") % {"number": round.number}
    if op in ("close_round", "generate"):
        round = get_object_or_404(campaign.rounds.all(), number=_posted_int(post, "round"))
        if op == "close_round":
            services.round_close(round=round, by=user)
            return _("Round %(number)d closed.") % {"number": round.number}
        form = GenerateForm(post)
        if not form.is_valid():
            raise ValidationError(_("Choose a pairing method."))
        battles = services.pairings_generate(
            round=round, by=user, method=form.cleaned_data["method"]
        )
        return ngettext(
            "Pairings made: %(count)d battle.", "Pairings made: %(count)d battles.", len(battles)
        ) % {"count": len(battles)}
    if op == "add_organiser":
        membership = services.campaign_add_organiser(
            campaign=campaign, by=user, username=post.get("username", "")
        )
        return _("%(name)s now organises this campaign.") % {"name": membership.user.username}
    if op == "withdraw":
        membership = get_object_or_404(
            campaign.memberships.all(), pk=_posted_int(post, "membership")
        )
        membership = services.membership_withdraw(membership=membership, by=user)
        return _("%(name)s withdrawn from the campaign.") % {"name": membership.user.username}
    if op == "add_pairing":
        round = get_object_or_404(campaign.rounds.all(), number=_posted_int(post, "round"))
        services.pairing_create(
            campaign=campaign, by=user, round=round, warband_ids=_posted_ids(post, "warbands")
        )
        return _("Battle added to round %(number)d.") % {"number": round.number}
    battle = get_object_or_404(campaign.battles.all(), pk=_posted_int(post, "battle"))
    if op == "edit_pairing":
        services.pairing_edit(
            battle=battle,
            by=user,
            warband_ids=_posted_ids(post, "warbands"),
        )
        return _("Pairing changed.")
    services.pairing_delete(battle=battle, by=user)
    return _("Pairing removed.")


@login_required
@require_http_methods(["GET", "POST"])
def campaign_join(request: HttpRequest) -> HttpResponse:
    form = JoinForm(
        request.POST or None, user=request.user, initial={"join_code": request.GET.get("code", "")}
    )
    campaign = None
    if request.method == "POST" and form.is_valid():
        code = form.cleaned_data["join_code"].strip().upper()
        campaign = Campaign.objects.filter(join_code=code).first()
        if campaign is None:
            form.add_error("join_code", _("No campaign has that join code."))
        elif form_write(
            form,
            services.campaign_join,
            campaign=campaign,
            user=request.user,
            warband=form.cleaned_data["warband"],
            join_code=code,
        ):
            messages.success(request, _("You joined %(campaign)s.") % {"campaign": campaign.name})
            return redirect(campaign)
    # A league that plays its own pack: its warbands are built from that pack's version.
    code = (request.POST.get("join_code") or request.GET.get("code") or "").strip().upper()[:12]
    pack_version = (
        Campaign.objects.filter(join_code=code).values_list("pack_version", flat=True).first()
        if code
        else None
    )
    return render(
        request, "battles/campaign_join.html", {"form": form, "pack_version": pack_version}
    )


def _posted_ids(post, name: str) -> list[int]:
    return [n for n in map(parse_id, post.getlist(name)) if n is not None]


def _posted_int(post, name: str) -> int:
    """An id or number from a form; anything else is simply not found (404), never a 500."""
    value = parse_id(post.get(name))
    if value is None:
        raise Http404
    return value
