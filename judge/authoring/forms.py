"""The settings form: the fields of ``problem.toml`` that are not code or prose."""

from __future__ import annotations

import re
import tomllib

import tomli_w
from django import forms

from engine.package import DIFFICULTIES, WRONG_CHECKS


def _words(text: str) -> list[str]:
    return [word.strip() for word in text.split(",") if word.strip()]


class SettingsForm(forms.Form):
    title = forms.CharField(max_length=200)
    summary = forms.CharField(max_length=300, required=False)
    difficulty = forms.ChoiceField(choices=[(d, d) for d in DIFFICULTIES])
    tags = forms.CharField(required=False, help_text="comma-separated")
    prerequisites = forms.CharField(required=False, help_text="slugs, comma-separated")
    time_limit_s = forms.FloatField(min_value=0.01, label="Time limit per test (s)")
    memory_mb = forms.IntegerField(min_value=16, label="Memory limit (MiB)")
    rtol = forms.FloatField(min_value=0, label="Relative tolerance")
    atol = forms.FloatField(min_value=0, label="Absolute tolerance")
    seed = forms.IntegerField(label="Generator seed")

    def __init__(self, manifest: dict, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.manifest = manifest
        for index, _wrong in enumerate(manifest.get("wrong", [])):
            prefix = f"wrong_{index}_"
            self.fields[prefix + "fails_with"] = forms.ChoiceField(
                choices=[(c, c) for c in sorted(WRONG_CHECKS)],
                label="Fails with",
                help_text="the status of any of its failing hidden tests",
            )
            self.fields[prefix + "name"] = forms.CharField(max_length=200, label="Misconception")
            self.fields[prefix + "explanation"] = forms.CharField(
                widget=forms.Textarea(attrs={"rows": 3}), required=False, label="Explanation"
            )
            self.fields[prefix + "see"] = forms.CharField(
                max_length=200, required=False, label="Read more", help_text="theory#section-id or hints#N"
            )
        if not self.is_bound:
            self.initial = self.initial_from(manifest)

    def general_fields(self) -> list:
        return [self[name] for name in self.fields if not name.startswith("wrong_")]

    def wrong_entries(self) -> list[tuple[str, list]]:
        """Each known-wrong solution's file and its fields, to show one group per solution."""
        return [
            (wrong.get("file", "?"), [self[name] for name in self.fields if name.startswith(f"wrong_{index}_")])
            for index, wrong in enumerate(self.manifest.get("wrong", []))
        ]

    @staticmethod
    def initial_from(manifest: dict) -> dict:
        initial = {key: manifest.get(key, "") for key in ("title", "summary", "difficulty")}
        initial |= {key: ", ".join(manifest.get(key, [])) for key in ("tags", "prerequisites")}
        initial |= dict(manifest.get("limits", {})) | dict(manifest.get("checking", {}))
        initial["seed"] = manifest.get("tests", {}).get("seed")
        for index, wrong in enumerate(manifest.get("wrong", [])):
            for key in ("fails_with", "name", "explanation", "see"):
                initial[f"wrong_{index}_{key}"] = wrong.get(key, "")
        return initial

    def manifest_text(self) -> str:
        """The new problem.toml: the old one with this form's fields replaced."""
        data, manifest = self.cleaned_data, dict(self.manifest)
        manifest |= {
            "title": data["title"],
            "summary": data["summary"],
            "difficulty": data["difficulty"],
            "tags": _words(data["tags"]),
            "prerequisites": _words(data["prerequisites"]),
        }
        manifest["limits"] = dict(
            manifest.get("limits", {}), time_limit_s=data["time_limit_s"], memory_mb=data["memory_mb"]
        )
        manifest["checking"] = dict(manifest.get("checking", {}), rtol=data["rtol"], atol=data["atol"])
        manifest["tests"] = dict(manifest.get("tests", {}), seed=data["seed"])
        manifest["wrong"] = [
            dict(wrong, **{key: data[f"wrong_{index}_{key}"] for key in ("fails_with", "name", "explanation", "see")})
            for index, wrong in enumerate(manifest.get("wrong", []))
        ]
        if not manifest["wrong"]:
            del manifest["wrong"]
        return tomli_w.dumps(manifest)


def parse_manifest(text: str) -> dict:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return {}


class PromoteForm(forms.Form):
    """Name and explain a mined cluster: what students who make this mistake will read."""

    name = forms.CharField(
        max_length=120,
        label="Name of the misconception",
        help_text="what the student sees first, e.g. 'Token added instead of prepended'",
    )
    explanation = forms.CharField(
        max_length=2000, widget=forms.Textarea(attrs={"rows": 3}), help_text="why it is wrong and what to do instead"
    )
    see = forms.RegexField(
        regex=r"^(theory(#[A-Za-z0-9_-]+)?|hints#\d+)$",
        max_length=200,
        required=False,
        label="Read more",
        help_text="theory#section-id or hints#N (optional)",
        error_messages={"invalid": "write theory#section-id or hints#N"},
    )

    def clean_name(self) -> str:
        name = " ".join(self.cleaned_data["name"].split())
        if not re.search(r"[A-Za-z0-9]", name):
            raise forms.ValidationError("the name needs at least one letter or digit")
        return name
