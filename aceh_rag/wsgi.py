"""WSGI entry point (gunicorn ``aceh_rag.wsgi:application``)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "aceh_rag.settings")
application = get_wsgi_application()
