from __future__ import annotations

from django import forms
from django.db import models

from judge.lti.models import Platform, issuer_spellings


def https_by_default(field, **kwargs):
    if isinstance(field, models.URLField):
        kwargs["assume_scheme"] = "https"
    return field.formfield(**kwargs)


class PlatformForm(forms.ModelForm):
    deployment_ids_text = forms.CharField(
        label="Deployment ids",
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text="One per line or separated by commas, as the LMS shows them.",
    )

    class Meta:
        model = Platform
        fields = [
            "name",
            "issuer",
            "client_id",
            "key_set_url",
            "auth_login_url",
            "auth_token_url",
            "auth_audience",
            "enabled",
        ]
        formfield_callback = https_by_default

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.instance.pk:
            self.fields["deployment_ids_text"].initial = "\n".join(self.instance.deployment_ids)

    def clean_deployment_ids_text(self) -> list[str]:
        text = self.cleaned_data["deployment_ids_text"]
        ids = [part.strip() for line in text.splitlines() for part in line.split(",") if part.strip()]
        if not ids:
            raise forms.ValidationError("Give at least one deployment id; launches from others are refused.")
        return ids

    def clean(self) -> dict:
        data = super().clean()
        assert data is not None  # a ModelForm's clean() returns its cleaned_data
        issuer, client_id = data.get("issuer"), data.get("client_id")
        if (
            issuer
            and client_id
            and Platform.objects.filter(issuer__in=issuer_spellings(issuer), client_id=client_id)
            .exclude(pk=self.instance.pk)
            .exists()
        ):
            raise forms.ValidationError(
                "This issuer and client id are registered already (an issuer with or "
                "without a trailing slash is the same one)."
            )
        return data

    def save(self, commit: bool = True) -> Platform:
        self.instance.deployment_ids = self.cleaned_data["deployment_ids_text"]
        return super().save(commit)
