"""The table of failed-login counts when there is no Redis (settings.CACHES["logins"]): one store for
every web process, so `gunicorn -w 4` refuses after the limit, not after four times it. Created in
every mode, so a database moved from Redis to the embedded mode has it."""
from django.core.management.commands.createcachetable import Command as CreateCacheTable
from django.db import migrations

TABLE = "crawlweb_login_failures"


def create(apps, schema_editor):
    command = CreateCacheTable()
    command.verbosity = 0
    command.create_table(schema_editor.connection.alias, TABLE, dry_run=False)


def drop(apps, schema_editor):
    schema_editor.execute(f"DROP TABLE IF EXISTS {schema_editor.quote_name(TABLE)}")


class Migration(migrations.Migration):
    dependencies = [("crawlweb", "0006_registrable_domains_with_private_suffixes")]
    operations = [migrations.RunPython(create, drop)]
