"""A campaign's settings in words, for its page: one line per setting, or one per group of
settings shown together (the points: "win 3 · draw 1 · loss 0 · bye 3"), built from their
declarations (``league_settings``)."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

from battles.campaigns import league_settings
from battles.campaigns.league_settings import Kind, Setting
from battles.campaigns.selectors import campaign_forbidden_swords
from battles.campaigns.setting_checks import ALL_HIRED_SWORDS
from warbands.packs.selectors import version_tables


@dataclass(frozen=True)
class SummaryLine:
    label: str
    value: str
    keys: tuple[str, ...]  # the settings it shows
    testid: str


def _labels(setting: Setting, names) -> list[str]:
    labels = dict(setting.choices())
    return [str(labels.get(name, name)) for name in names]


def _swords(campaign) -> str:
    forbidden = campaign_forbidden_swords(campaign)
    return _("all") if forbidden == ALL_HIRED_SWORDS else ", ".join(forbidden)


def _tables(campaign, own) -> str:
    """The tables the campaign overrides, then those its pack version sets (the rest: the
    defaults)."""
    own = list(own or ())
    pack = [name for name in version_tables(campaign.pack_version_id) if name not in own]
    parts = [f"{_('overridden')}: {', '.join(own)}"] if own else []
    if pack:
        parts.append(f"{_('from the content pack')}: {', '.join(sorted(pack))}")
    return " · ".join(parts)


def shown(setting: Setting, campaign) -> str:
    """The campaign's value of ``setting`` in words (its ``none_text`` when it has none)."""
    value = getattr(campaign, setting.key)
    match setting.kind:
        case Kind.NUMBER:
            text = "" if value is None else f"{value} {setting.unit}".strip()
        case Kind.TEXT:
            text = value or "—"
        case Kind.CHOICES:
            text = ", ".join(_labels(setting, value or []))
        case Kind.ORDER:
            text = "; ".join(_labels(setting, value or []))
        case Kind.TABLES:
            text = _tables(campaign, value)
        case Kind.SWORDS:
            text = _swords(campaign) if value else ""
        case Kind.TYPES:
            types = campaign.allowed_warband_types.all()
            text = ", ".join(sorted(kind.display_name for kind in types))
        case Kind.FLAG:
            text = _("yes") if value else _("no")
    return text or str(setting.none_text)


def house_rules_summary(campaign) -> list[SummaryLine]:
    lines = []
    for group, settings in league_settings.grouped():
        if group.together:
            parts = [
                str(s.short) % {"value": shown(s, campaign)} if s.short else shown(s, campaign)
                for s in settings
            ]
            keys = tuple(s.key for s in settings)
            lines.append(SummaryLine(str(group.legend), " · ".join(parts), keys, group.testid))
            continue
        lines += [
            SummaryLine(str(s.label), shown(s, campaign), (s.key,), s.testid) for s in settings
        ]
    return lines
