from django.urls import path

from . import views

urlpatterns = [
    path("warbands/", views.warband_list, name="warband-list"),
    path("warbands/new/", views.warband_create, name="warband-create"),
    path("warbands/import/", views.warband_import, name="warband-import"),
    path("warbands/<id:pk>/", views.warband_sheet_page, name="warband-sheet"),
    path("warbands/<id:pk>/edit/", views.warband_edit, name="warband-edit"),
    path("warbands/<id:pk>/sharing/", views.warband_sharing, name="warband-sharing"),
    path("warbands/<id:pk>/delete/", views.warband_delete, name="warband-delete"),
    path("warbands/<id:pk>/undo/", views.warband_undo, name="warband-undo"),
    path("warbands/<id:pk>/hire/", views.warband_hire, name="warband-hire"),
    path("warbands/<id:pk>/hire/preview/", views.warband_hire_preview, name="warband-hire-preview"),
    path(
        "warbands/<id:pk>/hired-swords/hire/",
        views.hiring.warband_hired_sword_hire,
        name="warband-hired-sword-hire",
    ),
    path("warbands/<id:pk>/buy/", views.warband_buy, name="warband-buy"),
    path("warbands/<id:pk>/buy/preview/", views.warband_buy_preview, name="warband-buy-preview"),
    path(
        "warbands/<id:pk>/items/<id:item_pk>/<str:operation>/",
        views.warband_item_action,
        name="warband-item-action",
    ),
    path(
        "warbands/<id:pk>/fighters/<id:fighter_pk>/<str:operation>/",
        views.warband_fighter_action,
        name="warband-fighter-action",
    ),
    path(
        "warbands/<id:pk>/groups/<id:group_pk>/dismiss/",
        views.warband_group_dismiss,
        name="warband-group-dismiss",
    ),
    path("warbands/<id:pk>/ledger/", views.warband_ledger_page, name="warband-ledger"),
    path("warbands/<id:pk>/print/", views.warband_print, name="warband-print"),
    path("warbands/<id:pk>/pdf/", views.warband_pdf, name="warband-pdf"),
    path("warbands/<id:pk>/pdf/status/", views.warband_pdf_status, name="warband-pdf-status"),
    path("warbands/<id:pk>/export/", views.warband_export, name="warband-export"),
    path("share/<str:token>/", views.warband_share, name="warband-share"),
]
