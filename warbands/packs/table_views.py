"""A pack's campaign tables on its pages, phone first: one page per table with its rows as
YAML text (the draft's rows, or the default rows to start from), checked as the whole draft
is through the one draft write (``services.pack_entry_save``, kind ``tables``); "Back to the
default table" takes the table out of the draft (``services.pack_entry_delete``)."""

from __future__ import annotations

import yaml
from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from annuminas.confirmation import confirmation
from rules.engine.campaign_tables import CAMPAIGN_TABLES, default_tables

from ..campaign_tables import table_label
from ..models import ContentPack, PackVersion
from . import services
from .document import TABLES
from .files import in_rules_order, yaml_read

# What each table's rows hold, beside the field.
HINTS = {
    "hero_injuries": gettext_lazy(
        "D66 (11 to 66): each row {min, max, result}; a result the rules engine does not know "
        "is kept on the hero's sheet for the players to apply."
    ),
    "henchman_injuries": gettext_lazy("D6: each row {min, max, result}; dead removes him."),
    "hero_advances": gettext_lazy(
        "2D6: result skill, characteristic or choice (options: characteristics), or subroll "
        '(options: pairs such as ["1-3", "s"] covering 1 to 6).'
    ),
    "henchman_advances": gettext_lazy(
        "2D6: result characteristic or choice (options: characteristics), or lads_got_talent."
    ),
    "advance_thresholds": gettext_lazy(
        "The experience at which heroes and henchmen gain an advance, rising: the pack's "
        "warbands advance by them (a campaign's own thresholds are not applied: a warband may "
        "play in several campaigns)."
    ),
    "underdog_bonus": gettext_lazy(
        "By the rating gap: each row {min, max, result: experience}; the last row's max is "
        'null ("and above").'
    ),
    "exploration": gettext_lazy("The dice's total (1 to 36): each row {min, max, result: finds}."),
    "sell_finds": gettext_lazy(
        'The number of finds ("1", "2"…, the highest for more) → six prices, one per column of '
        "warband size (1-3, 4-6, 7-9, 10-12, 13-15, 16 or more)."
    ),
    "scenarios": gettext_lazy("Each scenario {name, attacker_defender: true or false}."),
}


def table_text(rows) -> str:
    """A table's rows as YAML, a row a line where it fits, its keys in the rules' order
    (``yaml_read`` gives the rows back)."""
    return yaml.safe_dump(
        in_rules_order(rows),
        allow_unicode=True,
        sort_keys=False,
        default_flow_style=None,
        width=100,
    )


class TableForm(forms.Form):
    rows = forms.CharField(
        label=gettext_lazy("Rows (YAML)"),
        widget=forms.Textarea(
            attrs={
                "rows": 18,
                "class": "table-rows",
                "spellcheck": "false",
                "autocapitalize": "off",
                "autocomplete": "off",
            }
        ),
    )

    def value(self):
        """The rows typed, as data; a form error naming the line when it is not YAML."""
        try:
            return yaml_read(self.cleaned_data["rows"])
        except ValidationError as error:
            self.add_error("rows", error)
            return None

    def show(self, problems, name: str) -> None:
        """The check's problems of this table beside its rows; the draft's others above."""
        for problem in problems:
            field = "rows" if problem.slug == name else None
            self.add_error(field, ValidationError(str(problem)))


def _table_page(request, slug: str, name: str) -> tuple[ContentPack, dict]:
    pack = ContentPack.objects.filter(slug=slug).first()
    if pack is None or not services.may_read(pack, request.user):
        raise Http404
    if not services.may_edit(pack, request.user):
        raise PermissionDenied
    if name not in CAMPAIGN_TABLES or pack.owner_id is None:
        raise Http404
    draft = pack.versions.filter(state=PackVersion.State.DRAFT).first()
    tables = services.draft_document(pack, draft).get(TABLES)
    return pack, tables if isinstance(tables, dict) else {}


@login_required
def pack_table(request, slug: str, entry: str):
    """One campaign table of the draft: its rows as text, checked ("Check (dry run)") or saved
    ("Save in the draft") as the whole draft is; nothing written when refused."""
    pack, tables = _table_page(request, slug, entry)
    rows = tables[entry] if entry in tables else default_tables()[entry]
    form = TableForm(request.POST or None, initial={"rows": table_text(rows)})
    report = None
    if request.method == "POST" and form.is_valid():
        typed = form.value()
        if form.is_valid():
            apply = request.POST.get("apply") == "1"
            report = services.pack_entry_save(
                pack=pack, by=request.user, kind=TABLES, slug=entry, entry=typed, apply=apply
            )
            if report.ok and apply:
                messages.success(
                    request,
                    _("%(table)s saved in the draft: publish it when it is ready.")
                    % {"table": table_label(entry)},
                )
                return redirect(f"{reverse('pack-detail', args=[pack.slug])}#section-tables")
            form.show(report.problems, entry)
    return render(
        request,
        "warbands/packs/table.html",
        {
            "pack": pack,
            "name": entry,
            "label": table_label(entry),
            "hint": HINTS[entry],
            "is_set": entry in tables,
            "form": form,
            "report": report,
        },
    )


@login_required
@require_POST
def pack_table_default(request, slug: str, entry: str):
    """Back to the default table: the table taken out of the draft (asked first)."""
    pack, tables = _table_page(request, slug, entry)
    if entry not in tables:
        raise Http404
    back = f"{reverse('pack-detail', args=[pack.slug])}#section-tables"
    asked = confirmation(
        request,
        question=_("Take %(table)s out of the draft? Campaigns will play the default table.")
        % {"table": table_label(entry)},
        label=_("Yes, back to the default table"),
        back_url=reverse("pack-table", args=[pack.slug, entry]),
        back_label=table_label(entry),
    )
    if asked is not None:
        return asked
    report = services.pack_entry_delete(pack=pack, by=request.user, kind=TABLES, slug=entry)
    if report.ok:
        messages.success(
            request,
            _("%(table)s: back to the default table in the draft.") % {"table": table_label(entry)},
        )
    else:
        for line in report.refused:
            messages.error(request, line)
    return redirect(back)
