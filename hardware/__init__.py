"""Adapters to the physical devices, each with a real and a mock implementation.

The rules engine in :mod:`companion` never imports this package; only the
composition root (``companion.cli``) wires the two together.
"""
