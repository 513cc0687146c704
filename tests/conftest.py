from __future__ import annotations

import fcntl
import os

os.environ.setdefault("JUDGE_TEST", "1")

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
PROBLEMS = REPO / "problems"
FIRST_THREE = ["prepend_class_token", "add_positional_embedding", "scaled_dot_product_attention"]


# --- In parallel (bin/test runs pytest-xdist, --dist loadgroup) ---------------------------------------------
# The longest piece, the compose stack (it builds the app image), starts first on one worker while the other
# takes the tests that start real Celery workers, one after another (their recovery times are asserted); then
# the attack suite (one canary file, so one worker), then everything else as workers free up.
FIRST_GROUPS = ("compose", "real-workers", "security")


def xdist_group_of(item) -> str | None:
    path = item.path.relative_to(REPO).as_posix()
    if path == "tests/test_docker_compose.py":
        return "compose"
    if item.get_closest_marker("slow") and not path.startswith("tests/browser/"):
        return "real-workers"
    if path.startswith("tests/security/"):
        return "security"
    return None


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_setupnodes(config, specs):
    """Each xdist worker gets its own Redis broker DB (tests flush it) and var dir (sandbox sockets, SQLite files).

    Worker N uses the DB after the one in CELERY_BROKER_URL (bin/test's TEST_BROKER_URL) by N, modulo 16; its
    test database gets pytest-django's ``_gwN`` suffix.
    """
    broker, _, db = os.environ.get("CELERY_BROKER_URL", "").rpartition("/")
    var = os.environ.get("JUDGE_VAR_DIR", str(REPO / "var" / "test"))
    for index, spec in enumerate(specs):
        spec.env["JUDGE_VAR_DIR"] = f"{var}/gw{index}"
        if broker.startswith("redis") and db.isdigit():
            spec.env["CELERY_BROKER_URL"] = f"{broker}/{(int(db) + index) % 16}"


def pytest_itemcollected(item):
    """The group is marked as each test is collected: xdist reads the marks in its own collection hook.

    A module that syncs problems beyond the first three is ``heavy``: each of its problems is gated, and its
    pool and benchmark drawn, in the sandbox before its first test (seconds a problem), which the fast tier
    leaves to the full suite."""
    if group := xdist_group_of(item):
        item.add_marker(pytest.mark.xdist_group(group))
    synced = getattr(getattr(item, "module", None), "SYNCED_PROBLEMS", None)
    if synced is not None and set(synced) - set(FIRST_THREE):
        item.add_marker(pytest.mark.heavy)


def pytest_collection_modifyitems(config, items):
    """Groups are handed out in FIRST_GROUPS order (bin/test passes --no-loadscope-reorder).

    Every test's first fixture is ``kept_problems``: it must open or close the transaction that keeps synced
    problems before pytest-django opens the test's own (a fixture's place in the list is its setup order).
    """
    order = {group: rank for rank, group in enumerate(FIRST_GROUPS)}
    items.sort(key=lambda item: order.get(xdist_group_of(item), len(order)))
    for item in items:
        names = getattr(item, "fixturenames", None)
        if names is not None and "kept_problems" not in names:
            names.insert(0, "kept_problems")


@pytest.fixture(autouse=True)
def fresh_cache():
    """Rate-limit counters, cached statistics, test sets cached by key and whether the site has LMS links do not
    leak from one test into the next.

    The site keeps a test set's cases and examples by its key, since a test set never changes and production
    never reuses a key; tests do (a rolled-back test's keys come back when the ``problems`` fixture writes its
    rows and resets the sequences), so a page could show another problem's examples.
    """
    from django.core.cache import cache

    from judge.grading.services import cached_cases
    from judge.lti.scores import scoring_links_seen
    from judge.pages.problem_page import _examples
    from judge.problems.queries import visible_case_data

    cache.clear()
    for keyed_by_test_set in (_examples, visible_case_data, cached_cases):
        keyed_by_test_set.cache_clear()
    scoring_links_seen.forget()  # whether the site has an LMS link: asked again at the next verdict


@pytest.fixture(autouse=True)
def still_rate_limit_clock(monkeypatch):
    """Rate-limit windows stand still for the length of a test.

    django-ratelimit counts in fixed windows with edges at a per-key offset. A test's few attempts take a second or
    two on a loaded machine, so one run in tens straddled an edge and its last attempt found a fresh allowance.
    """
    import time
    from types import SimpleNamespace

    import django_ratelimit.core

    now = int(time.time())
    monkeypatch.setattr(django_ratelimit.core, "time", SimpleNamespace(time=lambda: now))


@pytest.fixture(scope="session")
def sync_sandbox():
    """The configured sandbox, opened once; a job it has run before is answered from its recording.

    Syncing runs each package's gate in a sandbox, the same jobs for every test that syncs the same packages;
    a packaged problem's gate is not even asked for (``gate_store``): only changed packages use this.
    """
    from tests.helpers import lazy_sandbox
    from tests.recording import RecordingSandbox

    with lazy_sandbox() as sandbox:
        yield RecordingSandbox(sandbox, replay=True)


