"""Setting the tool up: staff register a platform in a page that shows what to paste into the LMS; the tool's
key set is public and a new key is published before it signs; an instructor deep-links an assignment."""

from __future__ import annotations

from datetime import timedelta
from html import unescape
from urllib.parse import urlsplit

import jwt
import pytest
from django.test import Client
from django.utils import timezone

from judge.courses import services as course_services
from judge.courses.models import Course
from judge.lti import keys
from judge.lti.models import Platform, ToolKey
from tests.boards import quick_problem
from tests.lti import OVER_HTTP_AND_HTTPS, launch, lms  # noqa: F401 (fixture)
from tests.lti_platform import INSTRUCTOR, LEARNER, LtiPlatform

pytestmark = pytest.mark.django_db


def test_staff_register_a_platform_and_read_the_values_to_paste_into_the_lms(client, author):
    client.force_login(author)
    page = client.get("/lti/platforms/").content.decode()
    for value in ("http://testserver/lti/launch/", "http://testserver/lti/login/", "http://testserver/lti/jwks/"):
        assert value in page
    fields = LtiPlatform("http://testserver")
    try:
        answer = client.post("/lti/platforms/", fields.registration())
    finally:
        fields.close()
    platform = Platform.objects.get()
    assert answer["Location"] == f"/lti/platforms/{platform.pk}/"
    assert (platform.client_id, platform.deployment_ids, platform.enabled) == (
        "judge-tool-client",
        ["deployment-1"],
        True,
    )


def test_a_platform_without_a_deployment_id_is_not_registered(client, author):
    client.force_login(author)
    answer = client.post(
        "/lti/platforms/",
        {
            "name": "LMS",
            "issuer": "https://lms.example.edu",
            "client_id": "x",
            "key_set_url": "https://lms.example.edu/jwks",
            "auth_login_url": "https://lms.example.edu/auth",
            "auth_token_url": "https://lms.example.edu/token",
            "deployment_ids_text": " , ",
        },
    )
    assert answer.status_code == 200 and "Give at least one deployment id" in answer.content.decode()
    assert not Platform.objects.exists()


def test_only_staff_open_the_platforms_page(client, student):
    client.force_login(student)
    assert client.get("/lti/platforms/").status_code == 403


def test_a_new_key_is_published_before_it_signs_and_signs_only_once_activated(client, settings):
    old = keys.signing_key()
    new = keys.new_key()
    published = {k["kid"] for k in client.get("/lti/jwks/").json()["keys"]}
    assert published == {old.kid, new.kid} and keys.signing_key() == old
    with pytest.raises(keys.KeyRotationError, match="may sign once platforms have had"):
        keys.activate_key(new)
    keys.activate_key(new, now=timezone.now() + timedelta(seconds=settings.LTI_KEY_PUBLISH_AHEAD_S + 1))
    assert keys.signing_key() == new
    keys.retire_key(old)
    assert [k["kid"] for k in client.get("/lti/jwks/").json()["keys"]] == [new.kid]
    assert "private" not in client.get("/lti/jwks/").content.decode().lower()
    assert ToolKey.objects.count() == 2


@OVER_HTTP_AND_HTTPS
def test_an_instructor_deep_links_an_assignment_and_the_lms_gets_a_signed_link_with_a_line_item(client, lms):
    teacher = lms.person("lms-teacher", "Iris", "Ng", [INSTRUCTOR])
    launch(Client(), lms, teacher)
    course = Course.objects.get()
    assignment = course_services.save_assignment(
        course, None, {"title": "Week 1"}, [quick_problem("first_problem"), quick_problem("second_problem")]
    )
    answer = launch(client, lms, teacher, deep_linking=True)
    picker = answer["Location"]
    assert picker.startswith("/lti/deep-link/")
    assert "Week 1 (2 problems)" in client.get(picker, secure=lms.secure).content.decode()

    page = client.post(picker, {"assignment": assignment.pk}, secure=lms.secure)
    assert urlsplit(lms.url("/deep-link-return")).netloc in page["Content-Security-Policy"]
    html = page.content.decode()
    token = unescape(html.split('name="JWT" value="')[1].split('"')[0])
    kid = jwt.get_unverified_header(token)["kid"]
    public = next(k for k in client.get("/lti/jwks/", secure=lms.secure).json()["keys"] if k["kid"] == kid)
    claims = jwt.decode(token, jwt.PyJWK(public).key, algorithms=["RS256"], audience=lms.issuer)
    [item] = claims["https://purl.imsglobal.org/spec/lti-dl/claim/content_items"]
    assert item["custom"] == {"assignment": str(assignment.pk)} and item["url"] == lms.tool_base + "/lti/launch/"
    assert item["lineItem"]["scoreMaximum"] == 2.0
    assert claims["https://purl.imsglobal.org/spec/lti-dl/claim/data"] == "opaque-platform-data"


def test_deep_linking_answers_the_issuer_as_the_platform_spells_it_when_registered_without_its_slash(client, lms):
    lms.issuer_suffix = "/"  # the platform sends "http://127.0.0.1:port/", registered without the slash
    teacher = lms.person("lms-teacher", "Iris", "Ng", [INSTRUCTOR])
    launch(Client(), lms, teacher)
    assignment = course_services.save_assignment(
        Course.objects.get(), None, {"title": "Week 1"}, [quick_problem("first_problem")]
    )
    picker = launch(client, lms, teacher, deep_linking=True)["Location"]
    html = client.post(picker, {"assignment": assignment.pk}).content.decode()
    token = unescape(html.split('name="JWT" value="')[1].split('"')[0])
    assert jwt.decode(token, options={"verify_signature": False})["aud"] == [lms.origin + "/"]


def test_a_platform_cannot_be_registered_twice_by_adding_a_trailing_slash_to_its_issuer(client, author, lms):
    client.force_login(author)
    answer = client.post("/lti/platforms/", {**lms.registration(), "issuer": lms.origin + "/"})
    assert answer.status_code == 200 and "are registered already" in unescape(answer.content.decode())
    assert Platform.objects.count() == 1


def test_a_student_cannot_use_an_instructors_deep_linking_page(client, lms):
    teacher = lms.person("lms-teacher", "Iris", "Ng", [INSTRUCTOR])
    picker = launch(Client(), lms, teacher, deep_linking=True)["Location"]
    launch(client, lms, lms.person("lms-ada", "Ada", "Lovelace", [LEARNER]))
    assert client.get(picker).status_code == 403


def test_a_single_problem_can_be_linked_without_a_gradebook_column_and_opens_its_page(client, lms):
    teacher = lms.person("lms-teacher", "Iris", "Ng", [INSTRUCTOR])
    launch(Client(), lms, teacher)
    problem = quick_problem("first_problem")
    course_services.save_assignment(Course.objects.get(), None, {"title": "Week 1"}, [problem])
    picker = launch(client, lms, teacher, deep_linking=True)["Location"]
    html = client.post(picker, {"problem": "first_problem"}).content.decode()
    token = unescape(html.split('name="JWT" value="')[1].split('"')[0])
    [item] = jwt.decode(token, options={"verify_signature": False})[
        "https://purl.imsglobal.org/spec/lti-dl/claim/content_items"
    ]
    assert item["custom"] == {"problem": "first_problem"} and "lineItem" not in item
    link = lms.add_link(item["title"], item["custom"], 0)
    link.lineitem = ""
    answer = launch(Client(), lms, lms.person("lms-ada", "Ada", "Lovelace", [LEARNER]), link)
    assert answer["Location"] == "/problems/first_problem/"
