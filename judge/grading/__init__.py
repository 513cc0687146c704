"""The grading worker's side: grade a claimed submission on this process's sandbox and record its verdict with
the standings (``services``, ``recording``), measure an accepted Submit's speed, the Celery tasks that run them
and ``manage.py grade``.

A floor above ``judge.standings`` (which keeps the standings) and ``judge.submissions`` (which accepts and
claims), so recording a verdict calls the standings directly instead of through a hook the standings app sets.
"""
