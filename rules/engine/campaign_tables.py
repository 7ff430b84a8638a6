"""The campaign tables a league may give its own rows for (a content pack's ``tables`` section,
a campaign's overrides): their names, their default rows in that shape, the one check of a
league's rows, and how the tables in force are layered.

A league's table has the default's shape: rows ``{"min", "max", "result"}`` (``"max": None``,
"and above"; advances add ``options``), the finds' prices as ``{"1": [six prices], …}``, the
thresholds as ``{"hero": […], "henchman": […]}``, the scenarios as ``[{"name",
"attacker_defender"}]``. :func:`tables_problems` answers every problem at once, each naming its
table, its row (counted from 1) and the row's key, so that the post-battle sequence never meets
a row it cannot read (a gap in the dice, an advance without its options).
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from rules.engine.i18n import gettext_noop as _
from rules.engine.profile import FIELDS as PROFILE_FIELDS
from rules.engine.tables import (
    EXPLORATION_FINDS_TABLE,
    HENCHMAN_ADVANCE_TABLE,
    HENCHMAN_INJURY_TABLE,
    HENCHMAN_THRESHOLDS,
    HERO_ADVANCE_TABLE,
    HERO_THRESHOLDS,
    SELL_FINDS_COLUMNS,
    SELL_FINDS_TABLE,
    SERIOUS_INJURY_TABLE,
    UNDERDOG_TABLE,
    row_json,
)

CAMPAIGN_TABLES = (
    "hero_injuries",
    "henchman_injuries",
    "hero_advances",
    "henchman_advances",
    "advance_thresholds",
    "underdog_bonus",
    "exploration",
    "sell_finds",
    # Not a dice table: the scenarios a battle may be fought under (the battle log's list).
    "scenarios",
)
TABLE_LABELS = {
    "hero_injuries": _("Heroes' serious injuries"),
    "henchman_injuries": _("Henchmen's injuries"),
    "hero_advances": _("Heroes' advances"),
    "henchman_advances": _("Henchmen's advances"),
    "advance_thresholds": _("Advance thresholds"),
    "underdog_bonus": _("Underdog bonus"),
    "exploration": _("Exploration"),
    "sell_finds": _("Selling finds"),
    "scenarios": _("Scenarios"),
}
# The scenarios the battle log offers when no one gives a list (the game's words, Spanish);
# those with an attacker and a defender need the attacker named before the battle starts.
DEFAULT_SCENARIOS: tuple[dict[str, Any], ...] = (
    {"name": "Escaramuza", "attacker_defender": False},
    {"name": "Defender el hallazgo", "attacker_defender": True},
    {"name": "Búsqueda del tesoro", "attacker_defender": False},
    {"name": "Irrupción", "attacker_defender": True},
    {"name": "Pelea callejera", "attacker_defender": False},
    {"name": "Encuentro fortuito", "attacker_defender": False},
    {"name": "Tesoro oculto", "attacker_defender": False},
    {"name": "Ocupación", "attacker_defender": False},
    {"name": "Ataque por sorpresa", "attacker_defender": True},
)

D66 = tuple(tens * 10 + units for tens in range(1, 7) for units in range(1, 7))
OPEN = None  # a table whose rows must reach "and above" (``"max": None``)
# Row tables: the values the dice (or the rating gap) can give, each needing its row; and what
# a row's result is ("text", "number", or the results an advance may give).
ROW_TABLES: dict[str, tuple[tuple[int, ...] | None, str]] = {
    "hero_injuries": (D66, "text"),
    "henchman_injuries": (tuple(range(1, 7)), "text"),
    "hero_advances": (tuple(range(2, 13)), "hero_advance"),
    "henchman_advances": (tuple(range(2, 13)), "henchman_advance"),
    "underdog_bonus": (OPEN, "number"),
    "exploration": (tuple(range(1, 37)), "number"),
}
ADVANCE_RESULTS = {
    "hero_advance": ("skill", "subroll", "choice", "characteristic"),
    "henchman_advance": ("characteristic", "choice", "lads_got_talent"),
}
ROW_KEYS = ("min", "max", "result", "options")
MAX_ROWS = 100
ROW_BOUND = 10_000
RESULT_MAX = 100
TEXT_MAX = 120
SELL_FINDS_MAX = 20
THRESHOLDS_MAX = 50
THRESHOLD_HIGH = 500
SCENARIOS_MAX = 50


@dataclass(frozen=True)
class TableProblem:
    """What is wrong in a league's tables: ``table`` (its name), ``row`` (counted from 1; 0:
    the table as a whole), ``key`` (the row's key, or ""), the message (English, translated by
    the caller) and its parameters."""

    table: str
    row: int
    key: str
    message: str
    params: Mapping[str, Any] = field(default_factory=dict)


def default_tables() -> dict[str, Any]:
    """Every campaign table's default rows, in the shape a league gives its own (a copy)."""
    data = {
        "hero_injuries": list(SERIOUS_INJURY_TABLE),
        "henchman_injuries": list(HENCHMAN_INJURY_TABLE),
        "hero_advances": [row_json(row) for row in HERO_ADVANCE_TABLE],
        "henchman_advances": [row_json(row) for row in HENCHMAN_ADVANCE_TABLE],
        "advance_thresholds": {
            "hero": list(HERO_THRESHOLDS),
            "henchman": list(HENCHMAN_THRESHOLDS),
        },
        "underdog_bonus": list(UNDERDOG_TABLE),
        "exploration": list(EXPLORATION_FINDS_TABLE),
        "sell_finds": {str(finds): list(prices) for finds, prices in SELL_FINDS_TABLE.items()},
        "scenarios": list(DEFAULT_SCENARIOS),
    }
    return copy.deepcopy(data)


