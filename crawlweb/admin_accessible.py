"""Small pieces that make the admin's own pages pass axe-core (tests/browser/test_every_page_by_role.py):

- a list filter whose empty value ("" : a page with no script, a Target with no error) had a link
  with no text, which a screen reader reads as nothing; here it reads "(empty)";
- the date and time boxes of a date-and-time field, which Django's admin leaves without a label of
  their own (one <label> names the pair): each gets one.
Django only: no model of ours, so any app's admin may use them.
"""
from django.contrib import admin
from django.contrib.admin.widgets import AdminSplitDateTime
from django.db import models

EMPTY = "(empty)"


class NamedEmptyValues(admin.AllValuesFieldListFilter):
    """Django's filter by every value of a field, with the empty string named."""

    def choices(self, changelist):
        for choice in super().choices(changelist):
            if choice["display"] == "":
                choice = {**choice, "display": EMPTY}
            yield choice


class LabelledSplitDateTime(AdminSplitDateTime):
    def __init__(self, attrs=None):
        super().__init__(attrs)
        self.widgets[0].attrs["aria-label"] = "date (YYYY-MM-DD)"
        self.widgets[1].attrs["aria-label"] = "time (HH:MM:SS)"


# For ModelAdmin.formfield_overrides: every date-and-time field with labelled boxes.
LABELLED_DATETIME = {models.DateTimeField: {"widget": LabelledSplitDateTime}}
