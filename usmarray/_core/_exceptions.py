"""Exception classes shared by the API modules."""

import numpy as np

__all__ = ["AxisError", "DTypeError", "IndexShapeError"]


class AxisError(np.exceptions.AxisError):
    """An axis argument is out of range for the array.

    A subclass of ``numpy.exceptions.AxisError`` (itself a ValueError and an
    IndexError), so ``except np.exceptions.AxisError`` works as it did with
    dpctl.tensor.
    """


class DTypeError(TypeError, ValueError):
    """Data types that an operation cannot combine, cast or store.

    Raised for input dtypes a function has no loop for, a result that
    cannot be stored in ``out`` or in the left operand of ``x op= y``, and
    a complex value assigned into a real or bool array. NumPy raises a
    TypeError in these cases and dpctl.tensor a ValueError; this is both, so
    code written for either catches it.
    """


class IndexShapeError(IndexError, ValueError):
    """Index arrays whose shapes do not broadcast together.

    NumPy raises an IndexError, dpctl.tensor a ValueError (from its
    broadcasting); this is both.
    """
