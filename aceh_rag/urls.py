"""URL map. App URLconfs are included here; the REST API lives in ``aceh_rag/api.py``."""

from django.contrib.auth import views as auth_views
from django.templatetags.static import static
from django.urls import include, path
from django.views.generic import RedirectView

from aceh_rag import views
from aceh_rag.api import api

urlpatterns = [
    path("healthz", views.healthz, name="healthz"),
    path("readyz", views.readyz, name="readyz"),
    path("metrics", views.metrics, name="metrics"),
    # Browsers ask for /favicon.ico on every page that names none (API docs, error pages).
    path("favicon.ico", RedirectView.as_view(url=static("favicon.ico"), permanent=True)),
    path(
        "login/",
        auth_views.LoginView.as_view(template_name="registration/login.html"),
        name="login",
    ),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("api/", api.urls),
    path("", include("partner_events.urls")),
    path("", include("ingestion.urls")),
]
