"""Sites stored before registrable domains read the public-suffix list's private section
(crawlweb.crawler.suffixes) get theirs again: ana.github.io was stored under github.io."""
from django.db import migrations


def recompute(apps, schema_editor):
    from crawlweb.crawler.urls import registrable_domain

    Site = apps.get_model("crawlweb", "Site")
    changed = []
    for site in Site.objects.only("id", "name", "registrable_domain").iterator():
        domain = registrable_domain(site.name)
        if domain != site.registrable_domain:
            site.registrable_domain = domain
            changed.append(site)
    Site.objects.bulk_update(changed, ["registrable_domain"], batch_size=1000)


class Migration(migrations.Migration):

    dependencies = [
        ("crawlweb", "0005_crawl_time_limit"),
    ]

    operations = [
        migrations.RunPython(recompute, migrations.RunPython.noop),
    ]
