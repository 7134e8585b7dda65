"""The Philox4x64-10 bit generator: NumPy's ``numpy.random.Philox`` with its
stream generated on the device.

The state is NumPy's: a 128-bit key, a 256-bit counter, how many words of
the counter's block were used (NumPy buffers a block of four 64-bit words)
and a kept 32-bit half. Drawing ``n`` values reserves their positions in the
stream here on the host, under a lock, and hands the kernels the key, the
counter and the offset: every value depends only on its position, so any
device computes the same bits in any chunking.
"""

import operator
import os
import threading
import weakref

import numpy as np

from .._core._array import empty_array
from .._core._device import resolve_queue
from .._core._layout import normalize_shape
from ._distributions import draw

__all__ = ["Philox", "Position"]

_MASK64 = (1 << 64) - 1
_MASK256 = (1 << 256) - 1


def _words(value, count):
    """`value` as `count` little-endian 64-bit words."""
    return tuple((value >> (64 * k)) & _MASK64 for k in range(count))


def _value(words):
    return sum(int(w) << (64 * k) for k, w in enumerate(words))


def _host_block(key, counter):
    """The four words of Philox block `counter` (NumPy's own Philox computes
    them: NumPy increments its counter before each block)."""
    ref = np.random.Philox(key=_value(key), counter=(counter - 1) & _MASK256)
    return [int(w) for w in ref.random_raw(4)]


class Position:
    """Where a kernel starts reading the stream: the key, the counter of a
    base block (four words), the offset of the first unit (word or 32-bit
    half) from it and the kept half that comes first (`lead`, `lead_bits`)."""

    __slots__ = ("key", "ctr", "first", "lead", "lead_bits")

    def __init__(self, key, ctr, first, lead=0, lead_bits=0):
        self.key = key
        self.ctr = ctr
        self.first = first
        self.lead = lead
        self.lead_bits = lead_bits


# Every bit generator, for fresh locks in a forked child (a lock another
# thread held at the fork would never be released there)
_LIVE = weakref.WeakSet()


def _fresh_locks_in_child():
    for g in list(_LIVE):
        g._lock = threading.Lock()


os.register_at_fork(after_in_child=_fresh_locks_in_child)


