"""Exception classes shared by the API modules."""

import numpy as np

__all__ = ["AxisError"]


class AxisError(np.exceptions.AxisError):
    """An axis argument is out of range for the array.

    A subclass of ``numpy.exceptions.AxisError`` (itself a ValueError and an
    IndexError), so ``except np.exceptions.AxisError`` works as it did with
    dpctl.tensor.
    """
