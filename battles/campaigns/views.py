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
from battles.campaigns.charts import Series, chart_legend, line_chart_svg
from battles.campaigns.confirmations import manage_confirmation
from battles.campaigns.exports import csv_filename, standings_csv
from battles.campaigns.forms import (
    CampaignForm,
    GenerateForm,
    JoinForm,
    OrganiserForm,
    PairingForm,
    RoundDatesForm,
)
from battles.campaigns.league_settings import preset_settings
from battles.campaigns.presets import PRESETS
from battles.campaigns.scoring import standings_with_points
from battles.campaigns.services.schedule import round_open_scheduled, round_schedule
from battles.campaigns.summary import house_rules_summary
from battles.common import access
from battles.common.pages import (
    add_service_errors,
    form_write,
    login_or_404,
    organised_campaign,
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


@login_or_404
def campaign_detail(request: HttpRequest, slug: str) -> HttpResponse:
    campaign = _visible_campaign(request, slug)
    organiser = access.is_organiser(request.user, campaign)
    memberships = list(campaign.memberships.all())
    players = [m for m in memberships if m.warband_id and m.active]
    rounds = list(campaign.rounds.all())
    open_round = next((r for r in rounds if r.status == Round.Status.OPEN), None)
    my_membership = next((m for m in memberships if m.user_id == request.user.pk), None)
    warband_choices = [(str(m.warband_id), m.warband.name) for m in players]
    return render(
        request,
        "battles/campaign_detail.html",
        {
            "campaign": campaign,
            "is_organiser": organiser,
            "memberships": memberships,
            "organisers": [m for m in memberships if m.is_organiser],
            "players": players,
            "rounds": rounds,
            "open_round": open_round,
            "my_membership": my_membership,
            "house_rules": house_rules_summary(campaign),
            "next_states": [
                (state, label)
                for state, label in Campaign.State.choices
                if state in services.TRANSITIONS.get(campaign.state, ())
            ],
            "generate_form": GenerateForm(),
            "organiser_form": OrganiserForm(),
            "pairing_form": PairingForm(warband_choices=warband_choices),
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
    campaign = selectors.campaign_detail(user=request.user, slug=slug)
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
    return redirect(campaign)


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
    return render(request, "battles/campaign_join.html", {"form": form})


def _posted_ids(post, name: str) -> list[int]:
    return [n for n in map(parse_id, post.getlist(name)) if n is not None]


def _posted_int(post, name: str) -> int:
    """An id or number from a form; anything else is simply not found (404), never a 500."""
    value = parse_id(post.get(name))
    if value is None:
        raise Http404
    return value


def _round_number(request: HttpRequest) -> int | None:
    value = request.GET.get("round", "")
    return parse_id(value)


@login_or_404
def campaign_standings(request: HttpRequest, slug: str) -> HttpResponse:
    campaign = _visible_campaign(request, slug)
    number = _round_number(request)
    rows, point_rounds, points = standings_with_points(campaign=campaign, round=number)
    players = selectors.players_by_warband(campaign)
    round_numbers, history = selectors.rating_history(campaign)
    current = {m.warband_id: m.warband.rating for m in campaign.memberships.all() if m.warband_id}
    labels = [_("R%(number)s") % {"number": n} for n in round_numbers] + [_("Now")]
    series = [
        Series(
            row.name,
            [history.get(row.competitor_id, {}).get(n) for n in round_numbers]
            + [current.get(row.competitor_id)],
        )
        for row in rows
    ]
    chart = line_chart_svg(labels, series, title=_("Warband rating over the rounds"))
    # Points after each round by the campaign's own scoring, in the standings' order.
    points_chart = line_chart_svg(
        [_("R%(number)s") % {"number": n} for n in point_rounds],
        [Series(row.name, points.get(row.competitor_id, [])) for row in rows],
        title=_("Points over the rounds"),
        chart_id="points-chart",
    )
    for row in rows:
        row.player = players.get(row.competitor_id, "")
    return render(
        request,
        "battles/campaign_standings.html",
        {
            "campaign": campaign,
            "rows": rows,
            "round_number": number,
            "round_numbers": [r.number for r in campaign.rounds.all()],
            "chart": chart,
            # Both charts draw the standings' rows in their order: one legend serves both.
            "chart_legend": chart_legend(series),
            "points_chart": points_chart if point_rounds else "",
        },
    )


@login_or_404
def campaign_standings_csv(request: HttpRequest, slug: str) -> HttpResponse:
    campaign = _visible_campaign(request, slug)
    number = _round_number(request)
    rows = services.standings_compute(campaign=campaign, round=number)
    players = selectors.players_by_warband(campaign)
    response = HttpResponse(
        standings_csv(rows, players=players), content_type="text/csv; charset=utf-8"
    )
    response["Content-Disposition"] = f'attachment; filename="{csv_filename(campaign, number)}"'
    return response