class Philox:
    """Philox4x64-10 counter-based bit generator, identical to
    ``numpy.random.Philox``.

    Parameters
    ----------
    seed : None, int, array_like of ints or SeedSequence, optional
        Entropy for the key, derived exactly as NumPy does
        (``SeedSequence(seed).generate_state(2, np.uint64)``).
    counter : None, int or array_like of 4 uint64, optional
        The initial 256-bit counter (default 0).
    key : None, int or array_like of 2 uint64, optional
        The 128-bit key itself; then `seed` must be None.

    Notes
    -----
    ``Generator(Philox(s)).random(n)`` equals NumPy's bit for bit, as do
    ``uniform``, ``random_raw`` and ``bytes`` (docs/random.md).
    """

    def __init__(self, seed=None, counter=None, key=None):
        # NumPy checks the arguments and derives the key from the seed
        ref = np.random.Philox(seed, counter=counter, key=key)
        self._seed_seq = ref.seed_seq
        self._lock = threading.Lock()
        _LIVE.add(self)
        self._set_numpy_state(ref.state)

    # ---------------------------------------------------------- state
    def _set_numpy_state(self, st):
        if not isinstance(st, dict):
            raise TypeError("state must be a dict")
        if st.get("bit_generator") != "Philox":
            raise ValueError("state must be a dict of a Philox bit generator")
        self._key = tuple(int(w) for w in st["state"]["key"])
        self._ctr = _value(st["state"]["counter"])
        self._pos = int(st["buffer_pos"])        # words of block _ctr used (4: all)
        self._buffer = [int(w) for w in st["buffer"]]
        self._fresh = not any(self._buffer)       # NumPy's buffer is zeros after a reset
        # the kept half: its value, or (block, lane) of the word whose high
        # half it is (fetched when needed); NumPy keeps the value after use
        self._left = int(st["uinteger"])
        self._has = bool(st["has_uint32"])
        if not 0 <= self._pos <= 4:
            raise ValueError("buffer_pos must be in [0, 4]")
        if self._pos < 4 and self._buffer != _host_block(self._key, self._ctr):
            raise ValueError("the buffer of a Philox state must hold the counter's block")

    @property
    def state(self):
        """NumPy's state dict (settable: a dict from NumPy's Philox works)."""
        with self._lock:
            left = self._left
            if isinstance(left, tuple):       # the high half of a word, fetched lazily
                left = self._left = _host_block(self._key, left[0])[left[1]] >> 32
            buf = [0] * 4 if self._fresh else _host_block(self._key, self._ctr)
            return {"bit_generator": "Philox",
                    "state": {"counter": np.array(_words(self._ctr, 4), dtype=np.uint64),
                              "key": np.array(self._key, dtype=np.uint64)},
                    "buffer": np.array(buf, dtype=np.uint64), "buffer_pos": self._pos,
                    "has_uint32": int(self._has), "uinteger": left}

    @state.setter
    def state(self, value):
        with self._lock:
            self._set_numpy_state(value)

    @property
    def seed_seq(self):
        """The SeedSequence the key came from (NumPy's)."""
        return self._seed_seq

    def to_numpy(self):
        """A ``numpy.random.Philox`` in the same state."""
        ref = np.random.Philox()
        ref.state = self.state
        return ref

    # ---------------------------------------------------------- positions
    def _reserve_words(self, n, pairs=False):
        """Position of `n` consecutive 64-bit words (`pairs`: starting at an
        even word, n rounded up to even), and advance past them."""
        with self._lock:
            first = self._pos
            if pairs:
                first += first & 1
                n += n & 1
            base = self._ctr
            if n:
                last = first + n - 1
                self._ctr = (self._ctr + last // 4) & _MASK256
                self._pos = last % 4 + 1
                self._fresh = False
            ctr = (base + first // 4) & _MASK256
            return Position(self._key, _words(ctr, 4), first % 4)

    def _host_words(self, n):
        """The next `n` 64-bit words of the stream, computed on the host (for
        a few parameters a kernel takes: the round keys of ``choice``'s
        permutation), advancing past them as a kernel reading them would."""
        p = self._reserve_words(n)
        ctr = _value(p.ctr)
        words = []
        while len(words) < p.first + n:
            words += _host_block(p.key, ctr)
            ctr = (ctr + 1) & _MASK256
        return words[p.first:p.first + n]

    def _reserve_halves(self, n):
        """Position of `n` 32-bit draws as NumPy's next_uint32 makes them: the
        kept high half first, then low and high halves of fresh words."""
        with self._lock:
            lead, bits = 0, 0
            first = 2 * self._pos
            left = self._left
            if n and self._has:
                if isinstance(left, tuple) and left == (self._ctr, self._pos - 1):
                    first -= 1            # the half just before the next one
                else:
                    lead = 1
                    bits = left if isinstance(left, int) else \
                        _host_block(self._key, left[0])[left[1]] >> 32
                self._has = False
            fresh = n - lead
            base = self._ctr
            if fresh > 0:
                last = first + fresh - 1
                word = last // 2
                self._ctr = (self._ctr + word // 4) & _MASK256
                self._pos = word % 4 + 1
                self._fresh = False
                # NumPy remembers the last word's high half, and keeps it
                # for the next draw when only its low half was used
                self._left, self._has = (self._ctr, self._pos - 1), last % 2 == 0
            ctr = (base + first // 8) & _MASK256
            return Position(self._key, _words(ctr, 4), first % 8, lead, bits)

    # ---------------------------------------------------------- NumPy's API
    def advance(self, delta):
        """Advance the counter by `delta` blocks (of four words) as NumPy's
        ``advance``: drops the buffered words and kept half. Returns self."""
        with self._lock:
            self._ctr = (self._ctr + operator.index(delta)) & _MASK256
            self._pos, self._fresh, self._left, self._has = 4, True, 0, False
        return self

    def jumped(self, jumps=1):
        """A copy advanced by ``jumps * 2**128`` blocks (NumPy's ``jumped``)."""
        bg = Philox()
        bg.state = self.state
        return bg.advance(int(jumps) * (1 << 128))

    def spawn(self, n_children):
        """`n_children` independent bit generators from the seed sequence's
        children, as NumPy's ``spawn``."""
        if not isinstance(self._seed_seq, np.random.SeedSequence):
            raise TypeError("The underlying SeedSequence does not implement spawning.")
        return [type(self)(seed=s) for s in self._seed_seq.spawn(n_children)]

    def random_raw(self, size=None, output=True, *, device=None, usm_type="device",
                   sycl_queue=None):
        """Raw 64-bit words of the stream (uint64), as NumPy's ``random_raw``;
        `size` None gives a 0-d array. ``output=False`` only advances."""
        shape = () if size is None else normalize_shape(size)
        n = 1
        for d in shape:
            n *= d
        if not output:
            self._reserve_words(n)
            return None
        qi = resolve_queue(device, sycl_queue)
        out = empty_array(shape, np.dtype(np.uint64), qi, usm_type, "C")
        draw(self, "raw", out)
        return out

    def __repr__(self):
        return f"Philox(key={self._key!r}, counter={self._ctr:#x})"

    def __reduce__(self):
        # (pickles and deep copies, as NumPy's: the state and the seed
        # sequence, whose spawn counter later children depend on)
        return _restore, (self.state, self._seed_seq)


def _restore(state, seed_seq):
    bg = Philox()
    bg._seed_seq = seed_seq
    bg.state = state
    return bg

