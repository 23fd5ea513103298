"""Buttons that are links: the submit buttons of a form that only navigates.

Pure module (lxml elements in, URLs out). Some sites draw their language switch as a form,
``<form action="index_srb.html"><input type="submit" value="Change language"></form>``: a GET form
with nothing to fill in, whose only effect is to load its action. A browser submitting it asks for
the action URL with its query replaced by the form's data: its hidden fields and the name=value of
the button pressed, if that button is named. Such a submitter is read as a link to that URL.

A form that asks for input (a text box, a choice, a file) or is sent by POST is a real form, not a
link: a crawler has nothing to fill it in with, and must not send it.
"""
from __future__ import annotations

from urllib.parse import urlencode, urlsplit, urlunsplit

from .urls import resolve_link

# <input> types that carry no user input: a form holding only these navigates to one place per button
_NO_INPUT_TYPES = frozenset({"hidden", "submit", "image", "button", "reset"})
_USER_INPUT_TAGS = ("select", "textarea")
MAX_HIDDEN_FIELDS = 10  # a form with more hidden state than this is an application's, not a switch


def submitter_target(el, base_url: str) -> str | None:
    """The URL that pressing ``el`` (a submit button) loads, when its form only navigates; else None."""
    if not _is_submitter(el):
        return None
    form = _form_of(el)
    if form is None or (form.get("method") or "get").strip().lower() != "get":
        return None
    if (el.get("formmethod") or "get").strip().lower() != "get":
        return None
    action = (el.get("formaction") or form.get("action") or "").strip()
    if not action:
        return None  # the page itself: nothing new to reach
    url = resolve_link(base_url, action)
    if not url or not url.startswith(("http://", "https://")):
        return None
    fields = _hidden_fields(form)
    if fields is None:
        return None
    name = (el.get("name") or "").strip()
    if name:
        fields.append((name, el.get("value") or ""))
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, parts.path, urlencode(fields), ""))


def _is_submitter(el) -> bool:
    tag = el.tag if isinstance(el.tag, str) else ""
    kind = (el.get("type") or "").strip().lower()
    if tag == "input":
        return kind in ("submit", "image")
    return tag == "button" and kind in ("", "submit")


def _form_of(el):
    owner = (el.get("form") or "").strip()
    if owner:  # <button form="switch">: the form named by id, anywhere in the document
        found = el.getroottree().getroot().xpath("//form[@id=$id]", id=owner)
        return found[0] if found else None
    return next(el.iterancestors("form"), None)


def _hidden_fields(form) -> list[tuple[str, str]] | None:
    """The form's hidden name=value pairs in document order; None when it asks for user input."""
    if any(True for tag in _USER_INPUT_TAGS for _ in form.iter(tag)):
        return None
    fields = []
    for field in form.iter("input"):
        kind = (field.get("type") or "text").strip().lower()
        if kind not in _NO_INPUT_TYPES:
            return None
        if kind == "hidden" and (field.get("name") or "").strip():
            fields.append((field.get("name").strip(), field.get("value") or ""))
    return fields if len(fields) <= MAX_HIDDEN_FIELDS else None
