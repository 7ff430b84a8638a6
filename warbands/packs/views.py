"""The pack pages, phone first: the packs list (mine and the public ones), a new pack, a pack's
page (its versions and contents; for its author the draft: a YAML file with its dry run, the
warband type form, publish), a version's YAML, and a campaign's move to a version (the
preview per warband, then the organiser's confirmation)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from annuminas.confirmation import confirmation
from annuminas.errors import Conflict

from ..models import ContentPack, Equipment, PackVersion, Race, Warband
from . import chat, selectors, services
from .document import ENTRY_LABELS, NESTED, TABLES
from .entries import EntryForm
from .files import compare, pack_yaml
from .forms import PackCreateForm, PackForm, PackImportForm, WarbandTypeForm
from .known import known_default


def _readable_pack(request, slug: str) -> ContentPack:
    pack = get_object_or_404(ContentPack.objects.select_related("owner"), slug=slug)
    if not services.may_read(pack, request.user):
        raise Http404
    return pack


def _organised_campaigns(user):
    from battles.models import Campaign, Membership  # noqa: PLC0415 - battles imports warbands

    if not user.is_authenticated:
        return Campaign.objects.none()
    return (
        Campaign.objects.filter(
            memberships__user=user, memberships__role=Membership.Role.ORGANISER, archived=False
        )
        .distinct()
        .order_by("name")
    )


@require_GET
def pack_list(request):
    packs = list(selectors.packs_listed(user=request.user))
    mine = [p for p in packs if request.user.is_authenticated and p.owner_id == request.user.pk]
    public = [p for p in packs if p not in mine]
    return render(request, "warbands/packs/list.html", {"mine": mine, "public": public})


@login_required
def pack_create(request):
    form = PackCreateForm(request.POST or None)
    copy_of = None
    raw = (request.POST.get("copy") or request.GET.get("copy") or "").strip()
    if raw:
        copy_of = PackVersion.objects.filter(
            pk=int(raw) if raw.isdigit() and len(raw) < 12 else 0,
            state=PackVersion.State.PUBLISHED,
        ).first()
        if copy_of is None or not services.may_read(copy_of.pack, request.user):
            raise Http404
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        start = copy_of or ("default" if data["start"] == form.START_DEFAULT else None)
        try:
            pack = services.pack_create(
                owner=request.user,
                name=data["name"],
                visibility=data["visibility"],
                credit=data["credit"],
                copy_of=start,
            )
        except (ValidationError, PermissionDenied) as exc:
            form.add_error(None, exc)
        else:
            messages.success(request, _("Pack created: its draft is ready to edit."))
            return redirect("pack-detail", slug=pack.slug)
    return render(request, "warbands/packs/create.html", {"form": form, "copy_of": copy_of})


def _items_choices(document: dict) -> list[tuple[str, str]]:
    own = [(slug, row.get("name", slug)) for slug, row in (document.get("equipment") or {}).items()]
    default = [
        (item.slug, item.display_name)
        for item in Equipment.objects.filter(pack_version=None).order_by("kind", "cost", "name")
    ]
    return own + default


def _race_choices(document: dict) -> list[tuple[str, str]]:
    own = [(slug, row.get("name", slug)) for slug, row in (document.get("races") or {}).items()]
    return own + [(race.slug, race.display_name) for race in Race.objects.filter(pack_version=None)]


def _with_urls(pack: ContentPack, rows: dict, section: str = "", parent: str = "") -> dict:
    """A listed section's entries with their edit and delete addresses (and its "Add" one)."""
    kind = rows["kind"]
    where = {"slug": pack.slug, "kind": kind}
    if parent:
        where.update(section=section, parent=parent)
    prefix = "pack-child" if parent else "pack-entry"
    rows["add_url"] = reverse(f"{prefix}-new" if parent else "pack-entry-new", kwargs=where)
    for row in rows["rows"]:
        row["edit_url"] = reverse(prefix, kwargs={**where, "entry": row["slug"]})
        row["delete_url"] = reverse(f"{prefix}-delete", kwargs={**where, "entry": row["slug"]})
    return rows


