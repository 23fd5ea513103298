"""A refused request is one log line naming the path, not a traceback on the terminal."""
import logging

import pytest

from tests.labeling.conftest import make_user

pytestmark = pytest.mark.django_db


def test_a_403_is_logged_as_one_line_without_traceback(client, django_user_model, caplog):
    make_user(django_user_model, "ana", "evaluators")
    client.force_login(django_user_model.objects.get(username="ana"))
    with caplog.at_level(logging.WARNING, logger="django.request"):
        response = client.get("/training/")
    assert response.status_code == 403
    [record] = [r for r in caplog.records if r.name == "django.request"]
    assert "Forbidden" in record.getMessage() and "/training/" in record.getMessage()
    assert record.exc_info is None and "Traceback" not in caplog.text


def test_a_server_error_keeps_its_traceback():
    from crawlweb.log_filters import ForbiddenWithoutTraceback

    try:
        raise RuntimeError("boom")
    except RuntimeError:
        import sys
        record = logging.LogRecord("django.request", logging.ERROR, __file__, 1, "Internal Server Error: /x", (),
                                   sys.exc_info())
    record.status_code = 500
    assert ForbiddenWithoutTraceback().filter(record) and record.exc_info is not None
