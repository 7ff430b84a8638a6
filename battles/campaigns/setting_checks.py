"""What a league setting's declaration points at: how a value an organiser sends is checked
(one cleaner per kind of setting, a few settings with their own), and how a house rule is
enforced against a warband's roster (one plain function per rule, over ``RosterFacts``).

A cleaner takes the setting and the value given and returns the value to store, or raises
``ValidationError`` with one message. A roster check takes the campaign's value (never "no
limit"), the roster's facts and the campaign's name, and returns the problems in words (empty:
the warband complies). ``battles.campaigns.house_rules`` gathers the facts and runs them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from warbands.campaign_tables import tables_issues
from warbands.models import HiredSword

if TYPE_CHECKING:
    from battles.campaigns.league_settings import Setting

# Hired swords a campaign forbids: a list of their slugs, or "all".
ALL_HIRED_SWORDS = "all"
# A campaign's tables: at most this many problems are named at once.
TABLES_SHOWN = 5


# --- the roster, as the house rules read it ----------------------------------------------------
FIGHTERS = "fighters"  # what a check may need beyond the warband row itself


@dataclass(frozen=True)
class FighterFact:
    """One warrior in the roster: his type (slug, and name in the reader's language), whether
    he is a hero and whether he is a hired sword."""

    type_slug: str
    type_name: str
    hero: bool = False
    hired_sword: bool = False


@dataclass(frozen=True)
class RosterFacts:
    name: str
    rating: int
    warband_type_id: int
    warband_type_name: str
    # the warriors in the roster, read only when a rule in force needs them (``FIGHTERS``)
    fighters: tuple[FighterFact, ...] = ()


RosterCheck = Callable[[Any, RosterFacts, str], list[str]]


def rating_cap_check(cap: int, roster: RosterFacts, campaign: str) -> list[str]:
    if roster.rating <= cap:
        return []
    return [
        _(
            "%(warband)s would have a rating of %(rating)s, over the cap of %(cap)s "
            "of the campaign %(campaign)s."
        )
        % {"warband": roster.name, "rating": roster.rating, "cap": cap, "campaign": campaign}
    ]


def fighter_type_copies_check(most: int, roster: RosterFacts, campaign: str) -> list[str]:
    """Heroes only: henchmen are the warband's troops, which the cap on copies leaves alone."""
    copies = Counter(fighter.type_name for fighter in roster.fighters if fighter.hero)
    return [
        _(
            "%(warband)s would field %(count)s × %(type)s; the campaign %(campaign)s "
            "allows at most %(max)s of one fighter type."
        )
        % {"warband": roster.name, "count": count, "type": name, "campaign": campaign, "max": most}
        for name, count in sorted(copies.items())
        if count > most
    ]


def max_warriors_check(most: int, roster: RosterFacts, campaign: str) -> list[str]:
    """Heroes, henchmen and hired swords together."""
    if len(roster.fighters) <= most:
        return []
    return [
        _(
            "%(warband)s would field %(count)s warriors; the campaign %(campaign)s allows at "
            "most %(max)s in a warband."
        )
        % {"warband": roster.name, "count": len(roster.fighters), "campaign": campaign, "max": most}
    ]


def allowed_types_check(types: Sequence, roster: RosterFacts, campaign: str) -> list[str]:
    """``types``: the warband types the campaign allows (rows with ``pk`` and a name)."""
    if any(kind.pk == roster.warband_type_id for kind in types):
        return []
    return [
        _("The campaign %(campaign)s does not allow %(type)s; it allows: %(allowed)s.")
        % {
            "campaign": campaign,
            "type": roster.warband_type_name,
            "allowed": ", ".join(sorted(kind.display_name for kind in types)),
        }
    ]


def hired_swords_check(forbidden, roster: RosterFacts, campaign: str) -> list[str]:
    """``forbidden``: ``"all"`` or the slugs of the hired swords the campaign forbids."""
    swords = {f.type_slug: f.type_name for f in roster.fighters if f.hired_sword}
    return [
        _("The campaign %(campaign)s does not allow the hired sword %(sword)s.")
        % {"campaign": campaign, "sword": name}
        for slug, name in sorted(swords.items())
        if forbidden == ALL_HIRED_SWORDS or slug in forbidden
    ]


# --- the values an organiser sends -------------------------------------------------------------
def whole(value) -> int | None:
    """``value`` as a whole number (an int, not a bool, or digits in a string), else ``None``."""
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        return int(value)
    return value if type(value) is int else None


def number_clean(setting: Setting, value) -> int | None:
    if value is None and setting.no_limit:
        return None
    number = whole(value)
    low, high = setting.bounds
    if number is None or not low <= number <= high:
        raise ValidationError(setting.bounds_message())
    return number


def text_clean(setting: Setting, value) -> str:
    text = str(value or "").strip()
    if len(text) > setting.max_length:
        raise ValidationError(
            _("Keep it to %(max)s characters at most.") % {"max": setting.max_length}
        )
    return text


def flag_clean(setting: Setting, value) -> bool:
    if not isinstance(value, bool):
        raise ValidationError(_("Choose yes or no (true or false)."))
    return value


def _names(value) -> list[str] | None:
    """A list of names without repeats, or ``None`` when ``value`` is not a list of texts."""
    if value is None:
        return []
    if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
        return None
    return list(dict.fromkeys(value))


def choices_clean(setting: Setting, value) -> list[str]:
    """Some of the setting's choices, each once (``None``: none)."""
    names = _names(value)
    known = [key for key, _label in setting.choices()]
    if names is None or any(name not in known for name in names):
        raise ValidationError(setting.choices_message(known))
    return names


def tie_breakers_clean(setting: Setting, value) -> list[str]:
    """The setting's choices in the order given, each at most once (``None``: none)."""
    if value is None:
        return []
    names = _names(value)
    known = [key for key, _label in setting.choices()]
    if names is None:
        raise ValidationError(_("Tie-breakers are a list of names."))
    if unknown := [name for name in value if name not in known]:
        raise ValidationError(
            _("Unknown tie-breaker %(names)s; choose from: %(known)s.")
            % {"names": ", ".join(unknown), "known": ", ".join(known)}
        )
    if len(names) != len(value):
        raise ValidationError(_("Each tie-breaker may be chosen once."))
    return names


def hired_swords_clean(setting: Setting, value) -> str | list[str]:
    """``"all"``, or a list of hired swords' slugs (each known to the catalogue, once)."""
    if value == ALL_HIRED_SWORDS:
        return ALL_HIRED_SWORDS
    if value in (None, ""):
        return []
    slugs = _names(value)
    if slugs is None:
        raise ValidationError(
            _('Forbid hired swords with a list of their slugs, or "all" for every one.')
        )
    known = set(
        HiredSword.objects.filter(fighter_type__slug__in=slugs).values_list(
            "fighter_type__slug", flat=True
        )
    )
    unknown = [slug for slug in slugs if slug not in known]
    if unknown:
        raise ValidationError(
            _("Unknown hired swords: %(slugs)s.") % {"slugs": ", ".join(unknown[:10])}
        )
    return slugs


def tables_clean(setting: Setting, value) -> dict:
    """The campaign's own table overrides, by the one check of a league's tables (a content
    pack's are checked by the same): every problem named by its table, row and key."""
    tables = value or {}
    if isinstance(tables, dict) and "advance_thresholds" in tables:
        raise ValidationError(
            _(
                "advance_thresholds: the experience thresholds are those of the warband's "
                "content pack (a warband may play in several campaigns): set them in the pack."
            )
        )
    if issues := tables_issues(tables):
        shown = "; ".join(str(issue) for issue in issues[:TABLES_SHOWN])
        more = len(issues) - TABLES_SHOWN
        if more > 0:
            shown += " " + _("(and %(count)d more)") % {"count": more}
        raise ValidationError(shown)
    return tables


# --- checks across settings --------------------------------------------------------------------
def points_in_order(final: Callable[[str], Any]) -> dict[str, str]:
    """A win is worth at least a draw, a draw at least a loss (``final``: each setting's value
    after the change; ``None`` when it is not known)."""
    win, draw, loss = final("points_win"), final("points_draw"), final("points_loss")
    if None in (win, draw, loss) or loss <= draw <= win:
        return {}
    if win < loss:
        return {"points_win": _("A win cannot be worth fewer points than a loss.")}
    return {"points_draw": _("A draw must be worth at least a loss and at most a win.")}