def _detail_context(request, pack: ContentPack, **extra):
    versions = list(pack.versions.order_by("-number").prefetch_related("campaigns"))
    published = [v for v in versions if v.is_published]
    draft = next((v for v in versions if not v.is_published), None)
    editable = services.may_edit(pack, request.user)
    shown = published[0] if published else draft
    document = (draft or shown).document if (draft or shown) else {}
    next_document = services.draft_document(pack, draft) if editable else {}
    context = {
        "pack": pack,
        "versions": versions,
        "published": published,
        "draft": draft if editable else None,
        "editable": editable,
        "shown": shown,
        "contents": selectors.contents_named(shown.document)
        if shown
        else (selectors.default_contents() if pack.owner_id is None else []),
        "warband_types": (shown.document.get("warband_types") or {}) if shown else {},
        "campaigns": _organised_campaigns(request.user) if published else [],
        # The author's campaigns still on an older version: each a link to the move's preview.
        "behind": [
            campaign
            for campaign in _organised_campaigns(request.user).filter(pack_version__pack=pack)
            if published and campaign.pack_version_id != published[0].pk
        ]
        if editable
        else [],
        "draft_sections": [
            _with_urls(pack, rows) for rows in selectors.draft_sections(next_document)
        ]
        if editable
        else [],
        # The campaign tables: the version shown sets some (or none: the defaults); its author
        # edits the draft's, one page each (the default pack plays by the engine's).
        "shown_tables": selectors.tables_named(shown.document) if shown else [],
        "draft_tables": selectors.draft_tables(next_document) if editable and pack.owner_id else [],
        "publish_preview": compare(
            draft.document, current=published[0].document, known=known_default()
        )
        if editable and draft and published
        else None,
        "import_form": PackImportForm(),
        "type_form": WarbandTypeForm(races=_race_choices(document), items=_items_choices(document))
        if editable
        else None,
        "settings_form": PackForm(
            initial={"name": pack.name, "visibility": pack.visibility, "credit": pack.credit}
        )
        if editable and pack.owner_id
        else None,
    }
    context["draft_tables_set"] = sum(table["set"] for table in context["draft_tables"])
    context.update(extra)
    return context


@require_GET
def pack_detail(request, slug: str):
    pack = _readable_pack(request, slug)
    return render(request, "warbands/packs/detail.html", _detail_context(request, pack))


@login_required
@require_POST
def pack_import(request, slug: str):
    pack = _readable_pack(request, slug)
    if not services.may_edit(pack, request.user):
        raise PermissionDenied
    form = PackImportForm(request.POST, request.FILES)
    report = None
    if form.is_valid():
        upload = form.cleaned_data.get("file")
        text = upload.read(600 * 1024) if upload else form.cleaned_data["text"]
        apply = request.POST.get("apply") == "1"
        report = services.pack_import(pack=pack, by=request.user, text=text, apply=apply)
        if apply and report.ok:
            messages.success(request, _("The draft now holds the file's content."))
            return redirect("pack-detail", slug=pack.slug)
    return render(
        request,
        "warbands/packs/detail.html",
        _detail_context(request, pack, import_form=form, report=report),
    )


@login_required
@require_POST
def pack_warband_type(request, slug: str):
    pack = _readable_pack(request, slug)
    if not services.may_edit(pack, request.user):
        raise PermissionDenied
    draft = services.pack_draft(pack=pack, by=request.user)
    form = WarbandTypeForm(
        request.POST,
        races=_race_choices(draft.document),
        items=_items_choices(draft.document),
    )
    report = None
    if form.is_valid():
        entries = warband_type_entries(form.cleaned_data)
        report = services.pack_entries_save(pack=pack, by=request.user, entries=entries)
        if report.ok:
            messages.success(
                request, _("Warband type saved in the draft: publish it when it is ready.")
            )
            return redirect("pack-detail", slug=pack.slug)
    return render(
        request,
        "warbands/packs/detail.html",
        _detail_context(request, pack, type_form=form, report=report),
    )


def warband_type_entries(data: dict) -> dict[str, dict]:
    """The form's warband type as the document's entries: the type and its equipment list."""
    type_slug = slugify(data["name"])[:50] or "banda"
    list_slug = f"{type_slug}-equipo"[:60]
    fighters = {
        f"{type_slug}-jefe"[:60]: {
            "name": data["leader_name"],
            "role": "leader",
            "cost": data["leader_cost"],
            "profile": data["leader_profile"],
            "xp": 20,
            "equipment": list_slug,
        }
    }
    if data.get("hero_name"):
        fighters[f"{type_slug}-heroe"[:60]] = {
            "name": data["hero_name"],
            "role": "hero",
            "cost": data.get("hero_cost") or 0,
            "max": data.get("hero_max") or 2,
            "profile": data.get("hero_profile") or "",
            "equipment": list_slug,
        }
    if data.get("henchman_name"):
        fighters[f"{type_slug}-secuaz"[:60]] = {
            "name": data["henchman_name"],
            "role": "henchman",
            "cost": data.get("henchman_cost") or 0,
            "profile": data.get("henchman_profile") or "",
            "equipment": list_slug,
        }
    warband_type = {
        "name": data["name"],
        "race": data["race"],
        "starting_treasury": data["starting_treasury"],
        "max_size": data["max_size"],
        "fighter_types": fighters,
    }
    if data.get("name_en"):
        warband_type["en"] = {"name": data["name_en"]}
    return {
        "equipment_lists": {
            list_slug: {"name": f"Equipo: {data['name']}"[:120], "items": list(data["items"])}
        },
        "warband_types": {type_slug: warband_type},
    }


