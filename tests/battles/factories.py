"""Campaign factories and fixtures, shared by tests/battles, tests/api and tests/e2e.

Test modules outside tests/battles take the fixtures with
``from tests.battles.factories import *  # noqa: F403`` (``__all__`` lists them). Warbands are
built through ``warbands.services`` so they are legal rosters, and the campaigns' house-rule
validator stays registered (unlike the warbands tests' ``content`` fixture).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field

import pytest
from django.contrib.auth import get_user_model

from battles.campaigns import services
from battles.models import Battle, Campaign, Round
from battles.reports import services as reports
from tests.warbands.fixtures import _content_preloaded
from warbands import services as warband_services
from warbands.content_loader import content_pack_load
from warbands.models import FighterType, Warband, WarbandType

__all__ = ["_content_preloaded", "_league", "league", "league_content", "make_league"]

MERCENARIES = "mercenarios-de-rhovanion"
CAPTAIN = "capitan-mercenario"
SOLDIER = "guerrero-mercenario"


def quick_user(username: str | None = None, **extra):
    """A user without a usable password (hashing one costs ~0.3 s; API tests force-login)."""
    username = username or f"user-{uuid.uuid4().hex[:8]}"
    return get_user_model().objects.create_user(
        username=username, email=f"{username}@example.com", password=None, **extra
    )


def new_warband(owner, name: str, *, type_slug: str = MERCENARIES, henchmen: int = 0) -> Warband:
    """A warband with its leader (and ``henchmen`` soldiers in one group), via the services."""
    warband_type = WarbandType.objects.get(slug=type_slug)
    warband = warband_services.warband_create(owner=owner, warband_type=warband_type, name=name)
    leader = warband_type.fighter_types.get(role="leader")
    warband_services.fighter_hire(warband=warband, fighter_type=leader, name=f"Jefe de {name}")
    if henchmen:
        soldier = warband_type.fighter_types.filter(role="henchman").order_by("cost", "pk").first()
        warband_services.fighter_hire(
            warband=warband, fighter_type=soldier, name="Guerreros", count=henchmen
        )
    warband.refresh_from_db()
    return warband


def fighter_type(slug: str) -> FighterType:
    return FighterType.objects.get(slug=slug)


@dataclass
class League:
    organiser: object
    campaign: Campaign
    players: list = field(default_factory=list)  # [(user, warband)]

    def warband(self, index: int) -> Warband:
        return self.players[index][1]

    def user(self, index: int):
        return self.players[index][0]

    def refresh(self) -> League:
        self.campaign.refresh_from_db()
        return self


def build_league(
    make_user=quick_user,
    *,
    players: int = 2,
    state: str = Campaign.State.RUNNING,
    name: str = "Liga de Fornost",
    henchmen: int = 0,
    prefix: str = "",
    **house_rules,
) -> League:
    organiser = make_user(f"{prefix}organiser-{name[:10].lower().replace(' ', '-')}")
    campaign = services.campaign_create(organiser=organiser, name=name, house_rules=house_rules)
    league = League(organiser=organiser, campaign=campaign)
    if state == Campaign.State.DRAFT:
        return league
    services.campaign_transition(campaign=campaign, by=organiser, state=Campaign.State.OPEN)
    for number in range(players):
        player = make_user(f"{prefix}player{number + 1}-{campaign.pk}")
        warband = new_warband(player, f"Banda {number + 1}", henchmen=henchmen)
        services.campaign_join(
            campaign=campaign, user=player, warband=warband, join_code=campaign.join_code
        )
        warband.refresh_from_db()
        league.players.append((player, warband))
    if state in (Campaign.State.RUNNING, Campaign.State.FINISHED):
        services.campaign_transition(campaign=campaign, by=organiser, state=Campaign.State.RUNNING)
    campaign.refresh_from_db()
    return league


def build_world(prefix: str = "w-") -> dict:
    """The permission matrices' world: a running campaign with round 1 paired (one scheduled
    battle), a stranger with his own warband, and the organiser of another campaign."""
    league = build_league(prefix=prefix)
    battle = first_battle(league)
    stranger = quick_user(f"{prefix}stranger")
    new_warband(stranger, "Forasteros")
    other = build_league(name="Liga de Bree", players=0, state="open", prefix=f"{prefix}x")
    users = {
        "anonymous": None,
        "stranger": stranger,
        "participant": league.user(0),
        "opponent": league.user(1),
        "organiser": league.organiser,
        "other_organiser": other.organiser,
    }
    return {"league": league, "battle": battle, "users": users, "other": other}


def league_on_pack(organiser, version, players: list[tuple[object, str]], *, name: str) -> League:
    """A running league on a pack ``version``: each (player, label) joined with a warband of
    the version's playable type, "Banda <label>" (its leader "Jefe de <label>" and three
    "Batidores de <label>")."""
    from warbands.packs import services as packs  # noqa: PLC0415

    campaign = services.campaign_create(organiser=organiser, name=name)
    packs.campaign_pack_move(campaign=campaign, version=version, by=organiser, confirmed=True)
    services.campaign_transition(campaign=campaign, by=organiser, state=Campaign.State.OPEN)
    kind = WarbandType.objects.get(pack_version=version, playable=True)
    league = League(organiser=organiser, campaign=campaign)
    for player, label in players:
        warband = warband_services.warband_create(
            owner=player, warband_type=kind, name=f"Banda {label}"
        )
        for role, fighter, count in (("leader", "Jefe", 1), ("henchman", "Batidores", 3)):
            warband_services.fighter_hire(
                warband=warband,
                fighter_type=kind.fighter_types.get(role=role),
                name=f"{fighter} de {label}",
                count=count,
            )
        services.campaign_join(
            campaign=campaign, user=player, warband=warband, join_code=campaign.join_code
        )
        league.players.append((player, warband))
    services.campaign_transition(campaign=campaign, by=organiser, state=Campaign.State.RUNNING)
    return league


def first_battle(league: League) -> Battle:
    """Open round 1 and pair it (Swiss); return the first real battle (not a bye)."""
    round = services.round_open(campaign=league.campaign, by=league.organiser)
    services.pairings_generate(round=round, by=league.organiser, method=Round.Method.SWISS)
    return round.battles.filter(is_bye=False).order_by("id").first()


def simple_report(battle: Battle, winner: Warband, **extra) -> reports.Report:
    participants = list(battle.participants.select_related("warband"))
    return reports.Report(
        scenario=extra.pop("scenario", "Escaramuza"),
        winner_ids=[winner.pk],
        participants=[
            reports.ParticipantReport(
                warband_id=p.warband_id,
                fighter_ids=list(p.warband.fighters.values_list("pk", flat=True)),
            )
            for p in participants
        ],
        **extra,
    )


@pytest.fixture
def league_content(_content_preloaded, db):
    """The default content pack, with the campaigns' house-rule validator left registered."""
    content_pack_load()


@pytest.fixture
def make_league(league_content):
    def make(**kwargs) -> League:
        return build_league(quick_user, **kwargs)

    return make


@pytest.fixture(scope="module")
def _league(module_transaction) -> League:
    with module_transaction:
        return build_league(prefix="m-")


@pytest.fixture
def league(_league, fresh, league_content) -> League:
    """A running campaign (draft preset "raid") with two players who joined with warbands,
    built once per module (tests/conftest.py, ``module_transaction``); its users' names start
    with "m-", so the league a test builds itself with ``make_league`` does not clash."""
    return fresh(_league)
