from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('evaluation', '0005_deepcheck_queued_at'),
    ]

    operations = [
        migrations.AddField(
            model_name='crawlscoring',
            name='last_pass_whole',
            field=models.BooleanField(default=False, help_text='The last pass has ended, and it scored every site of the finished crawl.'),
        ),
    ]
