"""Random numbers on the device: NumPy's ``Generator`` API over a
counter-based Philox4x64-10 stream (docs/random.md).

``Generator(Philox(seed)).random(n)`` equals NumPy's
``Generator(Philox(seed)).random(n)`` bit for bit (float64 and float32), as
do ``uniform``, the raw stream and ``bytes``; every value depends only on
the key, the counter and its position, so any device, in any chunking,
draws the same bits. CuPy's ``RandomState`` (NumPy's legacy method names)
wraps a Generator; CuPy's module-level functions (``rand``, ``randn``,
``randint``, ``random_sample``, ``normal``, ``uniform``, ``choice``...) and
``seed`` are the methods of a module-wide RandomState.
Seeds may be anything ``numpy.random.SeedSequence`` takes, or one.
"""

from . import _legacy
from ._generator import Generator, default_rng
from ._legacy import *  # noqa: F401,F403  (CuPy's module-level functions)
from ._philox import Philox

__all__ = ["Philox", "Generator", "default_rng"] + _legacy.__all__
