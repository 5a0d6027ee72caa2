"""The de-identification library: detectors, merging, surrogates, rendering and evaluation.

Imports ``schemas`` only; never Kafka, faust or anything that does I/O at import time.
"""