def _editable_pack(request, slug: str) -> ContentPack:
    pack = _readable_pack(request, slug)
    if not services.may_edit(pack, request.user):
        raise PermissionDenied
    return pack


def _draft(pack: ContentPack) -> PackVersion | None:
    return pack.versions.filter(state=PackVersion.State.DRAFT).first()


def _entry_address(kind: str, parent: str) -> None:
    """404 unless ``kind`` is a section of entries (or a nested kind with a parent); the
    tables have their own pages (``table_views``)."""
    if kind not in ENTRY_LABELS or kind == TABLES or (kind in NESTED) != bool(parent):
        raise Http404


@login_required
def pack_entry(request, slug: str, kind: str, entry: str = "", parent: str = "", section: str = ""):
    """One entry of the draft: its form (a new one without ``entry``), checked as the whole
    draft is; "Check" answers the dry run, "Save" writes only when nothing is refused."""
    pack = _editable_pack(request, slug)
    _entry_address(kind, parent)
    if parent and NESTED[kind][0] != section:
        raise Http404
    document = services.draft_document(pack, _draft(pack))
    holder = selectors.entries_of(document, kind, parent)
    if holder is None or (entry and entry not in holder):
        raise Http404
    row = holder.get(entry) if entry else None
    form = EntryForm(request.POST or None, kind=kind, document=document, row=row, new=not entry)
    # A new warband type needs its leader (the check wants exactly one): the same form, for
    # a fighter type, beside it.
    leader = None
    if kind == "warband_types" and not entry:
        leader = EntryForm(
            request.POST or None,
            kind="fighter_types",
            document=document,
            row={"role": "leader"},
            new=True,
            prefix="leader",
        )
    report = None
    if request.method == "POST" and form.is_valid() and (leader is None or leader.is_valid()):
        entry_slug = form.slug(entry)
        typed = form.entry()
        if leader is not None:
            typed_slug = (leader.cleaned_data.get("slug") or "").strip()
            leader_slug = typed_slug or f"{entry_slug}-jefe"[:60]
            typed["fighter_types"] = {leader_slug: leader.entry()}
        apply = request.POST.get("apply") == "1"
        report = services.pack_entry_save(
            pack=pack,
            by=request.user,
            kind=kind,
            slug=entry_slug,
            entry=typed,
            parent=parent,
            new=not entry,
            apply=apply,
        )
        if report.ok and apply:
            messages.success(
                request,
                _("%(entry)s saved in the draft: publish it when it is ready.")
                % {"entry": f"{ENTRY_LABELS[kind]} {entry_slug}"},
            )
            if parent:
                return redirect("pack-entry", slug=pack.slug, kind=section, entry=parent)
            return redirect(f"{reverse('pack-detail', args=[pack.slug])}#section-{kind}")
        theirs = [p for p in report.problems if leader is not None and p.slug == leader_slug]
        if leader is not None:
            leader.show(theirs, leader_slug)
        form.show([p for p in report.problems if p not in theirs], entry_slug)
    children = None
    if entry and kind in services.CHILDREN:
        child_kind = next(k for k, (s, _key) in NESTED.items() if s == kind)
        listed = selectors.section_rows(child_kind, (row or {}).get(services.CHILDREN[kind]))
        children = _with_urls(pack, listed, section=kind, parent=entry)
    return render(
        request,
        "warbands/packs/entry.html",
        {
            "pack": pack,
            "kind": kind,
            "label": ENTRY_LABELS[kind],
            "entry": entry,
            "entry_name": (row or {}).get("name") or entry,
            "parent": parent,
            "parent_name": ((document.get(section) or {}).get(parent) or {}).get("name") or parent,
            "section": section,
            "form": form,
            "leader": leader,
            "report": report,
            "children": children,
        },
    )


@login_required
@require_POST
def pack_entry_delete(request, slug: str, kind: str, entry: str, parent="", section=""):
    pack = _editable_pack(request, slug)
    _entry_address(kind, parent)
    if parent and NESTED[kind][0] != section:
        raise Http404
    holder = selectors.entries_of(services.draft_document(pack, _draft(pack)), kind, parent)
    if holder is None or entry not in holder:
        raise Http404
    named = f"{ENTRY_LABELS[kind]} {entry}"
    asked = confirmation(
        request,
        question=_("Delete %(name)s from the draft?") % {"name": named},
        label=_("Yes, delete it"),
        back_url=reverse("pack-detail", args=[pack.slug]),
        back_label=pack.name,
    )
    if asked is not None:
        return asked
    try:
        report = services.pack_entry_delete(
            pack=pack, by=request.user, kind=kind, slug=entry, parent=parent
        )
    except Conflict as exc:
        messages.error(request, _("Not deleted: %(why)s") % {"why": exc.detail})
    else:
        _deleted(request, report, kind, entry)
    if parent:
        return redirect("pack-entry", slug=pack.slug, kind=section, entry=parent)
    return redirect(f"{reverse('pack-detail', args=[pack.slug])}#section-{kind}")


