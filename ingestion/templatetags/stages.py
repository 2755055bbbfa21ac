"""Template filters for the Indonesian stage names (``{% load stages %}``)."""

from __future__ import annotations

from django import template

from ingestion.views.labels import stage_label

register = template.Library()


@register.filter(name="stage_label")
def stage_label_filter(key: str) -> str:
    return stage_label(key)
