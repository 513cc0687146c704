"""An accepted Submit's speed is measured on a lane of its own that no grading worker consumes, by one worker at
the lowest CPU priority; score posts and the sweep have a worker of their own: as bin/run and compose start
them, no speed measurement or grading backlog holds a slot that a verdict or a score post needs."""

from __future__ import annotations

import re
import shlex

import pytest
import yaml
from django.conf import settings

from judge.celery import app
from judge.grading import services as grading
from judge.lib import broker
from judge.lib.broker import GRADING_LANES, Lane
from tests.conftest import REPO

DEFAULT_QUEUES = tuple(q.name for q in settings.CELERY_TASK_QUEUES)  # what a worker without -Q consumes


def worker_args(command: list[str]) -> tuple[list[str], list[str]] | None:
    """(what runs before `celery`, the worker's own options) of a Celery worker's command line, else None."""
    if "celery" not in command or "worker" not in command:
        return None
    start = command.index("celery")
    args = command[command.index("worker") + 1 :]
    return command[:start], args[:-1] if args[-1:] == ["&"] else args  # started in the background


def option(args: list[str], *names: str) -> str | None:
    for i, arg in enumerate(args):
        for name in names:
            if arg == name:
                return args[i + 1]
            if arg.startswith(name + "="):
                return arg.split("=", 1)[1]
    return None


def queues(args: list[str]) -> set[str]:
    named = option(args, "-Q", "--queues")
    return set(named.split(",")) if named else set(DEFAULT_QUEUES)


def bin_run_workers() -> list[tuple[list[str], list[str]]]:
    """The Celery workers bin/run starts: each line that starts one, as the shell splits it, with ``${X:-d}``
    taken as its default."""
    lines = (REPO / "bin" / "run").read_text().splitlines()
    commands = [shlex.split(re.sub(r"\$\{\w+:-([^}]*)\}", r"\1", line), comments=True) for line in lines]
    return [found for command in commands if command and (found := worker_args(command))]


def compose_workers() -> dict[str, tuple[list[str], list[str]]]:
    services_ = yaml.safe_load((REPO / "docker-compose.yml").read_text())["services"]
    return {name: found for name, service in services_.items() if (found := worker_args(service.get("command") or []))}


def lanes_of(workers) -> list[set[str]]:
    return [queues(args) for _, args in workers]


@pytest.mark.parametrize("where", ["bin/run", "compose"])
def test_one_worker_measures_speed_one_at_a_time_at_the_lowest_cpu_priority_and_nothing_else(where):
    workers = bin_run_workers() if where == "bin/run" else list(compose_workers().values())
    speed = [(before, args) for before, args in workers if Lane.SPEED in queues(args)]
    assert len(speed) == 1, f"{where}: {len(speed)} workers consume the speed lane"
    before, args = speed[0]
    assert queues(args) == {Lane.SPEED}
    assert option(args, "--pool", "-P") == "solo"  # one measurement at a time: concurrency 1
    assert before[-3:] == ["nice", "-n", "19"]
    assert "--beat" not in args and "-B" not in args


@pytest.mark.parametrize("where", ["bin/run", "compose"])
def test_no_worker_that_grades_consumes_the_speed_lane_and_score_posts_have_a_worker_of_their_own(where):
    workers = bin_run_workers() if where == "bin/run" else list(compose_workers().values())
    grading = [lanes for lanes in lanes_of(workers) if lanes & set(GRADING_LANES)]
    assert grading and all(Lane.SPEED not in lanes and Lane.MAINTENANCE not in lanes for lanes in grading)
    assert set().union(*grading) == set(GRADING_LANES)  # and rejudges keep their lane on them
    maintenance = [(args, lanes) for (_, args), lanes in zip(workers, lanes_of(workers)) if Lane.MAINTENANCE in lanes]
    assert len(maintenance) == 1 and maintenance[0][1] == {Lane.MAINTENANCE}
    assert "--beat" in maintenance[0][0]  # the sweep's schedule, never behind grading either


def test_a_worker_started_without_queues_does_not_consume_the_speed_lane():
    # What a worker starting without -Q consumes: the configured queues.  This process's own table is no guide:
    # sending a task to a queue it does not list adds the queue there (Celery's create_missing_queues), so an
    # earlier test that sent a speed measurement put "speed" in it.
    app.amqp.queues[Lane.SPEED]  # as such a send does
    fresh = app.amqp.Queues(app.conf.task_queues)
    assert Lane.SPEED not in fresh and set(GRADING_LANES) <= set(fresh)


def test_the_compose_speed_worker_runs_sandboxes_as_the_grading_worker_does_at_the_lowest_cpu_weight():
    stack = yaml.safe_load((REPO / "docker-compose.yml").read_text())["services"]
    speed, worker = stack["speed"], stack["worker"]
    assert (speed["user"], speed["volumes"]) == (worker["user"], worker["volumes"])
    assert speed["environment"]["SANDBOX_CPU_SHARES"] == 2  # `nice` does not reach the containers it starts


def test_a_speed_measurement_is_routed_to_the_speed_lane(monkeypatch):
    assert app.amqp.router.route({}, grading.SPEED_TASK)["queue"].name == Lane.SPEED
    sent = []

    class Recorder:
        def send_task(self, name, args, kwargs, queue=None, **options):
            sent.append((name, args, queue))

    monkeypatch.setattr(broker, "current_app", Recorder())
    assert grading.enqueue_speed(42)
    assert sent == [(grading.SPEED_TASK, (42,), Lane.SPEED)]
