"""Writes of organisers' packs: create (empty, a copy of the default pack or of a pack one may
read), import into the draft (with its dry run), publish (the draft becomes an immutable
version whose catalogue rows are built), and a campaign's move to a version (previewed per
warband first; rosters change only when the organiser confirms)."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from annuminas.errors import Conflict
from rules.engine.campaign_tables import CAMPAIGN_TABLES

from ..campaign_tables import stored_table, table_label
from ..content_loader import DEFAULT_PACK_PATH, _PackLoader, pack_files, read_pack
from ..models import (
    ContentPack,
    Equipment,
    EquipmentItem,
    Fighter,
    FighterType,
    HenchmanGroup,
    PackVersion,
    Skill,
    Warband,
    WarbandType,
)
from ..models.catalogue import local_slug, version_prefix
from ..services.rating import roster_refresh
from .document import ENTRY_LABELS, NESTED, TABLES, Problem, document_check
from .files import DryRun, compare, dry_run
from .known import known_default
from .selectors import references, version_tables

PACK_SLUG_MAX = 50
DEFAULT_TABLES = gettext_lazy(
    "The default pack plays by the rules engine's tables; a league's own tables go in its own pack."
)
RESERVED_SLUGS = {"new"}  # the pages' own addresses under /packs/


def default_document() -> dict[str, Any]:
    """The default pack as one document (its files, as ``load_content`` reads them)."""
    files, _hash = pack_files(DEFAULT_PACK_PATH)
    data = read_pack(files, DEFAULT_PACK_PATH)
    data.pop("pack", None)
    return data


# Who may do what --------------------------------------------------------------------------
def may_edit(pack: ContentPack, user) -> bool:
    """Organisers edit their own packs; content editors the default pack (no owner)."""
    if not user or not user.is_authenticated:
        return False
    if pack.owner_id is None:
        return user.has_perm("warbands.import_contentpack")
    return pack.owner_id == user.pk


def may_read(pack: ContentPack, user) -> bool:
    """Public and unlisted packs (with the link) and the default one: anyone; a private one:
    its owner, and the members of a campaign that plays it."""
    if pack.owner_id is None or pack.visibility != ContentPack.Visibility.PRIVATE:
        return True
    if not user or not user.is_authenticated:
        return False
    if pack.owner_id == user.pk:
        return True
    return pack.versions.filter(campaigns__memberships__user=user).exists()


def _require_edit(pack: ContentPack, user) -> None:
    if not may_edit(pack, user):
        raise PermissionDenied(_("Only the pack's author may change it."))


# Packs and drafts -------------------------------------------------------------------------
@transaction.atomic
def pack_create(
    *,
    owner,
    name: str,
    visibility: str = ContentPack.Visibility.PRIVATE,
    credit: str = "",
    description: str = "",
    copy_of: PackVersion | None | str = None,
) -> ContentPack:
    """A new pack with a first draft: empty, the default pack's content (``copy_of="default"``)
    or a copy of a version the owner may read."""
    name = (name or "").strip()
    if not name or len(name) > 120:
        raise ValidationError({"name": _("A name of 1 to 120 characters.")})
    if visibility not in ContentPack.Visibility.values:
        raise ValidationError({"visibility": _("Not a visibility.")})
    if copy_of == "default":
        document = default_document()
    elif isinstance(copy_of, PackVersion):
        if not copy_of.is_published or not may_read(copy_of.pack, owner):
            raise PermissionDenied(_("That pack version may not be copied."))
        document = copy.deepcopy(copy_of.document)
    else:
        document = {}
    base = slugify(name)[:PACK_SLUG_MAX] or "pack"
    slug, n = base, 1
    while slug in RESERVED_SLUGS or ContentPack.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base[: PACK_SLUG_MAX - 4]}-{n}"
    pack = ContentPack.objects.create(
        slug=slug,
        name=name,
        owner=owner,
        visibility=visibility,
        credit=credit[:300],
        description=description[:2000],
        source="site",
    )
    PackVersion.objects.create(pack=pack, number=1, document=document, created_by=owner)
    return pack


def pack_update(*, pack: ContentPack, by, **fields: Any) -> ContentPack:
    _require_edit(pack, by)
    for key in ("name", "visibility", "credit", "description"):
        if key in fields:
            setattr(pack, key, fields[key])
    if pack.visibility not in ContentPack.Visibility.values:
        raise ValidationError({"visibility": _("Not a visibility.")})
    if not pack.name.strip():
        raise ValidationError({"name": _("A name of 1 to 120 characters.")})
    pack.save()
    return pack


def pack_draft(*, pack: ContentPack, by) -> PackVersion:
    """The pack's draft: the one being edited, or a new one copied from the last version."""
    _require_edit(pack, by)
    with transaction.atomic():
        ContentPack.objects.select_for_update().filter(pk=pack.pk).first()
        draft = pack.versions.filter(state=PackVersion.State.DRAFT).first()
        if draft is not None:
            return draft
        last = pack.versions.order_by("-number").first()
        if last is not None:
            document = copy.deepcopy(last.document)
        else:
            document = default_document() if pack.owner_id is None else {}
        return PackVersion.objects.create(
            pack=pack, number=(last.number + 1) if last else 1, document=document, created_by=by
        )