@pytest.fixture(scope="session", autouse=True)
def gate_store(request):
    """Each packaged problem's gate, run once in this test run for every xdist worker (tests/gates.py).

    The site's own gate runs (sync, staff) take a packaged problem's passed gate from it, as they take one from
    their cache of passed gates: every test that syncs or gates a packaged problem shares one gate of it.
    """
    from judge.authoring import gate_runs
    from sandbox.backends.process import ProcessSandbox
    from tests.gates import GateStore, SharedPassedGates

    store = GateStore(ProcessSandbox, shared_between_workers(request, "gates"))
    kept, gate_runs.passed_gates = gate_runs.passed_gates, SharedPassedGates(store)
    yield store
    gate_runs.passed_gates = kept
    store.close()


_SYNCED: dict = {}  # packages -> the rows their first sync in this process wrote (tests/snapshots.py)


def synced_slugs(request) -> tuple[str, ...]:
    return tuple(getattr(request.module, "SYNCED_PROBLEMS", FIRST_THREE))


def transactional(request) -> bool:
    """Whether pytest-django gives this test a TransactionTestCase (committed rows, tables flushed after)."""
    marker = request.node.get_closest_marker("django_db")
    marked = marker is not None and (marker.kwargs.get("transaction") or marker.kwargs.get("reset_sequences"))
    return bool(marked) or any(
        name in request.fixturenames for name in ("transactional_db", "live_server", "django_db_reset_sequences")
    )


class KeptRows:
    """An open transaction around consecutive tests that want the same synced problems.

    Most tests that use ``problems`` run in pytest-django's transaction that is rolled back after them; their
    packages' rows (tens of MB of test arrays and known-wrong outputs) used to be written again for each one.
    Here they are written once, in a transaction that stays open while the next tests want the same packages:
    each test's own transaction is then a savepoint inside it, and its rollback leaves the problems as synced.
    Before a test that wants other packages, none, or committed rows (``transactional_db``, a live server),
    the transaction is rolled back, so such a test starts from an empty database as before.
    """

    def __init__(self) -> None:
        self.slugs: tuple[str, ...] | None = None
        self.atomic = None

    def holding(self) -> bool:
        from django.db import connection

        return self.atomic is not None and bool(connection.atomic_blocks) and connection.atomic_blocks[0] is self.atomic

    def keep(self, slugs: tuple[str, ...], sandbox, shared: Path | None) -> None:
        from django.db import transaction

        self.release()
        self.atomic = transaction.atomic()
        self.atomic._from_testcase = True  # like a TestCase's own: durable blocks inside a test still work
        self.atomic.__enter__()
        write_synced_rows(slugs, sandbox, shared)
        self.slugs = slugs

    def release(self) -> None:
        from django.db import transaction

        if self.holding():
            transaction.set_rollback(True)
            self.atomic.__exit__(None, None, None)
        self.atomic = self.slugs = None


_KEPT = KeptRows()


