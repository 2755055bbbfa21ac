"""Pastikan akun admin dan dua grup peran ada (dipakai oleh ``make run``)."""

from __future__ import annotations

import secrets
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management.base import BaseCommand

ADMIN_GROUP = "Admin"
REVIEWER_GROUP = "Peninjau"


class Command(BaseCommand):
    help = "Buat grup Admin/Peninjau dan akun admin bila belum ada."

    def handle(self, *args: Any, **options: Any) -> None:
        admin_group, _ = Group.objects.get_or_create(name=ADMIN_GROUP)
        Group.objects.get_or_create(name=REVIEWER_GROUP)
        User = get_user_model()
        username = settings.ADMIN_USERNAME
        user = User.objects.filter(username=username).first()
        if user is not None:
            if settings.ADMIN_PASSWORD:
                user.set_password(settings.ADMIN_PASSWORD)
                user.save(update_fields=["password"])
            user.groups.add(admin_group)
            self.stdout.write(f"Akun admin '{username}' sudah ada.")
            return
        password = settings.ADMIN_PASSWORD or secrets.token_urlsafe(12)
        user = User.objects.create_superuser(username=username, email="", password=password)
        user.groups.add(admin_group)
        if settings.ADMIN_PASSWORD:
            self.stdout.write(f"Akun admin '{username}' dibuat dengan ADMIN_PASSWORD.")
        else:
            # Printed once: it is not stored anywhere else in clear text.
            self.stdout.write(f"Akun admin dibuat — pengguna: {username}  kata sandi: {password}")