def draft_document(pack: ContentPack, draft: PackVersion | None) -> dict[str, Any]:
    """What the next edit starts from (reads only): the draft's document, or the one
    ``pack_draft`` would copy (the last version's; the default pack's files)."""
    if draft is not None:
        return draft.document
    last = pack.versions.order_by("-number").first()
    if last is not None:
        return last.document
    return default_document() if pack.owner_id is None else {}


def pack_import(*, pack: ContentPack, by, text: str | bytes, apply: bool) -> DryRun:
    """Read a YAML file into the pack's draft. ``apply=False``: the dry run only. Nothing is
    written unless every entry passes (``report.ok``)."""
    _require_edit(pack, by)
    with transaction.atomic():
        draft = pack_draft(pack=pack, by=by)
        draft = PackVersion.objects.select_for_update().get(pk=draft.pk)
        report = dry_run(text, current=draft.document, known=known_default())
        if apply and report.ok:
            document = report.document
            document.pop("pack", None)
            draft.document = document
            draft.save(update_fields=["document"])
    return report


def pack_draft_change(*, pack: ContentPack, by, change, apply: bool = True) -> DryRun:
    """The one write of a draft's entries, for every door (a form, the API): ``change(document)``
    edits a copy of the draft's document, which is checked as the whole document is
    (``document_check``); nothing is written unless it all passes. ``change`` may refuse by
    returning problems (``Problem``), reported as the check's are."""
    _require_edit(pack, by)
    with transaction.atomic():
        draft = pack_draft(pack=pack, by=by)
        draft = PackVersion.objects.select_for_update().get(pk=draft.pk)
        document = copy.deepcopy(draft.document)
        refused = change(document) or []
        report = compare(document, current=draft.document, known=known_default())
        report.problems[:0] = refused
        if apply and report.ok:
            draft.document = document
            draft.save(update_fields=["document"])
    return report


def pack_entries_save(
    *, pack: ContentPack, by, entries: dict[str, dict[str, Any]], apply: bool = True
) -> DryRun:
    """Entries of the draft written (``{section: {slug: entry}}``), checked as the whole
    document is; nothing is written unless it all passes."""

    def change(document):
        for section, rows in entries.items():
            document.setdefault(section, {}).update(rows)

    return pack_draft_change(pack=pack, by=by, change=change, apply=apply)


# A section whose entries hold nested ones: section → the key that holds them.
CHILDREN = dict(NESTED.values())


def _rows_of(document: dict, kind: str, parent: str) -> dict | None:
    """The mapping that holds ``kind`` entries: a section, or a parent's nested entries (None:
    no such parent)."""
    if kind not in NESTED:
        rows = document.get(kind)
        if not isinstance(rows, dict):
            rows = document[kind] = {}
        return rows
    section, key = NESTED[kind]
    holder = (document.get(section) or {}).get(parent)
    if not isinstance(holder, dict):
        return None
    if not isinstance(holder.get(key), dict):
        holder[key] = {}
    return holder[key]


def _entry_problem(kind: str, slug: str, field_name: str, message: str) -> Problem:
    section = NESTED[kind][0] if kind in NESTED else kind
    return Problem(section, slug, f"{ENTRY_LABELS[kind]} {slug}", field_name, message)


