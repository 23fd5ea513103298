"""Store a judgment unless its assignment has one: one ``INSERT … ON CONFLICT DO NOTHING`` statement.

The ORM's way (a savepoint, the insert, catching the unique violation, releasing the savepoint) takes
three round trips to the database on every answer, and a fourth query when the race is lost; this takes
one, and a second answer of the same assignment (a resent form, a second tab) changes nothing. The
``post_save`` signal is sent as ``Model.save()`` would, so listeners (retraining every N judgments)
see every new judgment."""
from __future__ import annotations

from django.db import connection
from django.db.models.signals import post_save
from django.utils import timezone

from labeling.models import Assignment, Judgment

_COLUMNS = ("assignment_id", "verdict", "category", "created_at", "seconds")


def insert_judgment(assignment: Assignment, verdict: str, category: str, seconds: float | None) -> Judgment | None:
    """The new judgment, or None when the assignment was judged already (nothing written)."""
    judgment = Judgment(assignment=assignment, verdict=verdict, category=category, seconds=seconds,
                        created_at=timezone.now())
    fields = [Judgment._meta.get_field(name) for name in _COLUMNS]
    values = [field.get_db_prep_save(getattr(judgment, field.attname), connection) for field in fields]
    quote = connection.ops.quote_name
    sql = (f"INSERT INTO {quote(Judgment._meta.db_table)} ({', '.join(quote(f.column) for f in fields)}) "
           f"VALUES ({', '.join(['%s'] * len(fields))}) ON CONFLICT ({quote('assignment_id')}) DO NOTHING "
           f"RETURNING {quote('id')}")
    with connection.cursor() as cursor:
        cursor.execute(sql, values)
        row = cursor.fetchone()
    if row is None:
        return None
    judgment.pk = row[0]
    judgment._state.adding = False
    post_save.send(sender=Judgment, instance=judgment, created=True, update_fields=None, raw=False,
                   using=connection.alias)
    return judgment
