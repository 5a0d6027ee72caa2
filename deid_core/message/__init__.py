"""The whole-message path: codecs that load every field as a typed leaf, the policy, and the pipeline."""
