"""deploy/nginx.conf lets through every body the site accepts, so a refusal comes from the site with its limit.

Nginx refuses a body over its ``client_max_body_size`` with a bare page of its own: set below the site's largest
limit (it was 2 MB while a problem's zip may be 5 MiB and a package edit 6 MiB), it refused legitimate uploads.
Set far above, it would buffer bodies no page takes.
"""

from __future__ import annotations

import re

from django.conf import settings

from tests.conftest import REPO

UNITS = {"": 1, "k": 1024, "m": 1024 * 1024, "g": 1024 * 1024 * 1024}
HEADROOM = 1024 * 1024


def nginx_body_limit() -> int:
    sizes = re.findall(
        r"^\s*client_max_body_size\s+(\d+)([kKmMgG]?)\s*;", (REPO / "deploy/nginx.conf").read_text(), re.MULTILINE
    )
    assert len(sizes) == 1, f"deploy/nginx.conf should set client_max_body_size once, not {len(sizes)} times"
    number, unit = sizes[0]
    return int(number) * UNITS[unit.lower()]


def test_nginx_lets_through_the_largest_body_a_page_accepts_and_little_more():
    largest = max([*settings.REQUEST_BODY_LIMITS.values(), settings.REQUEST_BODY_DEFAULT_LIMIT])
    allowed = nginx_body_limit()
    assert allowed >= largest, f"nginx refuses a body over {allowed:,} bytes, the site accepts up to {largest:,}"
    assert allowed <= largest + HEADROOM, f"nginx lets {allowed:,} bytes through, no page takes over {largest:,}"