def pack_entry_save(
    *,
    pack: ContentPack,
    by,
    kind: str,
    slug: str,
    entry: dict[str, Any],
    parent: str = "",
    new: bool = False,
    apply: bool = True,
) -> DryRun:
    """One entry of the draft written: ``kind`` is a section, or "skills" / "fighter_types"
    under their ``parent`` (a skill list's, a warband type's slug). ``new``: refused if the
    slug is taken. An entry given without its nested entries keeps the ones it had."""
    if kind not in ENTRY_LABELS:
        raise ValidationError(_("Not a section of a pack."))
    if kind == TABLES:
        entry = stored_table(slug, entry)

    def change(document):
        if kind == TABLES and pack.owner_id is None:
            return [_entry_problem(kind, slug, "", DEFAULT_TABLES)]
        rows = _rows_of(document, kind, parent)
        if rows is None:
            return [_entry_problem(NESTED[kind][0], parent, "", _("no such entry"))]
        if new and slug in rows:
            return [_entry_problem(kind, slug, "slug", _("already in the draft"))]
        row, old = entry, rows.get(slug)
        key = CHILDREN.get(kind)
        kept = isinstance(old, dict) and key in old
        if key and kept and isinstance(row, dict) and key not in row:
            row = {**row, key: old[key]}
        rows[slug] = row
        return []

    return pack_draft_change(pack=pack, by=by, change=change, apply=apply)


def _tables_allowed(pack: ContentPack) -> None:
    """The default catalogue plays by the rules engine's tables: a league's own go in its pack."""
    if pack.owner_id is None:
        raise ValidationError(str(DEFAULT_TABLES))


def pack_entry_delete(
    *, pack: ContentPack, by, kind: str, slug: str, parent: str = "", apply: bool = True
) -> DryRun:
    """One entry taken out of the draft (a table: the campaigns go back to the default one);
    refused while other entries point at it (``Conflict`` naming them), or when the draft
    would then fail the check (a warband type's last leader)."""
    if kind not in ENTRY_LABELS:
        raise ValidationError(_("Not a section of a pack."))

    def change(document):
        rows = _rows_of(document, kind, parent)
        if rows is None or slug not in rows:
            return [_entry_problem(kind, slug, "", _("no such entry"))]
        if kind not in NESTED and (users := references(document, kind, slug)):
            raise Conflict(
                _("%(entry)s is used by %(entries)s.")
                % {"entry": f"{ENTRY_LABELS[kind]} {slug}", "entries": ", ".join(users)},
                code="entry_in_use",
            )
        del rows[slug]
        if not rows and kind not in NESTED:
            document.pop(kind)
        return []

    return pack_draft_change(pack=pack, by=by, change=change, apply=apply)


class _VersionLoader(_PackLoader):
    """The loader of ``load_content`` writing a version's own rows: each slug prefixed with the
    version's, each row marked with it; an entry the version does not define is the default
    catalogue's."""

    def __init__(self, pack: ContentPack, version: PackVersion) -> None:
        super().__init__(pack)
        self.version = version
        self.prefix = version_prefix(version.pk)

    def upsert(self, model, slug: str, values: dict[str, Any]):
        values = {**values, "pack_version": self.version}
        obj = model.objects.create(slug=self.prefix + slug, **values)
        self.counts[model.__name__] = self.counts.get(model.__name__, 0) + 1
        self.loaded.setdefault(model, {})[slug] = obj
        return obj

    def lookup(self, model, ref_slug: str, where: str):
        cache = self.loaded.setdefault(model, {})
        if ref_slug not in cache:
            found = model.objects.filter(pack_version=None, slug=ref_slug).first()
            if found is None:
                raise ValidationError(
                    _("%(where)s: unknown %(what)s %(slug)r")
                    % {"where": where, "what": model._meta.verbose_name, "slug": ref_slug}
                )
            cache[ref_slug] = found
        return cache[ref_slug]

    def _check_rules(self, rules: list[str], where: str) -> None:
        """The rule keys were checked against the engine's vocabulary (``document_check``)."""


