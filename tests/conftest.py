from __future__ import annotations

import os
import signal

from hypothesis import HealthCheck, settings

# "default" for a quick local run, random examples each time.
# "ci": more examples, and the same ones on every run (derandomize), so that
# whether a submission lands does not depend on the draw; every local run
# keeps exploring new examples, and "explore" hunts with as many as CI.
settings.register_profile("default", max_examples=200, deadline=None)
settings.register_profile(
    "ci",
    max_examples=1000,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
    print_blob=True,
)
settings.register_profile(
    "explore",
    max_examples=1000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    print_blob=True,
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

# The suite compiles its kernels in place, as numba does, rather than
# answering uncompiled while a background process compiles them (the default
# for a user, see minesweep/_jit.py): a background compile would load the two
# cores the timing-sensitive tests share. tests/test_jit.py tests that default
# in processes of its own. Set here so every process a test starts inherits it.
os.environ["MINESWEEP_JIT"] = "compile"

# The Ctrl-C tests raise SIGINT in this process. A shell that starts a job in
# the background (``.ci/run &``) starts it with SIGINT ignored, which would
# make those tests see nothing: the suite takes Python's own handler back.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)
