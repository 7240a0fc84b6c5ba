"""Pure-Python reference implementations of the native engine, for parity tests and benchmarks.

Not part of the public API; needs the ``regex`` package (``pip install apr-fast[test]``).
"""
