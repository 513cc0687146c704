"""Authored Markdown cannot take over the page's elements by their ids, loads images only from the site,
and every page sends a Content-Security-Policy that would stop an external image or an inline script."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from judge.display.templatetags.misconceptions import see_url
from judge.problems.models import Problem
from judge.problems.rendering import render_markdown

TAKEOVER = '<a id="submit-button" href="#">press Ctrl+Enter</a>\n\n<h2 id="run-button">Runs</h2>'


def test_an_authored_id_cannot_be_one_of_the_pages(client, problems, student):
    Problem.objects.filter(slug="prepend_class_token").update(statement_md=TAKEOVER)
    client.force_login(student)
    page = client.get("/problems/prepend_class_token/").content.decode()
    assert page.count('id="submit-button"') == 1 and page.count('id="run-button"') == 1  # the site's buttons
    assert 'id="md-submit-button"' in page and 'id="md-run-button"' in page


def test_heading_anchors_and_links_to_them_keep_working():
    html = render_markdown("## Why position 0\n\nSee [above](#why-position-0).")
    assert '<h2 id="md-why-position-0">' in html and 'href="#md-why-position-0"' in html
    assert see_url("/problems/p/", "theory#why-position-0") == "/problems/p/#md-why-position-0"


def test_a_misconception_links_to_its_theory_section(client, problems, student):
    problem = Problem.objects.get(slug="scaled_dot_product_attention")
    page = client.get(reverse("problem-detail", args=[problem.slug])).content.decode()
    anchors = set(re.findall(r'<h\d id="(md-[^"]+)"', page))
    assert "md-why-scale-by-the-square-root-of-dk" in anchors


@pytest.mark.parametrize(
    "src",
    [
        "https://tracker.example/pixel.png",
        "//tracker.example/pixel.png",
        " //tracker.example/p.png",
        "/\\tracker.example/p.png",
        "http:tracker.example/p.png",
        "data:image/png;base64,iVBORw0KGgo=",
    ],
)
def test_an_image_from_another_origin_loses_its_address(src):
    html = render_markdown(f'![pixel]({src}) <img src="{src}" alt="raw">')
    assert "tracker.example" not in html and "data:" not in html
    assert "<img" in html  # the image stays, without an address: its alt text shows


def test_an_image_from_the_site_keeps_its_address():
    assert '<img alt="diagram" src="/static/judge/diagram.png">' in render_markdown(
        "![diagram](/static/judge/diagram.png)"
    )


@pytest.mark.parametrize("url", ["/", "/accounts/login/", "/leaderboard/", "/no-such-page/"])
def test_every_page_sends_a_policy_that_stops_external_images_and_inline_scripts(client, problems, url):
    policy = client.get(url)["Content-Security-Policy"]
    directives = dict(part.strip().split(" ", 1) for part in policy.split(";") if part.strip())
    assert directives["img-src"] == "'self' data:"
    assert directives["script-src"] == "'self'"
    assert directives["style-src"] == "'self'"
    assert directives["object-src"] == "'none'" and directives["frame-ancestors"] == "'none'"


def test_a_refused_request_carries_the_policy_too(client, db):
    response = client.generic("POST", "/accounts/login/", b"x", CONTENT_LENGTH=str(10**9))
    assert response.status_code == 413 and "img-src 'self' data:" in response["Content-Security-Policy"]
