"""Bad arrays raise rbmix.InputError (a ValueError) naming the argument and never crash the interpreter: hypothesis
draws dtypes, shapes, memory orders, strided views, NaN and empty arrays for every array argument."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import rbmix

MODEL = rbmix.Rbm(np.array([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]]), np.zeros(3), np.array([0.1, -0.2]))

dtypes = st.sampled_from([np.float64, np.float32, np.uint8, np.bool_, np.int64, np.int8, np.float16, np.complex128,
                          np.dtype(">f8"), np.dtype("<f4")])
shapes = hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=5)


@st.composite
def arrays(draw):
    """Any small array, 0/1 or not, possibly NaN, possibly a transposed or strided view."""
    dtype = draw(dtypes)
    shape = draw(shapes)
    binary = draw(st.booleans())
    elements = st.sampled_from([0, 1]) if binary else None
    if np.dtype(dtype).kind == "b":
        elements = st.booleans()
    array = draw(hnp.arrays(dtype, shape, elements=elements))
    view = draw(st.sampled_from(["as is", "transposed", "strided", "fortran"]))
    if view == "transposed":
        array = array.T
    elif view == "strided" and array.ndim >= 1:
        array = np.repeat(array, 2, axis=0)[::2]
    elif view == "fortran":
        array = np.asfortranarray(array)
    return array


def call_or_input_error(function, *arguments):
    try:
        return function(*arguments)
    except rbmix.InputError as error:
        assert str(error), "an InputError says what is wrong"
        assert isinstance(error, ValueError)
        return None


@settings(max_examples=300, deadline=None)
@given(arrays())
def test_states_are_checked(array):
    result = call_or_input_error(MODEL.free_energy, array)
    if result is not None:
        assert array.ndim == 2 and array.shape[1] == 3
        assert np.all((array == 0) | (array == 1))
        assert result.shape == (array.shape[0],)
    call_or_input_error(MODEL.hidden_probabilities, array)
    call_or_input_error(MODEL.energy, array, array)


@settings(max_examples=300, deadline=None)
@given(arrays(), arrays(), arrays())
def test_parameters_are_checked(weights, visible_bias, hidden_bias):
    model = call_or_input_error(rbmix.Rbm, weights, visible_bias, hidden_bias)
    if model is not None:
        assert weights.ndim == 2 and weights.size > 0
        assert np.all(np.isfinite(model.weights))
        assert model.visible_bias.shape == (weights.shape[1],)


@settings(max_examples=100, deadline=None)
@given(arrays())
def test_training_data_are_checked(array):
    call_or_input_error(lambda data: rbmix.train(data, hidden=2, updates=2, evaluate_every=0), array)


@settings(max_examples=200, deadline=None)
@given(hnp.arrays(np.float64, hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=40)))
def test_series_are_checked(series):
    result = call_or_input_error(rbmix.autocorrelation_time, series)
    if result is not None:
        assert series.ndim in (1, 2) and np.all(np.isfinite(series))


def test_numpys_default_integers_are_data():
    """np.array of Python ints is int64 (int32 on some platforms): 0/1 data in either is data, as in uint8."""
    states = np.array([[0, 1, 1], [1, 0, 0]])
    for dtype in (np.int64, np.int32):
        np.testing.assert_array_equal(MODEL.free_energy(states.astype(dtype)),
                                      MODEL.free_energy(states.astype(np.uint8)))
    with pytest.raises(rbmix.InputError, match="value at row 0, column 1 is -1"):
        MODEL.free_energy(np.array([[0, -1, 1]]))
    with pytest.raises(rbmix.InputError, match="dtype int16 is not one of"):
        MODEL.free_energy(states.astype(np.int16))


def test_messages_are_the_cli_messages():
    with pytest.raises(rbmix.InputError, match=r"^data: a data set must be a 2-D array \(samples × features\), found 1-D$"):
        rbmix.train(np.zeros(4), hidden=2)
    with pytest.raises(rbmix.InputError,
                       match=r"^data: value at row 1, column 2 is 0.5, but a binary data set holds only 0 and 1 \(rows and columns counted from 0\)$"):
        rbmix.train(np.array([[0, 1, 1], [1, 0, 0.5]]), hidden=2)
    with pytest.raises(rbmix.InputError, match="visible: has 2 columns but the model has 3 units"):
        MODEL.free_energy(np.zeros((1, 2)))
    with pytest.raises(rbmix.InputError, match="weights: dtype int64 is not float64 or float32"):
        rbmix.Rbm(np.zeros((2, 3), np.int64), np.zeros(3), np.zeros(2))
    with pytest.raises(rbmix.InputError, match="Rbm: W contains NaN or Inf"):
        rbmix.Rbm(np.full((2, 3), np.nan), np.zeros(3), np.zeros(2))
    with pytest.raises(rbmix.InputError, match="expected a numpy array, got list"):
        MODEL.free_energy([[0, 1, 0]])
