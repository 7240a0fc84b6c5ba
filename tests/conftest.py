"""Hypothesis profiles for the suite.

The suite is the gate every change must pass (``bash scripts/test.sh``, which CI runs), so by
default its property tests draw the same examples on every run (``derandomize``): a run fails
because the code changed, not because this run drew an unlucky example. Hunting for new
failures is a separate, deliberate step: ``pytest --hypothesis-profile=explore`` draws fresh
examples each run (add ``--hypothesis-seed=N`` to replay one).
"""
from hypothesis import settings

settings.register_profile("gate", derandomize=True, print_blob=True)
settings.register_profile("explore", derandomize=False, print_blob=True)
settings.load_profile("gate")
