"""The crawl tallies (crawlweb.models.tallies): their tables, the triggers that keep them (installed
again after every migrate, see crawlweb.tallies.triggers), their first count from the rows stored so
far, the index on Target.fetched_at the live panel's last-minute rate reads (in this app's
migrations, so frontier's can move on independently; crawlweb.tallies.triggers.ensure makes it again
after SQLite rebuilds the table), and the index of hosts with a request in flight."""
from django.db import migrations, models

from crawlweb.tallies import triggers


def install_and_count(apps, schema_editor):
    triggers.tune_autovacuum(schema_editor.connection)
    triggers.ensure_fetched_index(schema_editor.connection)
    triggers.install(schema_editor.connection)
    triggers.recount(schema_editor.connection)


def drop(apps, schema_editor):
    triggers.drop(schema_editor.connection)
    triggers.drop_fetched_index(schema_editor.connection)


class Migration(migrations.Migration):

    dependencies = [
        ('crawlweb', '0008_crawl_runner'),
        ('frontier', '0007_target_origin_sitemap'),  # the triggers watch its tables
    ]

    operations = [
        migrations.CreateModel(
            name='LayerTally',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('crawl_id', models.BigIntegerField()),
                ('n', models.BigIntegerField(help_text='Rows added (negative: removed) by this change, or the folded sum.')),
                ('folded', models.BooleanField(default=False)),
                ('module', models.TextField()),
                ('layer', models.SmallIntegerField()),
                ('layer_id', models.TextField()),
                ('pending', models.BooleanField()),
            ],
            options={
                'indexes': [models.Index(fields=['crawl_id', 'folded'], name='layertally_crawl')],
                'constraints': [models.UniqueConstraint(condition=models.Q(('folded', True)), fields=('crawl_id', 'module', 'layer', 'layer_id', 'pending'), name='layertally_one_folded')],
            },
        ),
        migrations.CreateModel(
            name='MemberCount',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('crawl_id', models.BigIntegerField()),
                ('figure', models.TextField()),
                ('n', models.BigIntegerField(default=0)),
            ],
            options={
                'constraints': [models.UniqueConstraint(fields=('crawl_id', 'figure'), name='membercount_one')],
            },
        ),
        migrations.CreateModel(
            name='MemberTally',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('crawl_id', models.BigIntegerField()),
                ('n', models.BigIntegerField(help_text='Rows added (negative: removed) by this change, or the folded sum.')),
                ('folded', models.BooleanField(default=False)),
                ('figure', models.TextField()),
                ('member_id', models.BigIntegerField()),
            ],
            options={
                'indexes': [models.Index(fields=['crawl_id', 'figure', 'member_id'], name='membertally_member'), models.Index(fields=['crawl_id', 'figure', 'folded'], name='membertally_deltas')],
                'constraints': [models.UniqueConstraint(condition=models.Q(('folded', True)), fields=('crawl_id', 'figure', 'member_id'), name='membertally_one_folded')],
            },
        ),
        migrations.CreateModel(
            name='PageTally',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('crawl_id', models.BigIntegerField()),
                ('n', models.BigIntegerField(help_text='Rows added (negative: removed) by this change, or the folded sum.')),
                ('folded', models.BooleanField(default=False)),
                ('language', models.TextField()),
                ('script', models.TextField()),
            ],
            options={
                'indexes': [models.Index(fields=['crawl_id', 'folded'], name='pagetally_crawl')],
                'constraints': [models.UniqueConstraint(condition=models.Q(('folded', True)), fields=('crawl_id', 'language', 'script'), name='pagetally_one_folded')],
            },
        ),
        migrations.CreateModel(
            name='TargetTally',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('crawl_id', models.BigIntegerField()),
                ('n', models.BigIntegerField(help_text='Rows added (negative: removed) by this change, or the folded sum.')),
                ('folded', models.BooleanField(default=False)),
                ('state', models.TextField()),
                ('origin', models.TextField()),
                ('error_kind', models.TextField()),
            ],
            options={
                'indexes': [models.Index(fields=['crawl_id', 'folded'], name='targettally_crawl')],
                'constraints': [models.UniqueConstraint(condition=models.Q(('folded', True)), fields=('crawl_id', 'state', 'origin', 'error_kind'), name='targettally_one_folded')],
            },
        ),
        migrations.AddIndex(
            model_name='host',
            index=models.Index(condition=models.Q(('busy_until__isnull', False)), fields=['busy_until'], name='host_busy'),
        ),
        migrations.RunPython(install_and_count, drop),
    ]
