"""The JSON API under ``/api/v1/`` (django-ninja): what the npjudge client and the notebook magic use.

It sits at the top beside the pages and composes the same services and display code they do: a token acts
as its owner seen as a student (``auth.py``), rate limits and prerequisite locks are the services' own, and
a submission shows exactly what its page shows (``judge.display.results.result_rows``, hidden tests included)."""
