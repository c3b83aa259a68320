"""A game at a table: the session and its store, sensed tags and zones, the lobby, pairing and prompts.

No threads but the session's, no devices: hardware adapters and the web reach the table through the
session; the composition root (:mod:`companion.cli`) wires them together."""
