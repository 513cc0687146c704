"""What the submissions app announces to apps above it, which it must not import (docs/contributors/architecture.md#the-layers).

``verdict_recorded(submission=...)``: a worker stored a final verdict (a first grading or a rejudge), after
its transaction committed. Receivers must be quick: they queue work, they do not do it.
"""

from django.dispatch import Signal

verdict_recorded = Signal()
