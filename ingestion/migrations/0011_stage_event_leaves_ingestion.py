"""The stage-event outbox belongs to ``partner_events`` now: only Django's model state moves.

The table ``ingestion_stageevent`` and its rows stay exactly where they are;
``partner_events.0001_stage_event_outbox`` takes the model over with the same table name.
"""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("ingestion", "0010_job_milestones")]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name="StageEvent")],
            database_operations=[],
        ),
    ]
