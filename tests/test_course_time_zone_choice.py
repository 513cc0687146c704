"""Choosing the zone dates are shown in: the common zones are offered first, every zone can be typed or searched
(as people spell it), and a name that is no zone is refused with a message."""

from __future__ import annotations

from django.urls import reverse

from judge.courses.timezones import time_zone_of
from tests.courses import world  # noqa: F401 (fixture)


def offered(client) -> list[str]:
    page = client.get(reverse("course-list")).content.decode()
    datalist = page.split('<datalist id="time-zones">')[1].split("</datalist>")[0]
    return [option.split('"')[0] for option in datalist.split('<option value="')[1:]]


def test_the_common_zones_come_first_and_every_other_zone_follows(client, world):
    client.force_login(world.instructor)
    zones = offered(client)
    assert zones.index("Europe/Paris") < 40 and zones.index("America/New_York") < 40 and zones.index("UTC") < 40
    assert zones.index("Asia/Kolkata") < zones.index("Africa/Abidjan")
    assert "America/Argentina/Ushuaia" in zones and len(zones) == len(set(zones)) > 400
    page = client.get(reverse("course-list")).content.decode()
    assert 'list="time-zones"' in page and '<option value="Asia/Tokyo" label="UTC+09:00">' in page


def test_a_zone_typed_in_any_case_or_with_spaces_is_chosen(client, world):
    for persona in ("student", "ta", "instructor"):
        client.force_login(getattr(world, persona))
        response = client.post(reverse("course-time-zone"), {"time_zone": " america/new york "}, follow=True)
        assert "Dates are now shown in America/New_York." in response.content.decode(), persona
        assert time_zone_of(getattr(world, persona)) == "America/New_York"


def test_a_name_that_is_no_zone_changes_nothing(client, world):
    client.force_login(world.student)
    response = client.post(reverse("course-time-zone"), {"time_zone": "Mars/Olympus"}, follow=True)
    assert "Choose a time zone from the list, such as Europe/Paris." in response.content.decode()
    assert time_zone_of(world.student) == "UTC"
