"""Pages: Mis bandas, create, the Hoja de Control de Banda (with hire and buy dialogs), print,
PDF, ledger, export/import and the read-only share link. Thin: services write, selectors read.

One module per part: ``roster`` (list, create, sheet, edit, delete, ledger), ``hiring``
(hire, fighters and groups leaving), ``equipment`` (buy, item actions), ``paper`` (print, PDF,
share), ``interchange`` (export/import); ``_common`` holds what they share.
"""

from .equipment import warband_buy, warband_buy_preview, warband_item_action
from .hiring import (
    warband_fighter_action,
    warband_group_dismiss,
    warband_hire,
    warband_hire_preview,
)
from .interchange import warband_export, warband_import
from .paper import warband_pdf, warband_pdf_status, warband_print, warband_share
from .roster import (
    SHEET_CACHE_SECONDS,
    warband_create,
    warband_delete,
    warband_edit,
    warband_ledger_page,
    warband_list,
    warband_sharing,
    warband_sheet_page,
    warband_undo,
)

__all__ = [
    "SHEET_CACHE_SECONDS",
    "warband_buy",
    "warband_buy_preview",
    "warband_create",
    "warband_delete",
    "warband_edit",
    "warband_export",
    "warband_fighter_action",
    "warband_group_dismiss",
    "warband_hire",
    "warband_hire_preview",
    "warband_import",
    "warband_item_action",
    "warband_ledger_page",
    "warband_list",
    "warband_pdf",
    "warband_pdf_status",
    "warband_print",
    "warband_share",
    "warband_sharing",
    "warband_sheet_page",
    "warband_undo",
]