@transaction.atomic
def pack_publish(*, pack: ContentPack, by) -> PackVersion:
    """The draft becomes a published version, never to change; its catalogue rows are built."""
    _require_edit(pack, by)
    ContentPack.objects.select_for_update().filter(pk=pack.pk).first()
    draft = pack.versions.filter(state=PackVersion.State.DRAFT).first()
    if draft is None:
        raise Conflict(_("There is no draft to publish."), code="no_draft")
    problems = document_check(draft.document, known=known_default())
    if problems:
        raise ValidationError([str(p) for p in problems])
    if draft.document.get(TABLES):
        _tables_allowed(pack)
    playable = [
        slug
        for slug, row in (draft.document.get("warband_types") or {}).items()
        if row.get("playable", True)
    ]
    if not playable:
        raise ValidationError(_("A pack needs at least one playable warband type."))
    # The default pack's rows are the default catalogue, rewritten in place (as by
    # ``load_content``); an organiser's version gets rows of its own.
    loader = _PackLoader(pack) if pack.owner_id is None else _VersionLoader(pack, draft)
    data = draft.document
    loader.races(data.get("races") or {})
    loader.special_rules(data.get("special_rules") or {})
    loader.skill_lists(data.get("skill_lists") or {})
    loader.equipment(data.get("equipment") or {})
    loader.equipment_lists(data.get("equipment_lists") or {})
    for type_slug, row in (data.get("warband_types") or {}).items():
        loader.warband_type(type_slug, row)
    loader.hired_swords(data.get("hired_swords") or {})
    draft.state = PackVersion.State.PUBLISHED
    draft.published_at = timezone.now()
    PackVersion.objects.filter(pk=draft.pk).update(
        state=draft.state, published_at=draft.published_at
    )
    return draft


# A campaign's move to a version -------------------------------------------------------------
@dataclass
class WarbandChange:
    warband: Warband
    cost_before: int = 0
    cost_after: int = 0
    lines: list[str] = field(default_factory=list)
    legal: bool = True

    @property
    def cost_change(self) -> int:
        return self.cost_after - self.cost_before


def _by_local(model, version: PackVersion | None, *, shared: bool = False) -> dict[str, Any]:
    """The version's rows by their pack's slug; ``shared``: with the default catalogue's that
    the version points at without defining them (equipment, skills)."""
    rows = list(model.objects.filter(pack_version=version))
    if shared and version is not None:
        rows = [*model.objects.filter(pack_version=None), *rows]
    return {local_slug(row.slug, row.pack_version_id): row for row in rows}


def campaign_pack_preview(*, campaign, version: PackVersion | None) -> list[WarbandChange]:
    """What moving ``campaign`` to ``version`` would do to each of its warbands: the cost of its
    warriors and equipment at the new prices, what the new version no longer has, profiles
    that change. Reads only, in a fixed number of queries however many warbands play."""
    types = _by_local(WarbandType, version)
    fighter_types = _by_local(FighterType, version)
    items = _by_local(Equipment, version, shared=True)
    warbands = list(
        Warband.objects.filter(campaign_memberships__campaign=campaign)
        .select_related("warband_type")
        .distinct()
        .order_by("name", "pk")
    )
    ids = [warband.pk for warband in warbands]
    fighters: dict[int, list[Fighter]] = {}
    for fighter in (
        Fighter.objects.filter(warband_id__in=ids)
        .select_related("fighter_type", "fighter_type__race")
        .order_by("pk")
    ):
        fighters.setdefault(fighter.warband_id, []).append(fighter)
    carried: dict[int, list[EquipmentItem]] = {}
    for item in (
        EquipmentItem.objects.filter(warband_id__in=ids).select_related("equipment").order_by("pk")
    ):
        carried.setdefault(item.warband_id, []).append(item)
    changes = []
    for warband in warbands:
        change = WarbandChange(warband)
        if local_slug(warband.warband_type.slug, warband.warband_type.pack_version_id) not in types:
            change.legal = False
            change.lines.append(
                _("The warband type %(type)s is not in the new version.")
                % {"type": warband.warband_type.display_name}
            )
        for fighter in fighters.get(warband.pk, []):
            _compare_warrior(change, fighter.fighter_type, fighter_types, 1, fighter.name)
        for item in carried.get(warband.pk, []):
            old = item.equipment
            new = items.get(local_slug(old.slug, old.pack_version_id))
            change.cost_before += old.cost
            if new is None:
                change.legal = False
                change.lines.append(
                    _("%(item)s is not in the new version.") % {"item": old.display_name}
                )
            else:
                change.cost_after += new.cost
                if new.cost != old.cost:
                    change.lines.append(
                        _("%(item)s: %(before)d → %(after)d co")
                        % {"item": old.display_name, "before": old.cost, "after": new.cost}
                    )
        changes.append(change)
    return changes


