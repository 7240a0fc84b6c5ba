"""VeRL integration: the APR reward-loop manager, ``compute_score`` and a plugin entry point.

Importing :mod:`apr_fast.verl` does not import verl; the submodules that need it do.
"""
