"""The composition root: the ``clue-companion`` command and every sub-command.

Only this package wires the rules, the table, the hardware adapters and the web together."""