def tables_in_force(*layers: Mapping[str, Any] | None) -> dict[str, Any]:
    """The tables a campaign plays by beyond the defaults: each layer's tables (a pack
    version's, then the campaign's own) replacing the earlier layers' table by table. A table
    the check refuses (one stored before the check was this strict) is left out, so the
    earlier layer's or the default table is played rather than a battle failing on it."""
    found: dict[str, Any] = {}
    for layer in layers:
        if not isinstance(layer, Mapping):
            continue
        found.update(
            {
                name: rows
                for name, rows in layer.items()
                if name in CAMPAIGN_TABLES and not tables_problems({name: rows})
            }
        )
    return found


def engine_table(name: str, rows: Any) -> Any:
    """A league's table as the engine's function takes it (the finds' prices keyed by the
    number of finds as a whole number; the others as they are)."""
    if name == "sell_finds" and isinstance(rows, Mapping):
        return {int(finds): prices for finds, prices in rows.items()}
    return rows


# The check ---------------------------------------------------------------------------------------
def tables_problems(tables: Any) -> list[TableProblem]:
    """Every problem of a league's ``tables`` (a mapping of table name → its rows); none: the
    post-battle sequence, the battle log and the pages can read every table."""
    if not isinstance(tables, Mapping):
        return [TableProblem("", 0, "", _("The tables are a mapping of table name to rows."))]
    problems: list[TableProblem] = []
    for name, rows in tables.items():
        if name not in CAMPAIGN_TABLES:
            problems.append(
                TableProblem(
                    str(name)[:60],
                    0,
                    "",
                    _("not a campaign table; the tables are: %(tables)s"),
                    {"tables": ", ".join(CAMPAIGN_TABLES)},
                )
            )
        elif name in ROW_TABLES:
            problems += _rows_problems(name, rows)
        elif name == "sell_finds":
            problems += _sell_finds_problems(rows)
        elif name == "advance_thresholds":
            problems += _thresholds_problems(rows)
        else:
            problems += _scenarios_problems(rows)
    return problems


def _whole(value: Any, low: int, high: int) -> bool:
    return not isinstance(value, bool) and isinstance(value, int) and low <= value <= high


def _number_problem(table: str, row: int, key: str, low: int, high: int) -> TableProblem:
    return TableProblem(
        table, row, key, _("a whole number from %(low)d to %(high)d"), {"low": low, "high": high}
    )


def _rows_problems(name: str, rows: Any) -> list[TableProblem]:
    if not isinstance(rows, list) or not rows:
        return [TableProblem(name, 0, "", _("a list of rows, each with min, max and result"))]
    if len(rows) > MAX_ROWS:
        return [TableProblem(name, 0, "", _("at most %(max)d rows"), {"max": MAX_ROWS})]
    problems: list[TableProblem] = []
    for number, row in enumerate(rows, start=1):
        problems += _row_problems(name, number, row)
    if not problems:
        problems += _coverage_problems(name, rows)
    return problems


