from django.db import migrations, models
from django.db.models import F


def passes_of_finished_crawls_are_whole(apps, schema_editor):
    """Rows written before the flag: a finished crawl whose last pass saw all its pages and none is
    pending was taken as final then; so it is here (its page would otherwise ask for a new pass)."""
    CrawlScoring = apps.get_model("evaluation", "CrawlScoring")
    CrawlScoring.objects.filter(crawl__state="finished", pending=False, passes__gt=0,
                                pages_at_last_pass=F("crawl__pages_fetched")).update(last_pass_whole=True)


class Migration(migrations.Migration):

    dependencies = [
        ('evaluation', '0005_deepcheck_queued_at'),
        ('crawlweb', '0001_initial'),
    ]

    operations = [
        migrations.AddField(
            model_name='crawlscoring',
            name='last_pass_whole',
            field=models.BooleanField(default=False, help_text='The last pass has ended, and it scored every site of the finished crawl.'),
        ),
        migrations.RunPython(passes_of_finished_crawls_are_whole, migrations.RunPython.noop),
    ]
