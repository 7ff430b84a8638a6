"""The post-battle pages: a battle's sequence, resolving and reverting it, a round's
resolution, a job's progress, and answering a decision."""

from django.urls import path

from . import views

urlpatterns = [
    path("battles/<id:pk>/postbattle/", views.battle_postbattle, name="battle-postbattle"),
    path(
        "battles/<id:pk>/postbattle/resolve/",
        views.battle_postbattle_resolve,
        name="battle-postbattle-resolve",
    ),
    path(
        "battles/<id:pk>/postbattle/revert/",
        views.battle_postbattle_revert,
        name="battle-postbattle-revert",
    ),
    path(
        "campaigns/<slug:slug>/rounds/<id:number>/resolve/",
        views.round_resolve,
        name="round-resolve",
    ),
    path("jobs/<id:pk>/", views.job_detail, name="job-detail"),
    path("decisions/<id:pk>/answer/", views.decision_answer_page, name="decision-answer"),
]
