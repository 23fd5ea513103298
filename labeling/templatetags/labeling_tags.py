"""Template helpers for crawled, untrusted values."""
from urllib.parse import urlsplit

from django import template

from labeling.agreement import kappa_reading
from labeling.permissions import is_admin, is_viewer, may_read_reports

register = template.Library()


@register.filter
def web_url(value) -> str:
    """The URL if it is http(s) (so it may be a link's href), else '' (javascript:, data:, …)."""
    text = str(value or "").strip()
    try:
        scheme = urlsplit(text).scheme.lower()
    except ValueError:
        return ""
    return text if scheme in ("http", "https") and not any(ord(c) < 32 for c in text) else ""


@register.filter
def percent(value, digits: int = 1) -> str:
    return "–" if value is None else f"{100 * float(value):.{int(digits)}f} %"


@register.filter
def labeling_admin(user) -> bool:
    """For menus: the links a user may follow (the views check again)."""
    return is_admin(user)


@register.filter
def labeling_viewer(user) -> bool:
    """Whoever may open the labeling pages (any labeling group): the menu's Labeling link."""
    return is_viewer(user)


@register.filter
def labeling_reports(user) -> bool:
    """Reports are for admins and reviewers who judge in no open evaluation (blind judging)."""
    return may_read_reports(user)


@register.filter
def landis_koch(kappa) -> str:
    """Landis & Koch's reading of a kappa (labeling.agreement.kappa_reading)."""
    return kappa_reading(kappa)
