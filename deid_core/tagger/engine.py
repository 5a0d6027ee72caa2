"""The BiLSTM-CRF forward pass and Viterbi decoding in NumPy, for CPU inference without torch.

The same arithmetic as ``deid_core.tagger.model.BiLstmCrf`` in eval mode (dropout off), reorganised so
that CPU time goes to the recurrences only:

- Everything a word LSTM's input projection sees from a token is a function of its spelling (word,
  casing, characters) except the spacing feature. So ``W_ih x + b`` is computed once per distinct
  (spelling, spacing) pair in the batch, from the batch's word rows and a casing-and-spacing table made
  at load time, instead of a (162 -> 400) product per token and window: more than half of the word LSTMs'
  multiply-adds go, and the windows' overlap costs nothing there. (A whole-vocabulary word table made at
  load time gave the same numbers but cost 86 MB and a fifth of a second of every start.)
- The character BiLSTM runs once per distinct spelling; the two directions of a BiLSTM step together.
- Gates use ``exp`` only (NumPy's float32 ``tanh`` ran 3-5 times slower than ``exp`` here): sigmoid(x) =
  1 / (1 + exp(-x)) and tanh(x) = 2 sigmoid(2x) - 1, with the -1 and -2 folded into the weights at load
  time (exact: powers of 2).
- Rows are sorted longest first; the state arrays shrink as rows finish.

Results equal the torch model's up to float rounding (another summation order), not bit for bit, just as
torch's own results vary with batch composition; tests/unit/test_detect_speed.py compares the spans with
the torch engine's on held-out notes. Decoding is exact: the same float32 operations as ``CRF.decode``,
with ties going to the lowest tag index as there.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from deid_core.tagger.encode import EncodedBatch

_F32 = np.float32


def _gate_scale(hidden: int) -> np.ndarray:
    """Factors for the 4*hidden gate rows (torch order i, f, g, o): -1 for the sigmoid gates, -2 for g."""
    scale = np.full(4 * hidden, -1.0, dtype=_F32)
    scale[2 * hidden : 3 * hidden] = -2.0
    return scale


def _active_counts(lengths: np.ndarray, steps: int) -> np.ndarray:
    """Rows (sorted longest first) still inside their sequence at each step."""
    return (lengths[None, :] > np.arange(steps)[:, None]).sum(1)


def _lstm_steps(
    table: np.ndarray, index: np.ndarray, w_hh: np.ndarray, active: np.ndarray, back_positions: np.ndarray | None = None
) -> np.ndarray:
    """Runs two LSTMs (one per direction) together over rows sorted longest first.

    ``table`` (R, 4H): scaled input projections ``scale * (W_ih x + b)`` of R inputs, both directions';
    ``index`` (T, 2, N): the table row feeding each direction and row at step t (gathered per step, so
    no (T, N, 4H) array is built); ``w_hh`` (2, 4H, H): ``scale * W_hh``; ``active[t]``: rows inside
    their sequence at step t.

    With ``back_positions`` (T, N), the backward LSTM's step t for row r is the sequence position
    ``back_positions[t, r]``, and all hidden states come back as (2, T, N, H) in sequence order (rows
    past their length untouched, zero). Without, each row's state after its last step comes back (2, H, N).
    """
    steps, _, n = index.shape
    hidden = w_hh.shape[2]
    h = np.zeros((2, hidden, n), dtype=_F32)
    # The cell state is kept as -2c, since tanh(c) = 2 sigmoid(2c) - 1 = 2 / (1 + exp(-2c)) - 1.
    c = np.zeros((2, hidden, n), dtype=_F32)
    final = np.zeros((2, hidden, n), dtype=_F32)
    rows = np.arange(n)
    keep_all = back_positions is not None
    out = np.zeros((2, steps, n, hidden), dtype=_F32) if keep_all else None
    width = n
    with np.errstate(over="ignore"):  # exp(large) = inf gives sigmoid 0, the right limit
        for t in range(steps):
            m = int(active[t])
            if m < width:
                # Rows [m, width) are done: keep their last state, continue on contiguous smaller arrays.
                final[:, :, m:width] = h[:, :, m:]
                h, c, width = np.ascontiguousarray(h[:, :, :m]), np.ascontiguousarray(c[:, :, :m]), m
            if m == 0:
                break
            g = np.matmul(w_hh, h)  # (2, 4H, m): each gate a block of rows, contiguous per direction
            # Whole table rows are gathered (a column gather is several times slower), then added transposed.
            g += np.take(table, index[t, :, :m], axis=0).transpose(0, 2, 1)
            np.exp(g, out=g)
            g += 1.0
            np.reciprocal(g, out=g)  # sigmoid(i), sigmoid(f), sigmoid(2g), sigmoid(o)
            gi, gf, gg, go = (g[:, k * hidden : (k + 1) * hidden] for k in range(4))
            # -2 (f c + i tanh(g)) = f (-2c) + i (2 - 4 sigmoid(2g))
            gg *= -4.0
            gg += 2.0
            gi *= gg
            c *= gf
            c += gi
            np.exp(c, out=gg)
            gg += 1.0
            np.reciprocal(gg, out=gg)
            gg *= 2.0
            gg -= 1.0  # tanh(c)
            np.multiply(go, gg, out=h)
            if out is not None:
                out[0, t, :m] = h[0].T
                out[1, back_positions[t, :m], rows[:m]] = h[1].T
    final[:, :, :width] = h
    return out if out is not None else final


def _reverse_index(lengths: np.ndarray, steps: int) -> np.ndarray:
    """(N, T): position t of row r reads position lengths[r]-1-t, padding stays in place (an involution)."""
    t = np.arange(steps)[None, :]
    idx = lengths[:, None] - 1 - t
    return np.where(idx >= 0, idx, t)


class NumpyBiLstmCrf:
    """Inference-only BiLSTM-CRF over a torch state dict's arrays (see ``weights.load_state_dict``)."""

    def __init__(self, state: Mapping[str, np.ndarray], allowed: np.ndarray) -> None:
        w = {k: np.asarray(v, dtype=_F32) for k, v in state.items()}
        # Rows of the input tables: every word, style and character id fed in must be below these.
        self.n_words, n_casing, self.n_chars = (len(w[f"{t}_emb.weight"]) for t in ("word", "casing", "char"))
        self.char_hidden = ch = w["char_fwd.weight_hh_l0"].shape[1]
        self.hidden = w["lstm_fwd.weight_hh_l0"].shape[1]
        word_dim = w["word_emb.weight"].shape[1]
        casing_dim = w["casing_emb.weight"].shape[1]
        char_scale = _gate_scale(ch)[:, None]
        word_scale = _gate_scale(self.hidden)[:, None]
        dirs = ("fwd", "bwd")
        # Character LSTMs: every character id's input projection, biases included; forward rows, then backward.
        self._n_chars = w["char_emb.weight"].shape[0]
        self._char_in = np.concatenate([
            (w["char_emb.weight"] @ w[f"char_{d}.weight_ih_l0"].T + w[f"char_{d}.bias_ih_l0"] + w[f"char_{d}.bias_hh_l0"])
            * char_scale[:, 0]
            for d in dirs
        ])  # (2 n_chars, 4ch)  # fmt: skip
        self._char_hh = np.stack([w[f"char_{d}.weight_hh_l0"] * char_scale for d in dirs])  # (2, 4ch, ch)
        # Word LSTMs: x = [word (word_dim) | char fwd, char bwd (2ch) | casing | spaces], split by column block;
        # the tables are (2, rows, 4H) so a lookup gathers whole rows.
        c0, c1, c2 = word_dim, word_dim + 2 * ch, word_dim + 2 * ch + casing_dim
        c3 = c2 + w["space_emb.weight"].shape[1]
        # Whatever the input has beyond spacing is the lexicon class's bits (BiLstmCrf.lexicon_table).
        bits = w["lstm_fwd.weight_ih_l0"].shape[1] - c3
        self.n_styles = n_casing << bits
        w_ih = [w[f"lstm_{d}.weight_ih_l0"] * word_scale for d in dirs]
        bias = [(w[f"lstm_{d}.bias_ih_l0"] + w[f"lstm_{d}.bias_hh_l0"]) * word_scale[:, 0] for d in dirs]
        # The word block's rows are made per batch for the words in it (emissions), not for the whole
        # vocabulary here: a (2, vocabulary, 4H) table costs 86 MB and a fifth of a second at start-up.
        self._word_emb = w["word_emb.weight"]  # (vocabulary, word_dim)
        self._word_w = np.stack([np.ascontiguousarray(w_ih[k][:, :c0].T) for k in range(2)])  # (2, word_dim, 4H)
        self._word_bias = np.stack(bias)[:, None, :]  # (2, 1, 4H)
        self._char_w = np.stack([np.ascontiguousarray(w_ih[k][:, c0:c1].T) for k in range(2)])  # (2, 2ch, 4H)
        casing_tab = np.stack([w["casing_emb.weight"] @ w_ih[k][:, c1:c2].T for k in range(2)])
        space_tab = np.stack([w["space_emb.weight"] @ w_ih[k][:, c2:c3].T for k in range(2)])
        if bits:
            # Style id = casing + n_casing * lexicon class: one row per id, casing row plus bits row.
            lex_bits = ((np.arange(1 << bits)[:, None] >> np.arange(bits)) & 1).astype(_F32)
            lex_tab = np.stack([lex_bits @ w_ih[k][:, c3:].T for k in range(2)])
            ids = np.arange(self.n_styles)
            casing_tab = casing_tab[:, ids % n_casing] + lex_tab[:, ids // n_casing]
        # Casing and spacing together: row casing * 3 + spacing.
        self._style_tab = (casing_tab[:, :, None, :] + space_tab[:, None, :, :]).reshape(2, -1, 4 * self.hidden)
        self._word_hh = np.stack([w[f"lstm_{d}.weight_hh_l0"] * word_scale for d in dirs])  # (2, 4H, H)
        out_w = w["out.weight"]  # (K, 2H)
        self._out_fwd = np.ascontiguousarray(out_w[:, : self.hidden])
        self._out_bwd = np.ascontiguousarray(out_w[:, self.hidden :])
        self._out_bias = w["out.bias"]
        self.viterbi = Viterbi(
            w["crf.transitions"] + w["crf.penalty"], w["crf.start"] + w["crf.start_penalty"], w["crf.end"], allowed
        )

    def char_representations(self, batch: EncodedBatch) -> np.ndarray:
        """(d, 2ch): the character BiLSTM's final states for each distinct spelling of the batch."""
        d = batch.n_distinct
        ch = self.char_hidden
        char_repr = np.zeros((d, 2 * ch), dtype=_F32)
        if d:
            order = np.argsort(-batch.char_lengths, kind="stable")
            lengths = batch.char_lengths[order]
            steps = int(lengths[0])
            fwd = batch.chars[order, :steps]
            bwd = np.take_along_axis(fwd, _reverse_index(lengths, steps), axis=1)
            index = np.stack([fwd.T, bwd.T + self._n_chars], axis=1)  # (C, 2, d) rows of the char table
            # Each direction's final state sits at the word's last character (forward) or first (backward):
            # both are the state after the row's last step.
            last = _lstm_steps(self._char_in, index, self._char_hh, _active_counts(lengths, steps))
            char_repr[order] = last.reshape(2 * ch, d).T
        return char_repr

    def emissions(
        self, batch: EncodedBatch, char_repr: np.ndarray, distinct: np.ndarray, spaces: np.ndarray, lengths: np.ndarray
    ) -> np.ndarray:
        """Tag scores (T, N, K) for N windows sorted longest first.

        ``distinct`` and ``spaces`` (N, T) give each window position's spelling index in ``batch`` and its
        spacing class (anything where t >= length: padding is never read back).
        """
        n, steps = distinct.shape
        # A position's LSTM input depends on its (spelling, spacing) pair only: one table row per pair.
        pairs, inverse = np.unique(distinct * 3 + spaces, return_inverse=True)
        inverse = inverse.reshape(n, steps)
        spelling, space = pairs // 3, pairs % 3
        table = np.matmul(self._word_emb[batch.words[spelling]], self._word_w)  # (2, pairs, 4H)
        table += self._word_bias
        table += char_repr[spelling] @ self._char_w
        table += self._style_tab[:, batch.casing[spelling] * 3 + space]
        table = table.reshape(2 * len(pairs), -1)  # forward rows, then backward rows
        rev = _reverse_index(lengths, steps)
        index = np.stack([inverse.T, np.take_along_axis(inverse, rev, axis=1).T + len(pairs)], axis=1)  # (T, 2, N)
        states = _lstm_steps(table, index, self._word_hh, _active_counts(lengths, steps), rev.T)  # (2, T, N, H)
        # Each direction's output layer is a single (T*N, H) x (H, K) product.
        scores = (states[0].reshape(steps * n, -1) @ self._out_fwd.T).reshape(steps, n, -1)
        scores += (states[1].reshape(steps * n, -1) @ self._out_bwd.T).reshape(steps, n, -1)
        scores += self._out_bias
        return scores


class Viterbi:
    """Batched Viterbi decoding with the result of ``CRF.decode``: the same float32 sums, ties going to
    the lowest tag index, but without scoring every (previous tag, tag) pair at every step.

    Two facts keep the work small; both are checked at every step, and a row where a check fails gets the
    full step:

    - Tags that may follow any tag (O, B-X) take as predecessor the best-scoring previous tag ``a``
      unless another previous tag ``i`` scores within ``lead[a, i]`` of it, the most that i's
      transitions can gain on a's. Nearly always none does, and a's row of transitions gives the step.
    - A tag with few allowed predecessors (I-X: B-X and I-X) is scored over those only: the others carry
      a -10,000 penalty, and an upper bound on them shows they cannot win.

    Tags are kept in an internal order (the first kind first) and mapped back at the end.
    """

    def __init__(self, trans: np.ndarray, start: np.ndarray, end: np.ndarray, allowed: np.ndarray) -> None:
        self.trans = np.asarray(trans, dtype=_F32)  # (K, K) from i to j, penalties included
        k = len(self.trans)
        free = allowed.all(axis=0)
        dense, sparse = np.flatnonzero(free), np.flatnonzero(~free)
        self._kd = len(dense)
        self._order = np.concatenate([dense, sparse])  # internal position -> tag
        self._position = np.argsort(self._order)  # tag -> internal position
        order = self._order
        self._start = np.asarray(start, dtype=_F32)[order]
        self._end = np.asarray(end, dtype=_F32)[order]
        trans_int = self.trans[order][:, order]
        self._full_t = np.ascontiguousarray(self.trans[:, order].T)  # (to, internal order; from, tag order)
        self._dense_rows = np.ascontiguousarray(trans_int[:, : self._kd])  # (K from, Kd to)
        # lead[a, i]: how much more than a's transitions i's give to some dense tag, plus a margin of 1
        # (far above float32 rounding at these magnitudes); -inf on the diagonal, a never trails itself.
        d = self._dense_rows.astype(np.float64)
        lead = (d[None, :, :] - d[:, None, :]).max(axis=2) + 1.0 if self._kd else np.zeros((k, k))
        np.fill_diagonal(lead, -np.inf)
        self._lead = lead.astype(_F32)
        width = max((int(allowed[:, j].sum()) for j in sparse), default=1)
        preds = np.zeros((len(sparse), width), dtype=np.int64)
        for r, j in enumerate(sparse):
            ok = np.flatnonzero(allowed[:, j])  # ascending: ties go to the lowest tag index, as in torch
            preds[r] = np.concatenate([ok, np.full(width - len(ok), ok[0] if len(ok) else 0)])
        self._sparse_t = self.trans[preds.T, sparse[None, :]]  # (P, Ks)
        self._preds = self._position[preds.T]  # (P, Ks) internal positions, in ascending tag order
        forbidden = np.where(allowed[:, sparse], -np.inf, self.trans[:, sparse]).astype(_F32)
        self._forbidden_max = forbidden.max(axis=0) if k else np.zeros(0, dtype=_F32)
        self._identity = np.arange(k, dtype=np.uint8 if k <= 256 else np.int64)
        self.full_steps = 0  # rows that needed the full step (for tests and benchmarks)

    def _full_step(self, s_int: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """All (previous tag, tag) pairs; previous tags in tag order, so argmax ties resolve as in torch."""
        s = s_int[:, self._position]
        cand = s[:, None, :] + self._full_t[None]  # (u, to (internal order), from (tag order))
        arg = cand.argmax(axis=2)
        best = np.take_along_axis(cand, arg[:, :, None], axis=2)[:, :, 0]
        return best, self._position[arg]

    def decode(self, emissions: np.ndarray, lengths: np.ndarray) -> np.ndarray:
        """Best tag paths (N, T) for emissions (T, N, K) of rows sorted longest first; lengths >= 1."""
        steps, n, k = emissions.shape
        kd = self._kd
        em = emissions[:, :, self._order]
        score = self._start + em[0]
        history = np.empty((max(steps - 1, 0), n, k), dtype=self._identity.dtype)
        active = _active_counts(lengths, steps)
        rows = np.arange(n)
        nxt_buf = np.empty((n, k), dtype=_F32)
        idx_buf = np.empty((n, k), dtype=np.int64)
        n_preds = len(self._preds)
        for t in range(1, steps):
            m = int(active[t])
            hist = history[t - 1]
            if m < n:
                hist[m:] = self._identity  # finished rows point back to themselves, as in CRF.decode
            if m == 0:
                continue
            s = score[:m]
            nxt, idx = nxt_buf[:m], idx_buf[:m]
            best_prev = s.argmax(axis=1)
            top = s[rows[:m], best_prev]
            # Rows where some other previous tag is close enough to matter: the full step.
            unsure = ((s + self._lead[best_prev]) >= top[:, None]).any(axis=1)
            if kd:
                np.add(top[:, None], self._dense_rows[best_prev], out=nxt[:, :kd])
                idx[:, :kd] = best_prev[:, None]
            if kd < k:
                best, pick = nxt[:, kd:], idx[:, kd:]
                np.add(s[:, self._preds[0]], self._sparse_t[0], out=best)
                pick[:] = self._preds[0]
                for p in range(1, n_preds):
                    cand = s[:, self._preds[p]] + self._sparse_t[p]
                    np.copyto(pick, self._preds[p], where=cand > best)  # strictly: a tie keeps the lower tag
                    np.maximum(best, cand, out=best)
                unsure |= (best <= top[:, None] + self._forbidden_max).any(axis=1)
            if unsure.any():
                redo = np.flatnonzero(unsure)
                self.full_steps += len(redo)
                nxt[redo], idx[redo] = self._full_step(s[redo])
            nxt += em[t, :m]
            score[:m] = nxt
            hist[:m] = idx
        final = (score + self._end)[:, self._position]  # tag order, for torch's tie-breaking
        cur = self._position[final.argmax(axis=1)]
        paths = np.empty((n, steps), dtype=np.int64)
        if steps:
            paths[:, steps - 1] = cur
        for t in range(steps - 2, -1, -1):
            cur = history[t][rows, cur]
            paths[:, t] = cur
        return self._order[paths]
