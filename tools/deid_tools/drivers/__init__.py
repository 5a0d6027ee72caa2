"""Drivers for real ``deid worker`` processes on a real broker, shared by tests/integration and bench/."""
