"""The campaign's standings as the services read them (pairings by standings, pages, API):
the campaign's own scoring, ``battles.scoring``."""

from __future__ import annotations

from ..models import Campaign, Round
from ..scoring import campaign_standings, scheme_of
from ..standings import PointsScheme, Row


def points_scheme(campaign: Campaign) -> PointsScheme:
    return scheme_of(campaign)


def standings_compute(*, campaign: Campaign, round: Round | int | None = None) -> list[Row]:
    """The standings (overall, or after ``round``) by the campaign's own scoring
    (``battles.scoring``): three queries whatever the size of the campaign."""
    return campaign_standings(campaign=campaign, round=round)