def _row_problems(name: str, number: int, row: Any) -> list[TableProblem]:
    if not isinstance(row, Mapping):
        return [TableProblem(name, number, "", _("a row is a mapping of min, max and result"))]
    problems = [
        TableProblem(
            name,
            number,
            str(key)[:60],
            _("unknown key; a row has %(keys)s"),
            {"keys": ", ".join(ROW_KEYS)},
        )
        for key in row
        if key not in ROW_KEYS
    ]
    low, high = row.get("min"), row.get("max")
    if not _whole(low, 0, ROW_BOUND):
        problems.append(_number_problem(name, number, "min", 0, ROW_BOUND))
    if high is not None and not _whole(high, 0, ROW_BOUND):
        problems.append(
            TableProblem(
                name,
                number,
                "max",
                _('a whole number from %(low)d to %(high)d, or null for "and above"'),
                {"low": 0, "high": ROW_BOUND},
            )
        )
    elif _whole(low, 0, ROW_BOUND) and high is not None and high < low:
        problems.append(TableProblem(name, number, "max", _("less than min")))
    if "result" not in row:
        problems.append(TableProblem(name, number, "result", _("required")))
        return problems
    kind = ROW_TABLES[name][1]
    result = row["result"]
    if kind == "text":
        if not isinstance(result, str) or not result.strip() or len(result) > TEXT_MAX:
            problems.append(
                TableProblem(
                    name, number, "result", _("text of 1 to %(max)d characters"), {"max": TEXT_MAX}
                )
            )
    elif kind == "number":
        if not _whole(result, 0, RESULT_MAX):
            problems.append(_number_problem(name, number, "result", 0, RESULT_MAX))
    else:
        problems += _advance_problems(name, number, row, ADVANCE_RESULTS[kind])
    if "options" in row and kind in ("text", "number"):
        problems.append(TableProblem(name, number, "options", _("only an advance has options")))
    return problems


def _advance_problems(
    name: str, number: int, row: Mapping[str, Any], results: tuple[str, ...]
) -> list[TableProblem]:
    result, options = row["result"], row.get("options")
    if result not in results:
        return [
            TableProblem(
                name, number, "result", _("one of %(results)s"), {"results": ", ".join(results)}
            )
        ]
    fields = ", ".join(PROFILE_FIELDS)
    if result in ("skill", "lads_got_talent"):
        if options is not None:
            return [TableProblem(name, number, "options", _("this result has no options"))]
        return []
    if result == "subroll":
        return _subroll_problems(name, number, options)
    if (
        not isinstance(options, list)
        or not options
        or not all(isinstance(o, str) and o in PROFILE_FIELDS for o in options)
    ):
        return [
            TableProblem(
                name,
                number,
                "options",
                _("a list of characteristics among %(fields)s"),
                {"fields": fields},
            )
        ]
    return []


def _subroll_problems(name: str, number: int, options: Any) -> list[TableProblem]:
    """A D6 sub-roll's options: pairs ``["1-3", "s"]`` whose spans cover 1 to 6 once each."""
    covered: list[int] = []
    shaped = isinstance(options, list) and bool(options)
    for option in options if shaped else []:
        span = _span(option[0]) if isinstance(option, list) and len(option) == 2 else None
        if span is None or option[1] not in PROFILE_FIELDS:
            shaped = False
            break
        covered += range(span[0], span[1] + 1)
    if not shaped or sorted(covered) != list(range(1, 7)):
        return [
            TableProblem(
                name,
                number,
                "options",
                _('pairs such as ["1-3", "s"] whose spans cover 1 to 6 once each'),
            )
        ]
    return []


def _span(text: Any) -> tuple[int, int] | None:
    if not isinstance(text, str):
        return None
    low, _sep, high = text.partition("-")
    if not low.strip().isdigit() or not (high or low).strip().isdigit():
        return None
    first, last = int(low), int(high or low)
    return (first, last) if 1 <= first <= last <= 6 else None


def _coverage_problems(name: str, rows: list[Any]) -> list[TableProblem]:
    """Every value the dice can give has one row: none left out, none given twice."""
    problems: list[TableProblem] = []
    spans = sorted(
        ((row["min"], row.get("max"), number) for number, row in enumerate(rows, start=1)),
        key=lambda span: (span[0], span[2]),
    )
    for (_low, high, before), (low, _high, number) in zip(spans, spans[1:], strict=False):
        if high is None or low <= high:
            problems.append(
                TableProblem(name, number, "min", _("overlaps row %(row)d"), {"row": before})
            )
    values = ROW_TABLES[name][0]
    if values is None:
        lowest = min(span[0] for span in spans)
        if lowest > 1:
            problems.append(TableProblem(name, 0, "", _("no row starts at 1 or below")))
        gaps = [
            f"{high + 1}-{low - 1}" if low - 1 > high + 1 else str(high + 1)
            for (_low, high, _row), (low, _high, _next) in zip(spans, spans[1:], strict=False)
            if high is not None and low > high + 1
        ]
        if gaps:
            problems.append(
                TableProblem(name, 0, "", _("no row for %(values)s"), {"values": ", ".join(gaps)})
            )
        if spans[-1][1] is not None:
            problems.append(
                TableProblem(
                    name, spans[-1][2], "max", _('the last row needs max: null ("and above")')
                )
            )
        return problems
    missing = [v for v in values if not any(_holds(span, v) for span in spans)]
    if missing:
        shown = ", ".join(str(v) for v in missing[:8]) + ("…" if len(missing) > 8 else "")
        problems.append(TableProblem(name, 0, "", _("no row for %(values)s"), {"values": shown}))
    return problems