def _deleted(request, report, kind: str, entry: str) -> None:
    if report.ok:
        named = f"{ENTRY_LABELS[kind]} {entry}"
        messages.success(request, _("%(entry)s deleted from the draft.") % {"entry": named})
    else:
        for line in report.refused:
            messages.error(request, _("Not deleted: %(why)s") % {"why": line})


@login_required
@require_POST
def pack_publish(request, slug: str):
    pack = _readable_pack(request, slug)
    try:
        version = services.pack_publish(pack=pack, by=request.user)
    except (ValidationError, Conflict) as exc:
        for message in getattr(exc, "messages", None) or [str(getattr(exc, "detail", exc))]:
            messages.error(request, message)
    else:
        messages.success(request, _("Version %(number)d published.") % {"number": version.number})
    return redirect("pack-detail", slug=pack.slug)


@login_required
@require_POST
def pack_settings(request, slug: str):
    pack = _readable_pack(request, slug)
    if not services.may_edit(pack, request.user):
        raise PermissionDenied
    form = PackForm(request.POST)
    if form.is_valid():
        services.pack_update(pack=pack, by=request.user, **form.cleaned_data)
        messages.success(request, _("Pack saved."))
    return redirect("pack-detail", slug=pack.slug)


@require_GET
def pack_version_yaml(request, slug: str, number: int):
    pack = _readable_pack(request, slug)
    version = get_object_or_404(PackVersion, pack=pack, number=number)
    if not version.is_published and not services.may_edit(pack, request.user):
        raise Http404
    response = HttpResponse(
        pack_yaml(version.document), content_type="application/yaml; charset=utf-8"
    )
    response["Content-Disposition"] = f'attachment; filename="{pack.slug}-v{number}.yaml"'
    return response


@login_required
def campaign_pack(request):
    """A campaign's move to a pack version: the preview per warband, then the confirmation."""
    campaign_slug = request.POST.get("campaign") or request.GET.get("campaign") or ""
    campaign = get_object_or_404(_organised_campaigns(request.user), slug=campaign_slug[:140])
    raw = request.POST.get("version") or request.GET.get("version") or ""
    version = None
    if raw != "default":
        version = (
            PackVersion.objects.select_related("pack")
            .filter(pk=int(raw) if raw.isdigit() else 0, state=PackVersion.State.PUBLISHED)
            .first()
        )
        if version is None or not services.may_read(version.pack, request.user):
            raise Http404
    confirmed = request.method == "POST" and request.POST.get("confirmed") == "1"
    error = ""
    # The tables the move changes, read before it (the campaign's version changes with it).
    tables = services.campaign_pack_tables(campaign=campaign, version=version)
    try:
        changes = services.campaign_pack_move(
            campaign=campaign, version=version, by=request.user, confirmed=confirmed
        )
    except (ValidationError, Conflict) as exc:
        error = " ".join(getattr(exc, "messages", None) or [str(getattr(exc, "detail", exc))])
        changes = services.campaign_pack_preview(campaign=campaign, version=version)
    else:
        if confirmed:
            messages.success(request, _("The campaign now plays with this pack version."))
            return redirect(campaign)
    return render(
        request,
        "warbands/packs/campaign_pack.html",
        {
            "campaign": campaign,
            "version": version,
            "changes": changes,
            "tables": tables,
            "error": error,
            "create_url": reverse("warband-create"),
        },
    )


@login_required
@require_GET
def warband_chat(request, pk: int):
    """The warband as text to paste in a chat."""
    warband = get_object_or_404(Warband, pk=pk, owner=request.user)
    text = chat.warband_chat_text(warband=warband)
    return render(request, "warbands/packs/chat.html", {"warband": warband, "text": text})


@login_required
def warband_chat_import(request):
    """A warband from a chat text: the report first; created only once the player confirms."""
    text = request.POST.get("text", "") if request.method == "POST" else ""
    report = error = None
    if request.method == "POST":
        confirmed = request.POST.get("confirmed") == "1"
        try:
            report, warband = chat.warband_chat_import(
                owner=request.user, text=text, confirmed=confirmed
            )
        except ValidationError as exc:
            error = " ".join(exc.messages)
        else:
            if warband is not None:
                messages.success(request, _("Warband created from the text."))
                return redirect("warband-sheet", pk=warband.pk)
    return render(
        request,
        "warbands/packs/chat_import.html",
        {"text": text, "report": report, "error": error},
    )
