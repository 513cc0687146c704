"""Who has used little worker time lately goes first, whatever the number of accounts a person holds."""

from __future__ import annotations

import time

import pytest
import redis

from judge.grading import services as grading
from judge.lib.broker import Lane
from judge.submissions import fairshare
from judge.submissions.models import Status, Submission
from judge.submissions.push import redis_client
from judge.submissions.services import intake
from tests.conftest import read_solution

SLUG = "prepend_class_token"
HOME, LAB, ELSEWHERE = "198.51.100.20", "203.0.113.7", "192.0.2.99"
# Committed as in production, so each submission is sent (and its priority chosen) as it is accepted.
pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def fresh_counters():
    client = redis_client()
    for key in client.scan_iter("judge:fair:*"):
        client.delete(key)


@pytest.fixture
def sent(monkeypatch):
    """What would go to the broker as each submission is accepted: (id, lane, priority)."""
    messages = []
    monkeypatch.setattr(
        intake, "send_task", lambda task, pk, queue, capped, priority, band=None: messages.append((pk, queue, priority))
    )
    return messages


def test_the_priority_is_one_band_per_doubling_of_the_worker_seconds_used():
    assert [fairshare.band(s) for s in (0, 15.9, 16, 48, 112, 240, 496, 1008, 2032, 1e9)] == [
        1,
        1,
        2,
        3,
        4,
        5,
        6,
        7,
        8,
        8,
    ]
    assert fairshare.URGENT < fairshare.FIRST_BAND and fairshare.LAST_BAND < fairshare.LAST


def test_a_student_who_used_more_worker_time_is_sent_later_than_one_who_used_little(django_user_model):
    heavy, light = (django_user_model.objects.create_user(name) for name in ("heavy", "light"))
    fairshare.charge(heavy.pk, HOME, 30.0)
    fairshare.charge(light.pk, ELSEWHERE, 0.2)
    assert fairshare.priority(light.pk, ELSEWHERE) == fairshare.FIRST_BAND
    assert fairshare.priority(heavy.pk, HOME) == fairshare.band(60.0) > fairshare.FIRST_BAND


def test_worker_time_used_counts_half_as_much_after_each_half_life(settings):
    settings.FAIR_SHARE_HALF_LIFE_S = 0.5
    fairshare.charge(1, "", 16.0)
    before = fairshare.standing(1, "")
    time.sleep(1.0)
    after = fairshare.standing(1, "")
    assert 0 < after <= before / 4
    fairshare.charge(1, "", 16.0)  # added to what is left of the first 16 s, not to all of it
    assert 32.0 <= fairshare.standing(1, "") <= 32.0 + after


def test_a_fresh_account_at_a_busy_address_does_not_get_a_fresh_share(django_user_model):
    first, fresh, stranger = (django_user_model.objects.create_user(n) for n in ("first", "fresh", "stranger"))
    fairshare.standing(first.pk, HOME)  # seen at the address
    fairshare.charge(first.pk, HOME, 100.0)
    assert fairshare.standing(fresh.pk, HOME) == pytest.approx(50.0, rel=0.01)  # half the address's seconds
    assert fairshare.priority(fresh.pk, HOME) > fairshare.priority(stranger.pk, ELSEWHERE) == fairshare.FIRST_BAND


def test_a_lab_behind_one_address_pays_only_a_small_share_of_one_students_loops(django_user_model):
    looper, *classmates = (django_user_model.objects.create_user(f"lab{i}") for i in range(30))
    for user in (looper, *classmates):
        fairshare.standing(user.pk, LAB)
    fairshare.charge(looper.pk, LAB, 40.0)  # twenty loops of 2 s
    assert all(fairshare.priority(user.pk, LAB) == fairshare.FIRST_BAND for user in classmates)
    assert fairshare.priority(looper.pk, LAB) > fairshare.FIRST_BAND


def test_an_ipv6_home_counts_as_one_address_across_its_64():
    assert (
        fairshare.address_key("2001:db8:1:2::10")
        == fairshare.address_key("2001:db8:1:2:ffff::1")
        == "2001:db8:1:2::/64"
    )
    assert fairshare.address_key("::ffff:203.0.113.7") == LAB
    assert fairshare.address_key("not an address") == fairshare.address_key(None) == ""


def test_a_flood_of_submissions_is_charged_as_it_is_queued(problems, student, second_student, sent):
    flood = [intake.submit_solution(student, problems[SLUG], "x = 1", client_address=HOME) for _ in range(10)]
    victim = intake.submit_solution(second_student, problems[SLUG], "x = 1", client_address=ELSEWHERE)
    priorities = {pk: priority for pk, _, priority in sent}
    assert priorities[flood[0].pk] == priorities[victim.pk] == fairshare.FIRST_BAND
    assert all(priorities[s.pk] > fairshare.FIRST_BAND for s in flood[2:])


