"""The zygote: imports NumPy once, then forks one hardened child per job.

It runs inside the sandbox (a Docker container, or a plain subprocess for the
process backend) and talks to the judge over a Unix socket or its own
stdin/stdout using the frames of ``sandbox.protocol``.  It never sees expected
outputs, reference solutions or checker code: it receives the student's code and
the test inputs, and reports what the student's function returned, as ``.npy``
bytes.  Start it with ``python -m sandbox.zygote``.

Its modules, by job:

- ``__main__``: the entry point (options, the request loop);
- ``supervisor``: the zygote proper (``Zygote``): one job at a time, relaying a
  child's reports and enforcing the time limits and the job's budget;
- ``template``: the process every child is forked from, and the spare children;
- ``child``: what runs in a child: compile, call the function, report (and an
  author's generator);
- ``hardening``: the zygote's namespaces, each child's uid, privileges and rlimits;
- ``cleanup``: after a job, every process of the child's uid killed, its System V
  IPC objects and its directory removed.

Only the standard library and NumPy are imported: the image has nothing else.
"""
