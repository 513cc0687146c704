"""What the authoring app announces to apps above it, which it must not import (docs/contributors/architecture.md#the-layers).

``rejudge_requested(batch=...)``: a rejudge batch was just created, inside its transaction and before any of its
submissions goes back in the queue; receivers may note what students were shown before (``courses.release``).
"""

from django.dispatch import Signal

rejudge_requested = Signal()
