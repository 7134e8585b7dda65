"""``usmarray.utils``: the compute-follows-data helpers that dpctl 0.22
removed from ``dpctl.utils`` along with ``dpctl.tensor``, with dpctl's
signatures and errors, so that code written for dpctl.tensor changes only
its import::

    from usmarray.utils import (ExecutionPlacementError, get_coerced_usm_type,
                                get_execution_queue, validate_usm_type)
    # was: from dpctl.utils import ...

``ExecutionPlacementError`` is the exception usmarray raises for operands
bound to different queues (``usmarray.ExecutionPlacementError``, a
ValueError).
"""

import dpctl

from ._core._device import ExecutionPlacementError, coerce_usm_type

__all__ = ["get_execution_queue", "get_coerced_usm_type", "validate_usm_type",
           "ExecutionPlacementError"]

_USM_TYPES = ("device", "shared", "host")


def get_execution_queue(qs, /):
    """The queue that arrays bound to the queues `qs` compute on.

    Parameters
    ----------
    qs : list or tuple of dpctl.SyclQueue
        The ``sycl_queue`` attributes of the arrays being combined.

    Returns
    -------
    dpctl.SyclQueue or None
        The queue, when every entry is a ``dpctl.SyclQueue`` equal to the
        others (compute follows data); None when they differ, when an entry
        is not a queue, or when `qs` is empty.

    Raises
    ------
    TypeError
        If `qs` is not a list or a tuple.
    """
    if not isinstance(qs, (list, tuple)):
        raise TypeError(f"Expected a list or a tuple, got {type(qs)}")
    if not qs or not all(isinstance(q, dpctl.SyclQueue) for q in qs):
        return None
    q0 = qs[0]
    return q0 if all(q == q0 for q in qs[1:]) else None


def get_coerced_usm_type(usm_types, /):
    """The USM type of a result computed from arrays of `usm_types`.

    Parameters
    ----------
    usm_types : list or tuple of str
        The ``usm_type`` attributes of the input arrays.

    Returns
    -------
    str or None
        "device" if any input is device memory, else "shared" if any is
        shared, else "host"; None for an empty sequence or an entry that is
        not one of these strings.

    Raises
    ------
    TypeError
        If `usm_types` is not a list or a tuple.
    """
    if not isinstance(usm_types, (list, tuple)):
        raise TypeError(f"Expected a list or a tuple, got {type(usm_types)}")
    if not usm_types or not all(isinstance(t, str) and t in _USM_TYPES for t in usm_types):
        return None
    return coerce_usm_type(usm_types)


def validate_usm_type(usm_type, /, *, allow_none=True):
    """Raise if `usm_type` is not a USM type.

    Parameters
    ----------
    usm_type : str or None
        "device", "shared" or "host" (or None when `allow_none`).
    allow_none : bool, optional
        Whether None is valid. Default: True.

    Raises
    ------
    ValueError
        If `usm_type` is a string other than the three.
    TypeError
        If `usm_type` is not a string (nor None, when `allow_none`).
    """
    if usm_type is None and allow_none:
        return
    if not isinstance(usm_type, str):
        raise TypeError(f"Expected usm_type to be a str{' or None' if allow_none else ''}, "
                        f"got {type(usm_type)}")
    if usm_type not in _USM_TYPES:
        raise ValueError(f"Unrecognized value of usm_type={usm_type}, expected 'device', "
                         f"'shared', {'or ' if not allow_none else ''}'host'"
                         f"{', or None' if allow_none else ''}.")
