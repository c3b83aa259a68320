"""The camera that reads the board from above: markers on the pieces, found in a photo (issue 29).

- :mod:`hardware.camera.layout`: where every marker is on the board (``camera markers --json``);
- :mod:`hardware.camera.markers`: the printable sheet (SVG, PDF);
- :mod:`hardware.camera.read`: a photo in, each piece's place out (the pose and height correction in
  :mod:`hardware.camera.pose`, an optional calibration in :mod:`hardware.camera.calibration`);
- :mod:`hardware.camera.overlay`: the board's outline and labels over a frame, advice on missing corners;
- :mod:`hardware.camera.scene`: synthetic photos of a board with known pieces, for tests and benchmarks.

Needs ``opencv-python-headless`` and numpy; the rest of the companion never imports this package at
module level.
"""
