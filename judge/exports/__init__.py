"""A student's own work, downloaded: their Submits as a git repository in a zip (``history.py``)."""
