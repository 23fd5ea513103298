"""The menu's role-dependent links (the views check permissions again)."""
from django import template

from labeling.homes import home_url as home_url_of

register = template.Library()


@register.filter
def home_url(user) -> str:
    """The page a user's brand link and the 403 page lead back to."""
    return home_url_of(user)
