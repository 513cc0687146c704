"""Write operations on submissions before grading: accept, claim, recover.

- ``intake``: accept the code (``submit_solution``), send it to its lane in fair-share order (``enqueue``),
  put finished submissions back for a rejudge (``requeue``).
- ``claims``: the compare-and-set claim, heartbeats, parking, and the sweep that recovers what a dead worker
  or a lost message left (``recover_stalled_submissions``).

The worker's side, grading a claimed submission and recording its verdict with the standings, is
``judge.grading`` (``services``, ``recording``), a floor above the standings it keeps.

The database is the source of truth.  A submission is accepted in a
transaction and enqueued after it commits; a worker claims it with a
compare-and-set and proves it is alive with heartbeats; only the holder of the
current claim can record the verdict.  If a worker, the broker or a sandbox
dies on the way, ``recover_stalled_submissions`` sends the submission again,
and the compare-and-set makes sure it is graded (recorded) once.

Fairness: at most ``MAX_RUNNING_PER_USER`` submissions of one user are graded
at once.  The claim refuses another; that submission is *parked* (still
queued, ``enqueued_at`` cleared, no message in the broker, no worker slot
held) and sent again when one of the user's submissions finishes.  Which queue:
``broker.Lane``; in what order: ``fairshare`` (a student who has used little worker time lately
goes first; a submission recovered after a fault before anyone).
"""