def write_synced_rows(slugs: tuple[str, ...], sandbox, shared: Path | None) -> None:
    """Into an empty database: the site's own sync the first time in this run, its rows after that.

    Under pytest-xdist the first worker to want a set of packages syncs them and leaves their rows in
    ``shared`` (this run's own folder); another worker that wants them waits for those rows and writes them.
    """
    from judge.authoring.sync import sync_problems
    from tests.snapshots import load_rows, rows_written_by, save_rows, write_rows

    if slugs not in _SYNCED and shared is not None:
        with open(shared / "lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            saved = shared / ("+".join(slugs) + ".rows")
            if saved.exists():
                _SYNCED[slugs] = load_rows(saved)
            else:
                _SYNCED[slugs] = rows_written_by(lambda: sync_problems(only=list(slugs), sandbox=sandbox))
                save_rows(_SYNCED[slugs], saved)
                return
    if slugs in _SYNCED:
        write_rows(_SYNCED[slugs])
    else:
        _SYNCED[slugs] = rows_written_by(lambda: sync_problems(only=list(slugs), sandbox=sandbox))


def shared_between_workers(request, kind: str = "synced") -> Path | None:
    """A folder of this run's that every pytest-xdist worker sees (None without xdist)."""
    run = getattr(request.config, "workerinput", {}).get("testrunuid")
    if run is None:
        return None
    folder = request.getfixturevalue("tmp_path_factory").getbasetemp().parent / f"{kind}-{run}"
    folder.mkdir(exist_ok=True)
    return folder


@pytest.fixture(scope="session")
def django_db_setup(request, django_test_environment, django_db_blocker, django_db_modify_db_settings):
    """pytest-django's test databases, on PostgreSQL copied from a migrated template (tests/databases.py)."""
    from tests.databases import create_test_databases, quick_flush_after_transactional_tests

    quick_flush_after_transactional_tests()
    with django_db_blocker.unblock():
        destroy = create_test_databases(request.config.option.verbose)
    yield
    with django_db_blocker.unblock():
        destroy()


@pytest.fixture(scope="session")
def _kept_rows_released(django_db_setup, django_db_blocker):
    """Rolls the kept rows back before the test databases are dropped."""
    yield
    with django_db_blocker.unblock():
        _KEPT.release()


@pytest.fixture
def kept_problems(request, gate_store):
    """First fixture of every test (see pytest_collection_modifyitems): keeps or drops the synced problems.

    After ``gate_store``, which the syncs here take the packaged problems' gates from.
    """
    wants = "problems" in request.fixturenames and not transactional(request)
    uses_db = "_django_db_helper" in request.fixturenames or request.node.get_closest_marker("django_db")
    if not (wants or (uses_db and _KEPT.slugs is not None)):
        return
    request.getfixturevalue("_kept_rows_released")
    with request.getfixturevalue("django_db_blocker").unblock():
        if not wants:
            _KEPT.release()
        elif not (_KEPT.holding() and _KEPT.slugs == synced_slugs(request)):
            _KEPT.keep(synced_slugs(request), request.getfixturevalue("sync_sandbox"), shared_between_workers(request))


@pytest.fixture
def problems(db, request, sync_sandbox):
    """Packaged problems, synced into the test database: the first three, or a module's ``SYNCED_PROBLEMS``.

    Every problem of the course goes through its gate in test_reference_and_wrong_solutions.py; the site's
    tests need only a few, and syncing all of them for every test would cost seconds each.  The first sync of
    a set of packages in a process is the site's own (drafts, gate run, test set, publishing; only the
    sandbox's replies to jobs it has seen are replayed); later tests get its rows.  Tests in pytest-django's
    rolled-back transaction share one copy of them (``KeptRows``); a transactional test gets its own.
    """
    from judge.authoring.sync import sync_problems
    from judge.problems.models import Problem

    slugs = synced_slugs(request)
    if not (_KEPT.holding() and _KEPT.slugs == slugs):
        if Problem.objects.exists():  # the test made problems of its own first: sync on top of them
            sync_problems(only=list(slugs), sandbox=sync_sandbox)
        else:
            write_synced_rows(slugs, sync_sandbox, shared_between_workers(request))
    return {p.slug: p for p in Problem.objects.all()}


@pytest.fixture(scope="session")
def process_sandbox():
    from sandbox.backends.process import ProcessSandbox

    sandbox = ProcessSandbox()
    yield sandbox
    sandbox.close()


@pytest.fixture
def student(django_user_model):
    return django_user_model.objects.create_user("ada", password="correct horse battery")


@pytest.fixture
def second_student(django_user_model):
    return django_user_model.objects.create_user("grace", password="another horse battery")


@pytest.fixture
def author(django_user_model):
    return django_user_model.objects.create_user("author", password="staff horse battery", is_staff=True)


@pytest.fixture
def no_enqueue(monkeypatch):
    """Submissions stay queued: the test grades them itself by calling the service."""
    from judge.submissions.services import intake

    monkeypatch.setattr(intake, "enqueue", lambda pk, lane=None: None)


@pytest.fixture
def grading_worker():
    """A grading worker that has just written its heartbeat (judge/submissions/workers.py), though no message
    reaches it: a queued page shows its position, not that grading has stopped."""
    from django.utils import timezone

    from judge.submissions.models import WorkerHeartbeat

    now = timezone.now()
    return WorkerHeartbeat.objects.create(
        hostname="celery@test-grader",
        host="test-grader",
        pid=1,
        lanes="run,submit,rejudge",
        slots=2,
        started_at=now,
        seen_at=now,
    )


def read_solution(slug: str, name: str = "solution.py") -> str:
    return (PROBLEMS / slug / name).read_text()


def docker_image_or_skip() -> str:
    """The sandbox image to test with; skips locally without Docker, fails in CI (bin/test.d/docker.sh)."""
    from sandbox.backends import docker as docker_backend

    image = os.environ.get("SANDBOX_IMAGE", "judge-sandbox:latest")
    if docker_backend.available(image):
        return image
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI needs Docker and the sandbox image {image}; see bin/test.d/docker.sh")
    pytest.skip(f"no Docker engine with the image {image} here (run bin/test as root to set it up)")


@pytest.fixture(scope="session")
def docker_image() -> str:
    return docker_image_or_skip()


@pytest.fixture(scope="session")
def docker_sandbox(docker_image):
    """One warm pool for the session, as a worker process keeps it."""
    from sandbox.backends.docker import DockerSandbox

    sandbox = DockerSandbox(image=docker_image, pool_size=2)
    yield sandbox
    sandbox.close()
