"""Signals other apps listen to (the training app retrains when an evaluation closes)."""
from django.dispatch import Signal

# Sent after the closing commits, with evaluation_id (an id: listeners reload the row).
evaluation_closed = Signal()
