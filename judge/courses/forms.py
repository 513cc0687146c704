from __future__ import annotations

from django import forms

from judge.courses.models import LateRule, Release
from judge.courses.timezones import zone_named
from judge.problems.models import Problem

DATETIME = forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M")
DATETIME_FORMATS = ["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M:%S"]


def when(label: str, required: bool = False) -> forms.DateTimeField:
    """A date and time in the viewer's time zone (the one activated for the request), stored in UTC."""
    return forms.DateTimeField(label=label, required=required, widget=DATETIME, input_formats=DATETIME_FORMATS)


class CourseForm(forms.Form):
    title = forms.CharField(max_length=200)
    term = forms.CharField(max_length=60, required=False)


class SettingsForm(CourseForm):
    leaderboard_enabled = forms.BooleanField(required=False, label="Course leaderboard")


class WindowForm(forms.Form):
    opens_at = when("Opens")
    due_at = when("Due")
    closes_at = when("Hard close (end of the late window)")
    late_rule = forms.ChoiceField(choices=[("", "---")] + LateRule.choices, required=False)
    late_multiplier = forms.FloatField(required=False, min_value=0, max_value=1)
    late_penalty_per_day = forms.FloatField(required=False, min_value=0, max_value=1)


class AssignmentForm(WindowForm):
    title = forms.CharField(max_length=200)
    weight = forms.FloatField(initial=1.0, min_value=0)
    time_limit_minutes = forms.IntegerField(
        required=False, min_value=1, max_value=60 * 24 * 14, label="Timed: minutes per student (blank: not timed)"
    )
    problem_cap = forms.FloatField(
        required=False, min_value=0, initial=1.0, label="Most points a problem can reach with points by hand (blank: 1)"
    )
    release = forms.ChoiceField(
        choices=Release.choices,
        required=False,
        initial=Release.AT_ONCE,
        label="Students see their grades, the hidden tests and the editorial",
        widget=forms.RadioSelect,
    )
    max_submits = forms.IntegerField(
        required=False,
        min_value=1,
        max_value=1000,
        label="Submits per problem for each student (blank: no limit; Run is free)",
    )
    # In the learning path's order (Problem's ordering), which is the order they are saved and shown in; the page
    # draws the list itself (courses/_problem_picker.html) with each title, and a search where JavaScript runs.
    problems = forms.ModelMultipleChoiceField(
        queryset=Problem.objects.filter(published=True), to_field_name="slug", widget=forms.CheckboxSelectMultiple
    )
    field_order = [
        "title",
        "problems",
        "opens_at",
        "due_at",
        "closes_at",
        "late_rule",
        "late_multiplier",
        "late_penalty_per_day",
        "weight",
        "time_limit_minutes",
        "max_submits",
        "problem_cap",
        "release",
    ]


class OverrideForm(WindowForm):
    student = forms.CharField(required=False, max_length=150, help_text="A username; or choose a section")
    section = forms.CharField(required=False, max_length=60)
    reason = forms.CharField(
        max_length=500,
        required=False,
        label="Message to the student",
        help_text="The student reads this beside their own dates. Leave out anything private.",
    )
    staff_note = forms.CharField(
        max_length=500,
        required=False,
        label="Private note for staff",
        help_text="Never shown to the student: the course's staff read it here and in the "
        "audit log (for example, that a doctor's note was seen).",
    )


class RosterForm(forms.Form):
    roster = forms.FileField()


class TimeZoneForm(forms.Form):
    """A zone typed or picked from the page's list (``zone_names``, common first); any spelling of a real one."""

    time_zone = forms.CharField(
        max_length=64,
        widget=forms.TextInput(
            attrs={"list": "time-zones", "autocomplete": "off", "spellcheck": "false", "placeholder": "Europe/Paris"}
        ),
    )

    def clean_time_zone(self) -> str:
        name = zone_named(self.cleaned_data["time_zone"])
        if name is None:
            raise forms.ValidationError("Choose a time zone from the list, such as Europe/Paris.")
        return name
