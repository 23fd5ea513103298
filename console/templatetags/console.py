"""Console helpers for templates: the crawl page's jargon explained and the actions a crawl's state allows."""
from django import template

from console.dashboard import glossary
from console.dashboard.crawl_actions import actions_for

register = template.Library()


@register.filter
def layer_title(layer_id: str) -> str:
    return glossary.layer_title(str(layer_id))


@register.filter
def origin_help(origin: str) -> str:
    return glossary.ORIGINS.get(str(origin), "")


@register.simple_tag
def crawl_actions(crawl, runner_gone: str = "") -> list[tuple[str, str]]:
    return actions_for(crawl.state, bool(runner_gone))


@register.simple_tag
def glossary_modules() -> dict:
    return glossary.MODULES
