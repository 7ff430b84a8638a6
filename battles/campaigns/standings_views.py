"""The standings page and its CSV. A league of 512 warbands is read in bulk (three queries for
the table) and shown a page at a time; the charts draw the warbands of the page being read (at
most ``CHART_LINES``, and the reader's own), so the page stays small whatever the league."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from annuminas.converters import parse_id
from battles.campaigns import selectors, services
from battles.campaigns.charts import Series, chart_legend, line_chart_svg
from battles.campaigns.exports import csv_filename, standings_csv
from battles.campaigns.scoring import standings_with_points
from battles.common.pages import login_or_404, pager, visible_or_login

STANDINGS_PER_PAGE = 50
CHART_LINES = 10


def _round_number(request: HttpRequest) -> int | None:
    return parse_id(request.GET.get("round", ""))


def _campaign(request: HttpRequest, slug: str):
    return visible_or_login(
        request, lambda: selectors.campaign_for_standings(user=request.user, slug=slug)
    )


def _charts(campaign, drawn, points_of, point_rounds, current: dict[int, int]) -> dict:
    """The rating and points charts of the ``drawn`` rows, one legend for both (the same
    warbands in the standings' order); ``current``: each warband's rating now."""
    ids = [row.competitor_id for row in drawn]
    round_numbers, history = selectors.rating_history(campaign, ids)
    labels = [_("R%(number)s") % {"number": n} for n in round_numbers] + [_("Now")]
    series = [
        Series(
            row.name,
            [history.get(row.competitor_id, {}).get(n) for n in round_numbers]
            + [current.get(row.competitor_id)],
        )
        for row in drawn
    ]
    points = points_of(ids)
    points_chart = line_chart_svg(
        [_("R%(number)s") % {"number": n} for n in point_rounds],
        [Series(row.name, points.get(row.competitor_id, [])) for row in drawn],
        title=_("Points over the rounds"),
        chart_id="points-chart",
    )
    return {
        "chart": line_chart_svg(labels, series, title=_("Warband rating over the rounds")),
        "chart_legend": chart_legend(series),
        "points_chart": points_chart if point_rounds else "",
    }


@login_or_404
def campaign_standings(request: HttpRequest, slug: str) -> HttpResponse:
    campaign = _campaign(request, slug)
    number = _round_number(request)
    rows, point_rounds, points_of = standings_with_points(campaign=campaign, round=number)
    page = Paginator(rows, STANDINGS_PER_PAGE).get_page(request.GET.get("page"))
    members = selectors.standing_members(campaign)
    own = {m.warband_id for m in members if m.user_id == request.user.pk}
    mine = [(index, row) for index, row in enumerate(rows) if row.competitor_id in own]
    drawn = list(page.object_list[:CHART_LINES])
    on_chart = {row.competitor_id for row in drawn}
    drawn += [row for _index, row in mine if row.competitor_id not in on_chart]
    players = {m.warband_id: m.username for m in members}
    for row in page.object_list:
        row.player = players.get(row.competitor_id, "")
        row.mine = row.competitor_id in own
    return render(
        request,
        "battles/campaign_standings.html",
        {
            "campaign": campaign,
            "rows": page.object_list,
            "pager": pager(request, page, "page", "standings-title"),
            "mine": [{"row": row, "page": index // STANDINGS_PER_PAGE + 1} for index, row in mine],
            "drawn": len(drawn),
            "total": len(rows),
            "round_number": number,
            "round_numbers": [r.number for r in campaign.rounds.all()],
            **_charts(
                campaign, drawn, points_of, point_rounds, {m.warband_id: m.rating for m in members}
            ),
        },
    )


@login_or_404
def campaign_standings_csv(request: HttpRequest, slug: str) -> HttpResponse:
    campaign = _campaign(request, slug)
    number = _round_number(request)
    rows = services.standings_compute(campaign=campaign, round=number)
    players = {m.warband_id: m.username for m in selectors.standing_members(campaign)}
    response = HttpResponse(
        standings_csv(rows, players=players), content_type="text/csv; charset=utf-8"
    )
    response["Content-Disposition"] = f'attachment; filename="{csv_filename(campaign, number)}"'
    return response
