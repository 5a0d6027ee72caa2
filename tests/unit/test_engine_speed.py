"""The NumPy engine's LSTM recurrence against a plain float64 LSTM: the engine folds gate scales into its
weights, keeps -2c for the cell and runs both directions as one batch, and must still compute an ordinary
LSTM (a guard for rearrangements of ``_lstm_steps`` made for speed)."""

from __future__ import annotations

import numpy as np

from deid_core.tagger.engine import _active_counts, _gate_scale, _lstm_steps, _reverse_index


def _reference_lstm(proj: np.ndarray, w_hh: np.ndarray) -> np.ndarray:
    """States (T, H) of one LSTM, torch gate order i, f, g, o, over input projections (T, 4H)."""
    hidden = w_hh.shape[1]
    h, c = np.zeros(hidden), np.zeros(hidden)
    out = np.zeros((len(proj), hidden))
    for t, x in enumerate(proj):
        a = x + w_hh @ h
        i, f, o = (1 / (1 + np.exp(-a[k * hidden : (k + 1) * hidden])) for k in (0, 1, 3))
        c = f * c + i * np.tanh(a[2 * hidden : 3 * hidden])
        h = o * np.tanh(c)
        out[t] = h
    return out


def test_lstm_steps_equal_a_plain_lstm_in_both_directions_with_rows_finishing_early() -> None:
    rng = np.random.default_rng(7)
    hidden, inputs, steps, n = 16, 30, 12, 9
    proj = rng.standard_normal((2 * inputs, 4 * hidden))  # forward rows, then backward rows
    w_hh = rng.standard_normal((2, 4 * hidden, hidden)) * 0.5
    lengths = np.sort(rng.integers(1, steps + 1, n))[::-1]
    lengths[0] = steps
    seq = rng.integers(0, inputs, (n, steps))  # each row's input at each sequence position
    rev = _reverse_index(lengths, steps)
    index = np.stack([seq.T, np.take_along_axis(seq, rev, axis=1).T + inputs], axis=1)  # (T, 2, N)
    scale = _gate_scale(hidden)
    table = (proj * scale).astype(np.float32)
    w_scaled = (w_hh * scale[:, None]).astype(np.float32)
    active = _active_counts(lengths, steps)

    states = _lstm_steps(table, index, w_scaled, active, rev.T)  # (2, T, N, H), sequence order
    final = _lstm_steps(table, index, w_scaled, active)  # (2, H, N)

    for r, length in enumerate(lengths):
        fwd = _reference_lstm(proj[seq[r, :length]], w_hh[0])
        bwd = _reference_lstm(proj[seq[r, :length][::-1] + inputs], w_hh[1])[::-1]
        np.testing.assert_allclose(states[0, :length, r], fwd, atol=1e-5)
        np.testing.assert_allclose(states[1, :length, r], bwd, atol=1e-5)
        assert not states[:, length:, r].any()  # past the row's length: untouched
        np.testing.assert_allclose(final[0, :, r], fwd[-1], atol=1e-5)
        np.testing.assert_allclose(final[1, :, r], bwd[0], atol=1e-5)
