"""A linear-chain CRF over per-token scores, with BIO constraints enforced in training and decoding."""

from __future__ import annotations

import torch
from torch import nn

_FORBIDDEN = -10_000.0


class CRF(nn.Module):
    def __init__(self, n_tags: int, allowed: torch.Tensor, allowed_start: torch.Tensor) -> None:
        """``allowed[i, j]`` says tag j may follow tag i; ``allowed_start[j]`` says a sequence may start with j."""
        super().__init__()
        self.n_tags = n_tags
        self.transitions = nn.Parameter(torch.zeros(n_tags, n_tags))
        self.start = nn.Parameter(torch.zeros(n_tags))
        self.end = nn.Parameter(torch.zeros(n_tags))
        self.register_buffer("penalty", (~allowed).float() * _FORBIDDEN)
        self.register_buffer("start_penalty", (~allowed_start).float() * _FORBIDDEN)

    def _trans(self) -> torch.Tensor:
        return self.transitions + self.penalty

    def _start(self) -> torch.Tensor:
        return self.start + self.start_penalty

    def neg_log_likelihood(self, emissions: torch.Tensor, tags: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """Mean over the batch. emissions (B, T, K), tags (B, T), mask (B, T) bool with mask[:, 0] all true."""
        return (self._log_partition(emissions, mask) - self._score(emissions, tags, mask)).mean()

    def _score(self, emissions: torch.Tensor, tags: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        b, t, _ = emissions.shape
        trans = self._trans()
        maskf = mask.float()
        score = self._start()[tags[:, 0]] + emissions[:, 0].gather(1, tags[:, :1]).squeeze(1)
        if t > 1:
            emit = emissions[:, 1:].gather(2, tags[:, 1:].unsqueeze(2)).squeeze(2)
            step = trans[tags[:, :-1], tags[:, 1:]]
            score = score + ((emit + step) * maskf[:, 1:]).sum(1)
        lengths = mask.long().sum(1)
        last = tags.gather(1, (lengths - 1).unsqueeze(1)).squeeze(1)
        return score + self.end[last]

    def _log_partition(self, emissions: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        # The forward algorithm in the probability domain, rescaled at every step: one (B,K)x(K,K)
        # matmul per position instead of a logsumexp over (B,K,K), which dominated training time.
        trans = self._trans()
        shift = trans.max().detach()
        trans_exp = torch.exp(trans - shift)
        # unbind once: indexing emissions[:, i] in the loop makes every backward step zero-fill a
        # gradient the size of the whole emissions tensor.
        steps = emissions.unbind(1)
        keep = mask.unsqueeze(2).unbind(1)
        alpha = self._start() + steps[0]
        for i in range(1, len(steps)):
            top = alpha.max(dim=1, keepdim=True).values.detach()
            summed = torch.exp(alpha - top) @ trans_exp
            nxt = torch.log(summed.clamp_min(1e-30)) + top + shift + steps[i]
            alpha = torch.where(keep[i], nxt, alpha)
        return torch.logsumexp(alpha + self.end, dim=1)

    @torch.no_grad()
    def decode(self, emissions: torch.Tensor, mask: torch.Tensor) -> list[list[int]]:
        b, t, k = emissions.shape
        trans = self._trans()
        score = self._start() + emissions[:, 0]
        history = []
        for i in range(1, t):
            best, idx = (score.unsqueeze(2) + trans.unsqueeze(0)).max(dim=1)
            nxt = best + emissions[:, i]
            m = mask[:, i].unsqueeze(1)
            score = torch.where(m, nxt, score)
            # Where masked, point back to the same tag so backtracking passes through unchanged.
            same = torch.arange(k, device=emissions.device).expand(b, k)
            history.append(torch.where(m, idx, same))
        score = score + self.end
        best_last = score.argmax(1)
        lengths = mask.long().sum(1).tolist()
        paths = torch.empty(b, t, dtype=torch.long, device=emissions.device)
        paths[:, t - 1] = best_last
        cur = best_last
        for i in range(t - 2, -1, -1):
            cur = history[i].gather(1, cur.unsqueeze(1)).squeeze(1)
            paths[:, i] = cur
        rows = paths.tolist()
        return [row[:n] for row, n in zip(rows, lengths, strict=True)]
