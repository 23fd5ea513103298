"""{% crawl_configuration crawl %}: the crawl's choices and the method behind each (console.crawl_setup.methods)."""
from django import template

from console.crawl_setup.methods import configuration_rows

register = template.Library()


@register.inclusion_tag("dashboard/_crawl_config_table.html")
def crawl_configuration(crawl):
    return {"rows": configuration_rows(crawl), "crawl": crawl}