def test_ten_fresh_accounts_from_one_address_flooding_go_after_a_student_elsewhere(
    problems, django_user_model, second_student, sent
):
    accounts = [django_user_model.objects.create_user(f"sock{i}") for i in range(10)]
    flood = [
        intake.submit_solution(user, problems[SLUG], "x = 1", client_address=HOME)
        for user in accounts
        for _ in range(10)
    ]
    victim = intake.submit_solution(second_student, problems[SLUG], "x = 1", client_address=ELSEWHERE)
    priorities = {pk: priority for pk, _, priority in sent}
    ahead = [s for s in flood if priorities[s.pk] <= priorities[victim.pk]]
    assert len(ahead) <= 2  # only the very first account's first submissions: it was no flood yet


def test_a_flood_sent_in_parallel_steps_back_at_its_claim_and_a_victim_elsewhere_is_claimed(
    problems, django_user_model, second_student, sent, monkeypatch
):
    """Ten accounts posting loops at once each got messages into the first band before any was counted (each
    send saw the others not yet written): the claim checks the band again with everything now queued."""
    accounts = [django_user_model.objects.create_user(f"sock{i}") for i in range(10)]
    monkeypatch.setattr(intake, "fair_priority", lambda pk: fairshare.FIRST_BAND)  # the race, as it was sent
    flood = [
        intake.submit_solution(user, problems[SLUG], "x = 1", client_address=HOME)
        for user in accounts
        for _ in range(3)
    ]
    victim = intake.submit_solution(second_student, problems[SLUG], read_solution(SLUG), client_address=ELSEWHERE)
    monkeypatch.undo()
    monkeypatch.setattr(
        intake, "send_task", lambda task, pk, queue, capped, priority, band=None: not sent.append((pk, queue, priority))
    )  # sent: True
    sent.clear()
    assert grading.grade_submission(flood[-1].pk, band=fairshare.FIRST_BAND) is False
    assert sent == [(flood[-1].pk, Lane.SUBMIT, sent[0][2])] and sent[0][2] > fairshare.FIRST_BAND
    assert Submission.objects.get(pk=flood[-1].pk).status == Status.QUEUED  # not claimed, not parked
    assert grading.grade_submission(flood[-1].pk, band=sent[0][2]) is True  # sent with its band now: graded
    assert grading.grade_submission(victim.pk, band=fairshare.FIRST_BAND) is True
    assert Submission.objects.get(pk=victim.pk).verdict == "accepted"


def test_a_recovered_submission_goes_ahead_of_everyone_and_a_rejudge_after_everyone(problems, student, sent):
    submission = intake.submit_solution(student, problems[SLUG], read_solution(SLUG), client_address=HOME)
    intake.enqueue(submission.pk, Lane.RUN)
    intake.enqueue(submission.pk, Lane.REJUDGE)
    assert sent[1:] == [(submission.pk, Lane.RUN, fairshare.URGENT), (submission.pk, Lane.REJUDGE, fairshare.LAST)]


def test_the_worker_seconds_a_graded_submission_held_are_charged_to_its_account_and_address(
    problems, student, second_student, sent
):
    submission = intake.submit_solution(student, problems[SLUG], read_solution(SLUG), client_address=HOME)
    assert grading.grade_submission(submission.pk) is True
    assert fairshare.standing(student.pk, HOME) > 0  # its own seconds, and the address's (its only account)
    assert fairshare.standing(second_student.pk, HOME) > 0  # a fresh account there carries a share
    assert fairshare.standing(second_student.pk, ELSEWHERE) == 0


def test_the_web_request_records_the_client_address(client, problems, student, sent):
    client.force_login(student)
    client.post(f"/submissions/new/{SLUG}/", {"code": "x = 1", "kind": "submit"}, REMOTE_ADDR="2001:db8::7")
    assert Submission.objects.get(user=student).client_address == "2001:db8::/64"


def test_without_redis_nothing_is_counted_and_submissions_are_sent_in_arrival_order(problems, student, sent, settings):
    settings.REDIS_URL = None  # the embedded default
    submission = intake.submit_solution(student, problems[SLUG], read_solution(SLUG), client_address=HOME)
    assert sent == [(submission.pk, Lane.SUBMIT, None)]
    assert grading.grade_submission(submission.pk) is True
    assert Submission.objects.get(pk=submission.pk).status == Status.DONE
    assert redis.Redis.from_url(settings.CELERY_BROKER_URL).keys("judge:fair:*") == []
