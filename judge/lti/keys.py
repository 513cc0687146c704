"""The tool's own RSA key pair, and rotating it.

Rotation takes two steps so that a platform never meets a signature from a key it has not fetched yet:
``new_key`` publishes a key in /lti/jwks/ without signing with it; ``activate_key`` makes it the signing key
once it has been published for ``LTI_KEY_PUBLISH_AHEAD_S``. The previous key stays published until retired.
Each change leaves a ``SetupAudit`` row (``by`` None: the site made its first key itself).
"""

from __future__ import annotations

from datetime import timedelta

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from django.conf import settings
from django.db import transaction
from django.utils import timezone
from pylti1p3.registration import Registration

from judge.lti.models import ToolKey
from judge.lti.setup import audit


class KeyRotationError(Exception):
    pass


def new_key(by=None) -> ToolKey:
    """Generate and publish a key pair; it signs nothing until activated."""
    private = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    private_pem = private.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    ).decode()
    public_pem = (
        private.public_key()
        .public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
        .decode()
    )
    kid = Registration.get_jwk(public_pem)["kid"]  # the key's thumbprint: the kid PyLTI1p3 puts in headers
    with transaction.atomic():
        key = ToolKey.objects.create(kid=kid, private_pem=private_pem, public_pem=public_pem)
        audit(by, "key-made", f"key {kid} published")
    return key


@transaction.atomic
def activate_key(key: ToolKey, now=None, by=None) -> None:
    now = now or timezone.now()
    ahead = timedelta(seconds=settings.LTI_KEY_PUBLISH_AHEAD_S)
    if key.retired_at is not None:
        raise KeyRotationError("A retired key cannot sign again; make a new one.")
    if now - key.created_at < ahead:
        age = int((now - key.created_at).total_seconds())
        raise KeyRotationError(
            f"This key was published {age} s ago; it may sign "
            f"once platforms have had {int(ahead.total_seconds())} s to fetch the key set."
        )
    key.activated_at = now
    key.save(update_fields=["activated_at"])
    audit(by, "key-activated", f"key {key.kid} signs from now on")


@transaction.atomic
def retire_key(key: ToolKey, by=None) -> None:
    if key == signing_key():
        raise KeyRotationError("This key signs now; activate another before retiring it.")
    key.retired_at = timezone.now()
    key.save(update_fields=["retired_at"])
    audit(by, "key-retired", f"key {key.kid} retired: no longer published")


def change_key_by_hand(key: ToolKey, by, changed: list[str], created: bool) -> None:
    """A key as the admin's form left it (its dates set by hand, skipping the rules above), on record."""
    with transaction.atomic():
        key.save()
        if created or changed:
            audit(by, "key-changed", f"key {key.kid or '(new)'}: {', '.join(changed) or 'added'} set in the admin")


def delete_key(key: ToolKey, by) -> None:
    with transaction.atomic():
        audit(by, "key-removed", f"key {key.kid} removed")
        key.delete()


def signing_key() -> ToolKey:
    """The newest activated key; the very first key of a site is made and activated on first use."""
    key = ToolKey.objects.filter(activated_at__isnull=False, retired_at__isnull=True).order_by("-activated_at").first()
    if key is None:
        with transaction.atomic():
            key = new_key()
            key.activated_at = timezone.now()
            key.save(update_fields=["activated_at"])
            audit(None, "key-activated", f"key {key.kid} made and activated on first use")
    return key


def published_keys() -> list[ToolKey]:
    signing_key()
    return list(ToolKey.objects.filter(retired_at__isnull=True))


def key_set() -> dict:
    return {"keys": [Registration.get_jwk(key.public_pem) for key in published_keys()]}
