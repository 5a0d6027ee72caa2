"""Keep the long-lived detection data out of the garbage collector's full passes.

Why: the lexicons hold dicts and sets of about a million entries, and a full (generation 2) collection
traverses every entry of every container it tracks. Allocating per note (spans, tokens, header name
variants) triggers one every few batches, and each took ~300 ms on the 2-core CI machine: about 5 % of
the in-process pipeline's time, spent re-proving that the lexicons are still alive.

``gc.freeze()`` moves everything allocated so far into a permanent generation that collections skip;
objects allocated later are collected as usual. Call ``freeze_loaded`` once, after the detectors and
the tagger are built and before the first note, from the composition root (CLI, worker, HTTP service,
benches); the library never calls it on its own, since it changes process-wide state. Before a fork it
also keeps the children from touching (and so copying) the parent's pages, as the ``gc`` docs advise.
"""

from __future__ import annotations

import gc


def freeze_loaded() -> None:
    """Collect once, then exempt every surviving object from later collections."""
    gc.collect()
    gc.freeze()