def _holds(span: tuple[int, int | None, int], value: int) -> bool:
    return span[0] <= value and (span[1] is None or value <= span[1])


def _sell_finds_problems(rows: Any) -> list[TableProblem]:
    columns = len(SELL_FINDS_COLUMNS)
    shape = _(
        'a mapping of the number of finds ("1", "2"…) to %(columns)d prices, one per column '
        "of warband size"
    )
    if not isinstance(rows, Mapping) or not rows:
        return [TableProblem("sell_finds", 0, "", shape, {"columns": columns})]
    problems: list[TableProblem] = []
    counts = []
    for key, prices in rows.items():
        finds = _finds(key)
        if finds is None:
            problems.append(_number_problem("sell_finds", 0, str(key)[:20], 1, SELL_FINDS_MAX))
            continue
        counts.append(finds)
        if (
            not isinstance(prices, list)
            or len(prices) != columns
            or not all(_whole(p, 0, ROW_BOUND) for p in prices)
        ):
            problems.append(
                TableProblem(
                    "sell_finds",
                    finds,
                    "",
                    _("%(columns)d whole numbers from 0 to %(high)d"),
                    {"columns": columns, "high": ROW_BOUND},
                )
            )
    if counts and sorted(counts) != list(range(1, max(counts) + 1)):
        problems.append(
            TableProblem("sell_finds", 0, "", _("give every number of finds from 1 to the highest"))
        )
    return problems


def _finds(key: Any) -> int | None:
    if isinstance(key, str) and key.isdigit():
        key = int(key)
    return key if _whole(key, 1, SELL_FINDS_MAX) else None


def _thresholds_problems(rows: Any) -> list[TableProblem]:
    if not isinstance(rows, Mapping) or not rows or not set(rows) <= {"hero", "henchman"}:
        return [
            TableProblem(
                "advance_thresholds", 0, "", _("a mapping of hero and henchman to their thresholds")
            )
        ]
    problems: list[TableProblem] = []
    for who, values in rows.items():
        if (
            not isinstance(values, list)
            or not 0 < len(values) <= THRESHOLDS_MAX
            or not all(_whole(v, 1, THRESHOLD_HIGH) for v in values)
            or any(b <= a for a, b in zip(values, values[1:], strict=False))
        ):
            problems.append(
                TableProblem(
                    "advance_thresholds",
                    0,
                    who,
                    _("experience points rising, whole numbers from 1 to %(high)d"),
                    {"high": THRESHOLD_HIGH},
                )
            )
    return problems


def _scenarios_problems(items: Any) -> list[TableProblem]:
    if not isinstance(items, list) or not 0 < len(items) <= SCENARIOS_MAX:
        return [
            TableProblem(
                "scenarios", 0, "", _("a list of 1 to %(max)d scenarios"), {"max": SCENARIOS_MAX}
            )
        ]
    problems: list[TableProblem] = []
    for number, item in enumerate(items, start=1):
        if not isinstance(item, Mapping) or not set(item) <= {"name", "attacker_defender"}:
            problems.append(
                TableProblem(
                    "scenarios", number, "", _("a scenario has a name and attacker_defender")
                )
            )
            continue
        name = item.get("name")
        if not isinstance(name, str) or not 0 < len(name.strip()) <= TEXT_MAX:
            problems.append(
                TableProblem(
                    "scenarios",
                    number,
                    "name",
                    _("text of 1 to %(max)d characters"),
                    {"max": TEXT_MAX},
                )
            )
        if not isinstance(item.get("attacker_defender", False), bool):
            problems.append(
                TableProblem("scenarios", number, "attacker_defender", _("true or false"))
            )
    return problems


def table_names(tables: Iterable[str]) -> list[str]:
    """The campaign tables among ``tables``, in the tables' own order."""
    given = set(tables)
    return [name for name in CAMPAIGN_TABLES if name in given]
