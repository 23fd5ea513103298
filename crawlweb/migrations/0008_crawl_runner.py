"""Which process runs a crawl's steps in the embedded mode, and when it last said so: a crawl whose
process died is told from one that runs (crawlweb/jobs/chain_runner.py)."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('crawlweb', '0007_login_failures_table'),
    ]

    operations = [
        migrations.AddField(
            model_name='crawl',
            name='runner',
            field=models.CharField(blank=True, editable=False, help_text="Embedded mode: the process running the crawl's steps (host, pid, start).", max_length=200),
        ),
        migrations.AddField(
            model_name='crawl',
            name='runner_seen_at',
            field=models.DateTimeField(blank=True, editable=False, help_text='When that process last said it still runs them.', null=True),
        ),
    ]
