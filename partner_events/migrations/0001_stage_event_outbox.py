"""The stage-event outbox, taken over from ``ingestion`` with its table (state only).

``ingestion_stageevent`` keeps its name, rows, constraint and index; nothing is copied.
"""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    initial = True

    dependencies = [("ingestion", "0011_stage_event_leaves_ingestion")]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.CreateModel(
                    name="StageEvent",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        ("seq", models.PositiveIntegerField()),
                        ("routing_key", models.CharField(max_length=32)),
                        ("topic", models.CharField(blank=True, default="", max_length=249)),
                        ("record_key", models.CharField(blank=True, default="", max_length=64)),
                        ("payload", models.JSONField()),
                        (
                            "publish_status",
                            models.CharField(
                                choices=[
                                    ("pending", "Menunggu terbit"),
                                    ("published", "Terbit"),
                                    ("failed", "Gagal terbit (akan dicoba lagi)"),
                                    ("not_applicable", "Tidak dikirim"),
                                ],
                                default="pending",
                                max_length=16,
                            ),
                        ),
                        ("publish_attempts", models.PositiveIntegerField(default=0)),
                        ("publish_error", models.TextField(blank=True, default="")),
                        ("created_at", models.DateTimeField(auto_now_add=True)),
                        ("published_at", models.DateTimeField(blank=True, null=True)),
                        (
                            "job",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="stage_events",
                                to="ingestion.ingestionjob",
                            ),
                        ),
                    ],
                    options={"db_table": "ingestion_stageevent", "ordering": ["job", "seq"]},
                ),
                migrations.AddConstraint(
                    model_name="stageevent",
                    constraint=models.UniqueConstraint(
                        fields=("job", "seq"), name="stage_event_unique_seq"
                    ),
                ),
                migrations.AddIndex(
                    model_name="stageevent",
                    index=models.Index(
                        condition=models.Q(
                            ("publish_status__in", ["published", "not_applicable"]), _negated=True
                        ),
                        fields=["publish_status", "id"],
                        name="stage_event_unpublished",
                    ),
                ),
            ],
        ),
    ]
