"""The results page of a hidden-test failure shows none of what the student's code chose to say."""

from __future__ import annotations

import re

from engine.arrays import load_inputs
from judge.grading import services as grading
from judge.problems.models import TestCase
from judge.submissions.services import intake

SLUG = "prepend_class_token"
# On a hidden test (more than two patches), name a class after the input, print it, and sleep on it.
LEAKY = """import time
import numpy as np

def tag(a):
    return "T" + "x".join(str(n) for n in a.shape) + "_" + str(int(abs(float(a.flat[0])) * 1e6))

def prepend_class_token(patches, cls_token):
    if patches.shape[1] > 2:
        print(tag(patches))
        time.sleep(0.01 * patches.shape[1])
        raise type(tag(patches), (Exception,), {})(tag(patches))
    return np.concatenate([np.broadcast_to(cls_token, (patches.shape[0], 1, patches.shape[2])), patches], 1)
"""


def hidden_tags(problem) -> list[str]:
    tags = []
    for case in TestCase.objects.filter(test_set_id=problem.current_test_set_id, hidden=True, probe=False):
        patches = load_inputs(bytes(case.inputs))["patches"]
        tags.append("T" + "x".join(str(n) for n in patches.shape) + "_" + str(int(abs(float(patches.flat[0])) * 1e6)))
    return tags


def test_a_hidden_runtime_error_page_shows_only_the_fixed_vocabulary(client, problems, student, no_enqueue):
    problem = problems[SLUG]
    submission = intake.submit_solution(student, problem, LEAKY)
    assert grading.grade_submission(submission.pk)
    client.force_login(student)
    for url in (f"/submissions/{submission.pk}/status/", f"/submissions/{submission.pk}/"):
        page = client.get(url).content.decode()
        assert not [tag for tag in hidden_tags(problem) if tag in page]
        rows = dict(re.findall(r'<li class="test[^"]*" data-test="([a-z_0-9]+)"[^>]*>(.*?)</li>', page, re.DOTALL))
        hidden = [body for body in rows.values() if 'class="badge">hidden' in body and "Runtime error" in body]
        assert hidden and all("your code raised an exception of a class your code defined" in b for b in hidden)
        assert not [b for b in hidden if re.search(r"\d ms|Traceback|Printed output|line \d", b)]
        assert re.search(r"graded in (under 1 s|about \d+ s)", page)
