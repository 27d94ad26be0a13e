"""The C loops of the research tensors (``_tensorfast``) and NMBR 9's list of legal
actions (``_nmbr9fast.mask_indices``) against their numpy references: the same bits, the
same lists, and clear refusals of what they cannot take."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from tabletop.games.nmbr9 import encoding as nmbr9_encoding
from tabletop.research import encoding as research_encoding
from tabletop.research.encoding import Scaler

tensorfast = pytest.importorskip("tabletop.research._tensorfast")


def numpy_scale(scaler: Scaler, raw: np.ndarray) -> np.ndarray:
    """``Scaler.__call__``'s numpy reference."""
    out = np.subtract(raw, scaler.low, dtype=np.float32)
    out *= scaler._factor
    return out


@st.composite
def scaled_cases(draw) -> tuple[Scaler, np.ndarray]:
    """Bounds with ``high > low`` and a raw int16 observation (inside them or not)."""
    size = draw(st.integers(1, 300))
    low = draw(arrays(np.int16, size, elements=st.integers(-1000, 1000)))
    span = draw(arrays(np.int16, size, elements=st.integers(1, 2000)))
    raw = draw(arrays(np.int16, size))
    return Scaler(low, low.astype(np.int32) + span), raw


@settings(max_examples=200, deadline=None)
@given(scaled_cases())
def test_scaling_in_c_gives_numpys_bits(case):
    scaler, raw = case
    expected = numpy_scale(scaler, raw)
    out = np.full(raw.shape, np.nan, np.float32)
    tensorfast.scale(out, raw, scaler.low, scaler._factor)
    assert out.tobytes() == expected.tobytes()
    assert scaler(raw).tobytes() == expected.tobytes()  # the Scaler takes the C path


@settings(max_examples=200, deadline=None)
@given(
    arrays(
        np.float32,
        st.integers(0, 400),
        elements=st.sampled_from(
            [0.0, -0.0, 1.0, 0.5, 0.05, 1e-30, -2.5, float("inf"), float("nan")]
        )
        | st.floats(width=32),
    )
)
def test_listing_in_c_gives_tolist(tensor):  # fmt: skip
    listed = tensorfast.as_list(tensor)
    expected = tensor.tolist()
    assert len(listed) == len(expected)
    for got, want in zip(listed, expected, strict=True):
        assert type(got) is float
        assert np.float64(got).tobytes() == np.float64(want).tobytes()  # -0.0, nan too


def test_the_listed_floats_outlive_the_tensor_and_later_lists():
    tensor = np.array([0.0, 0.25, 1.0, 0.0], np.float32)
    first = tensorfast.as_list(tensor)
    tensor[:] = [0.75, 0.0, 0.0, 0.5]
    second = tensorfast.as_list(tensor)
    del tensor
    assert first == [0.0, 0.25, 1.0, 0.0] and second == [0.75, 0.0, 0.0, 0.5]


def test_the_shared_zeros_are_counted_exactly():
    """The zeros' references are added in bulk: a list made and freed leaves each
    shared zero's count as it was (too few would free it while in use)."""
    import sys

    tensor = np.zeros(1000, np.float32)
    tensor[::7] = 0.5
    kept = tensorfast.as_list(tensor)
    shared = {id(v): v for v in kept if v == 0.0}
    assert 1 < len(shared) <= 8  # a few objects, taken in turn
    before = {key: sys.getrefcount(v) for key, v in shared.items()}
    for _ in range(50):
        tensorfast.as_list(tensor)
    assert {key: sys.getrefcount(v) for key, v in shared.items()} == before


def test_the_scaler_falls_back_to_numpy_for_what_c_does_not_take():
    scaler = Scaler(np.array([0, -4]), np.array([1, 4]))
    assert scaler(np.array([1, 2])).tolist() == [1.0, 0.75]  # int64, not int16
    assert scaler([1, 2]).tolist() == [1.0, 0.75]  # a list
    out = np.zeros(2, np.float64)
    scaler(np.array([1, 2], np.int16), out)  # a float64 out: numpy's cast
    assert out.tolist() == [1.0, 0.75]


def test_the_c_loops_refuse_bad_arrays_with_a_message():
    raw = np.zeros(3, np.int16)
    low = factor = np.zeros(3, np.float32)
    with pytest.raises(ValueError, match="out must be a contiguous float32 array of 3"):
        tensorfast.scale(np.zeros(4, np.float32), raw, low, factor)
    with pytest.raises(ValueError, match="raw must be a contiguous int16 array"):
        tensorfast.scale(np.zeros(3, np.float32), raw.astype(np.int32), low, factor)
    with pytest.raises(ValueError, match="factor must be"):
        tensorfast.scale(np.zeros(3, np.float32), raw, low, np.zeros(3, np.float64))
    with pytest.raises(ValueError, match="tensor must be a contiguous float32 array"):
        tensorfast.as_list(np.zeros(3, np.float64))
    with pytest.raises(ValueError, match="C-contiguous"):  # numpy's own words
        tensorfast.as_list(np.zeros(6, np.float32)[::2])
    with pytest.raises(BufferError):
        tensorfast.scale(bytes(12), raw, low, factor)  # read-only


def test_the_compiled_paths_are_said():
    assert research_encoding.TENSORS_COMPILED


@settings(max_examples=100, deadline=None)
@given(arrays(np.int8, st.integers(0, 7000), elements=st.sampled_from([0, 0, 0, 0, 1, 3])))
def test_nmbr9_lists_a_masks_indices_in_c_as_numpy(mask):
    if not nmbr9_encoding.COMPILED:
        pytest.skip("the optional C extension is not built here")
    expected = mask.view(np.bool_).nonzero()[0].tolist()
    assert nmbr9_encoding.mask_indices(mask) == expected
    assert nmbr9_encoding.mask_indices(mask, compiled=False) == expected
