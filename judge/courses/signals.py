"""What the courses app announces to apps above it, which it must not import (docs/contributors/architecture.md#the-layers).

``credit_rules_changed(assignment_id=...)``: an assignment's dates, problems, or a student's or section's
override changed, after the change committed; anyone's credit on it may differ.
"""

from django.dispatch import Signal

credit_rules_changed = Signal()
