"""A GET on an address that only takes a form (``/courses/new/``, ``/accounts/tokens/``) shows the site's own page
saying so, not the browser's blank one; the status stays 405 with its Allow header, and the API keeps its own."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize("path", ["/courses/new/", "/accounts/tokens/"])
def test_a_visit_to_a_form_only_address_explains_itself(client, django_user_model, path):
    client.force_login(django_user_model.objects.create_user("visitor", is_staff=True))
    response = client.get(path)
    assert response.status_code == 405 and response["Allow"] == "POST"
    assert "This address takes a form, not a visit" in response.content.decode()
    assert f"<code>{path}</code>" in response.content.decode()
