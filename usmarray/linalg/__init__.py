"""The array API ``linalg`` extension (2025.12).

Factorisations run on the array's device through oneMKL's SYCL LAPACK
(``_lapack.py``; ``eig``/``eigvals`` on the host, oneMKL having no SYCL
nonsymmetric eigensolver); the other functions are built from them and from
the main namespace (``_composite.py``). See docs/linalg.md.
"""

from ..linear_algebra import matmul, tensordot, vecdot
from ..manipulation import matrix_transpose
from ._composite import (cross, diagonal, lstsq, matrix_norm, matrix_power, matrix_rank, norm,
                         outer, pinv, trace, vector_norm)
from ._lapack import (EigResult, EighResult, LinAlgError, QRResult, SlogdetResult, SVDResult,
                      cholesky, det, eig, eigh, eigvals, eigvalsh, inv, qr, slogdet, solve, svd,
                      svdvals)

__all__ = ["LinAlgError", "cholesky", "cross", "det", "diagonal", "eig", "eigh", "eigvals",
           "eigvalsh", "inv", "matmul", "matrix_norm", "matrix_power", "matrix_rank",
           "matrix_transpose", "outer", "pinv", "qr", "slogdet", "solve", "svd", "svdvals",
           "tensordot", "trace", "vecdot", "vector_norm",
           # NumPy's and CuPy's beyond the standard
           "lstsq", "norm"]
