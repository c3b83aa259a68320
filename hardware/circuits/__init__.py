"""The board and the handhelds as circuits in code (SKiDL): ERC, KiCad netlists, a costed BOM.

``python -m hardware.circuits build OUTDIR`` writes them; docs/circuit.md says
what the circuits contain and why. SKiDL is imported only when a circuit is
built (hardware.circuits.skidl_session), so importing this package is cheap
and writes nothing.
"""
