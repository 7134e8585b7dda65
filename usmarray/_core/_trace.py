"""Hooks for tracing: an API function called with a traced value (one of
usmarray.fusion's, whose type has ``__usm_trace__``) hands the call to it
instead of computing, so that ``@usmarray.fuse`` records the function's
operations. The functions look for traced values only on the path that
would otherwise raise TypeError, so plain calls pay nothing."""

__all__ = ["traced"]


def traced(*values):
    """The first of `values` that is a traced value, or None."""
    for v in values:
        if hasattr(type(v), "__usm_trace__"):
            return v
    return None
