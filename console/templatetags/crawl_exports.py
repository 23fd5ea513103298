from django import template
from django.conf import settings

from console.exports.catalog import EXPORTS
from console.exports.warc_files import list_warc_files

register = template.Library()


@register.simple_tag
def crawl_exports(crawl) -> dict:
    """What the crawl page's Exports box lists: every export and the crawl's WARC files."""
    return {"exports": [e for e in EXPORTS.values() if e.format != "warc"], "all_warc": EXPORTS["warc"],
            "warc_files": list_warc_files(settings.WARC_DIR, crawl.pk)}
