"""Tagger training: the seeded trainer (``train``) and the job that writes weights and a model card (``job``)."""
