"""Leaderboard rows, made in Python: 50 rows through ``{% include %}`` cost more than the page's queries.

Here, above the accounts, because each row links to a person's profile, a page the accounts own."""

from __future__ import annotations

from django import template
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.timezone import localtime

from judge.standings.ranking import Standing

register = template.Library()

ROW = '<tr class="{}" data-user="{}"><td class="rank">{}{}</td><td>{}</td><td class="num">{}</td><td>{}</td></tr>'
TIE = mark_safe('<span class="tie" title="Tied: as many solved as others at this rank">=</span>')
ANONYMOUS = mark_safe('<span class="anonymous">anonymous</span>')
HIDDEN_NOTE = mark_safe(' <span class="muted small">anonymous to others</span>')


@register.simple_tag(takes_context=True)
def standing_rows(context, standings: list[Standing], near: bool = False) -> SafeString:
    viewer = context["user"].pk
    return format_html_join(
        "",
        ROW,
        (
            (
                "me" if s.user_id == viewer else "near" if near else "",
                s.user_id,
                s.rank,
                TIE if s.tied else "",
                _who(s, viewer),
                s.solved,
                f"{localtime(s.reached_at):%Y-%m-%d %H:%M:%S}",
            )
            for s in standings
        ),
    )


def _who(s: Standing, viewer: int | None) -> SafeString:
    if s.user_id == viewer:
        note = HIDDEN_NOTE if s.hidden else ""
        return format_html(
            '<a href="{}">{}</a> <span class="badge">you</span>{}',
            reverse("profile", args=[s.username]),
            s.username,
            note,
        )
    if s.hidden:
        return ANONYMOUS
    return format_html('<a href="{}">{}</a>', reverse("profile", args=[s.username]), s.username)
