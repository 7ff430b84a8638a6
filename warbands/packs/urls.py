from django.urls import path

from . import api, table_views, views

urlpatterns = [
    path("packs/", views.pack_list, name="pack-list"),
    path("packs/new/", views.pack_create, name="pack-create"),
    path("packs/<slug:slug>/", views.pack_detail, name="pack-detail"),
    path("packs/<slug:slug>/import/", views.pack_import, name="pack-import"),
    path("packs/<slug:slug>/warband-type/", views.pack_warband_type, name="pack-warband-type"),
    path("packs/<slug:slug>/publish/", views.pack_publish, name="pack-publish"),
    # The draft's campaign tables, one page each; "default" takes one out of the draft.
    path(
        "packs/<slug:slug>/draft/tables/<slug:entry>/",
        table_views.pack_table,
        name="pack-table",
    ),
    path(
        "packs/<slug:slug>/draft/tables/<slug:entry>/default/",
        table_views.pack_table_default,
        name="pack-table-default",
    ),
    # The draft's entries, one by one (a section's new entry without ``entry``); fighter types
    # and skills under their warband type and skill list.
    path("packs/<slug:slug>/draft/<slug:kind>/", views.pack_entry, name="pack-entry-new"),
    path("packs/<slug:slug>/draft/<slug:kind>/<slug:entry>/", views.pack_entry, name="pack-entry"),
    path(
        "packs/<slug:slug>/draft/<slug:kind>/<slug:entry>/delete/",
        views.pack_entry_delete,
        name="pack-entry-delete",
    ),
    path(
        "packs/<slug:slug>/draft/<slug:section>/<slug:parent>/<slug:kind>/",
        views.pack_entry,
        name="pack-child-new",
    ),
    path(
        "packs/<slug:slug>/draft/<slug:section>/<slug:parent>/<slug:kind>/<slug:entry>/",
        views.pack_entry,
        name="pack-child",
    ),
    path(
        "packs/<slug:slug>/draft/<slug:section>/<slug:parent>/<slug:kind>/<slug:entry>/delete/",
        views.pack_entry_delete,
        name="pack-child-delete",
    ),
    path("packs/<slug:slug>/settings/", views.pack_settings, name="pack-settings"),
    path("packs/<slug:slug>/v<int:number>.yaml", views.pack_version_yaml, name="pack-version-yaml"),
    path("packs-adopt/", views.campaign_pack, name="campaign-pack"),
    path("warbands/<id:pk>/chat/", views.warband_chat, name="warband-chat"),
    path("warbands/import-chat/", views.warband_chat_import, name="warband-chat-import"),
]

api_urlpatterns = [
    path("packs/", api.PackListView.as_view(), name="api-pack-list"),
    path("packs/<slug:slug>/", api.PackDetailView.as_view(), name="api-pack-detail"),
    path(
        "packs/<slug:slug>/versions/<int:number>/",
        api.PackVersionView.as_view(),
        name="api-pack-version",
    ),
    path("packs/<slug:slug>/draft/", api.PackDraftImportView.as_view(), name="api-pack-draft"),
    path(
        "packs/<slug:slug>/draft/<slug:kind>/<slug:entry>/",
        api.PackDraftEntryView.as_view(),
        name="api-pack-entry",
    ),
    path(
        "packs/<slug:slug>/draft/<slug:section>/<slug:parent>/<slug:kind>/<slug:entry>/",
        api.PackDraftChildView.as_view(),
        name="api-pack-child",
    ),
    path("packs/<slug:slug>/publish/", api.PackPublishView.as_view(), name="api-pack-publish"),
    path(
        "campaigns/<slug:campaign_slug>/pack/",
        api.CampaignPackView.as_view(),
        name="api-campaign-pack",
    ),
]
