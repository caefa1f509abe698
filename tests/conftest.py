from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

# "default" for a quick local run; CI sets HYPOTHESIS_PROFILE=ci for more examples.
settings.register_profile("default", max_examples=200, deadline=None)
settings.register_profile(
    "ci",
    max_examples=1000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    print_blob=True,
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))
