from django.urls import path

from ingestion import views

urlpatterns = [
    path("", views.dashboard, name="dashboard"),
]
