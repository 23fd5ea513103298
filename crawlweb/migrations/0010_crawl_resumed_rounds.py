"""How many times a finished crawl ran again for pages its follow-ups found after its end (the deep-page
guesses of the pass after the finish), since it was last started: crawl_control.resume_finished_crawl."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('crawlweb', '0009_tallies'),
    ]

    operations = [
        migrations.AddField(
            model_name='crawl',
            name='resumed_rounds',
            field=models.PositiveSmallIntegerField(default=0, editable=False, help_text='Times the crawl ran again after finishing, for pages its follow-ups found, since its last start.'),
        ),
    ]
