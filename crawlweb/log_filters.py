"""Logging filters named in settings.LOGGING."""
import logging


class ForbiddenWithoutTraceback(logging.Filter):
    """A refused request (403) is a line in the log, not a traceback: Django logs the PermissionDenied
    it raised with its traceback, a screenful on the terminal for every menu link a role may not
    follow. The line keeps the path; real errors (5xx) keep their tracebacks."""

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "status_code", None) == 403:
            record.exc_info = None
            record.exc_text = None
        return True