def campaign_pack_tables(*, campaign, version: PackVersion | None) -> list[str]:
    """The campaign tables that moving ``campaign`` to ``version`` changes, a line each: the
    new version's rows, back to the default table, or the campaign's own rows staying in force
    (its overrides are never touched by a move)."""
    if version is not None and version.pack.owner_id is None:
        version = None  # the default pack is the default catalogue
    before = version_tables(campaign.pack_version_id)
    after = version_tables(version.pk if version is not None else None)
    own = campaign.tables if isinstance(campaign.tables, dict) else {}
    lines = []
    for name in CAMPAIGN_TABLES:
        if before.get(name) == after.get(name):
            continue
        if name in own:
            line = _("%(table)s: the campaign's own rows stay in force.")
        elif name in after:
            line = _("%(table)s: the new version's rows.")
        else:
            line = _("%(table)s: back to the default table.")
        lines.append(line % {"table": table_label(name)})
    return lines


def _compare_warrior(change, old: FighterType, fighter_types, count: int, name: str) -> None:
    new = fighter_types.get(local_slug(old.slug, old.pack_version_id))
    change.cost_before += old.cost * count
    if new is None:
        change.legal = False
        change.lines.append(
            _("%(name)s: the type %(type)s is not in the new version.")
            % {"name": name, "type": old.display_name}
        )
        return
    change.cost_after += new.cost * count
    if new.cost != old.cost:
        change.lines.append(
            _("%(name)s (%(type)s): %(before)d → %(after)d co")
            % {"name": name, "type": old.display_name, "before": old.cost, "after": new.cost}
        )
    if new.profile() != old.profile():
        change.lines.append(_("%(type)s: the type's profile changes") % {"type": old.display_name})


@transaction.atomic
def campaign_pack_move(*, campaign, version: PackVersion | None, by, confirmed: bool):
    """Move ``campaign`` to ``version`` (None: the default catalogue). Without ``confirmed`` it
    only answers the preview. Confirmed, the campaign's warbands point at the new version's
    types, warriors' types and items where the new version has them (the ledger and the
    warriors' own profiles are never rewritten); a warband the new version cannot hold (its
    type is gone) refuses the move."""
    from battles.models import Campaign, Membership  # noqa: PLC0415 - battles imports warbands

    campaign = Campaign.objects.select_for_update().get(pk=campaign.pk)
    if version is not None and version.pack.owner_id is None:
        version = None  # the default pack is the default catalogue
    if not Membership.objects.filter(
        campaign=campaign, user=by, role=Membership.Role.ORGANISER
    ).exists():
        raise PermissionDenied(_("Only the campaign's organisers may change its content pack."))
    if version is not None:
        if not version.is_published:
            raise ValidationError(_("Only a published version may be adopted."))
        if not may_read(version.pack, by):
            raise PermissionDenied(_("That pack is private."))
    preview = campaign_pack_preview(campaign=campaign, version=version)
    if not confirmed:
        return preview
    if any(not change.legal for change in preview):
        raise Conflict(
            _("Some warbands cannot be moved to this version: %(names)s.")
            % {"names": ", ".join(c.warband.name for c in preview if not c.legal)},
            code="warbands_cannot_move",
        )
    types = _by_local(WarbandType, version)
    fighter_types = _by_local(FighterType, version)
    items = _by_local(Equipment, version, shared=True)
    skills = _by_local(Skill, version, shared=True)
    for change in preview:
        warband = Warband.objects.select_for_update().get(pk=change.warband.pk)
        old_type = warband.warband_type
        warband.warband_type = types[local_slug(old_type.slug, old_type.pack_version_id)]
        warband.version += 1
        for model in (Fighter, HenchmanGroup):
            for row in model.objects.filter(warband=warband).select_related("fighter_type"):
                kind = row.fighter_type
                row.fighter_type = fighter_types[local_slug(kind.slug, kind.pack_version_id)]
                row.save(update_fields=["fighter_type"])
        for item in EquipmentItem.objects.filter(warband=warband).select_related("equipment"):
            old = item.equipment
            item.equipment = items[local_slug(old.slug, old.pack_version_id)]
            item.save(update_fields=["equipment"])
        for fighter in Fighter.objects.filter(warband=warband).prefetch_related("skills"):
            moved = [
                skills.get(local_slug(s.slug, s.pack_version_id), s) for s in fighter.skills.all()
            ]
            fighter.skills.set(moved)
        # The rating and every advance due (the sheet's boxes) are counted again at once, by the
        # pack's rating points and the new version's advance thresholds.
        roster_refresh(warband)
        warband.save(update_fields=["warband_type", "version", "rating", "updated_at"])
    campaign.pack_version = version
    campaign.save(update_fields=["pack_version"])
    return preview
