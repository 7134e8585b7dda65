// Reductions (instantiated per operation bundle: see usmarray/reduction.py).
#include "reduction.hpp"
