"""A covered corner marker: the board is still found from three, and the panel's advice says which is covered."""

from __future__ import annotations

import cv2
import numpy as np

from hardware.camera.layout import corner_names
from hardware.camera.overlay import advice, draw
from hardware.camera.read import Reading, read
from hardware.camera.scene import Renderer, Scene, Shot, random_scene
from hardware.camera.scene_parts import Conditions

PLAIN = Conditions(k1=(0.0, 0.0), light=(0.0, 0.0), blur=(0.0, 0.0), noise=(0.0, 0.0))


def test_three_corners_find_the_board_and_the_fourth_is_said_to_be_covered(renderers: dict[str, Renderer]) -> None:
    renderer = renderers["classic"]
    position = random_scene(renderer, np.random.default_rng(8), PLAIN)
    photo = renderer.render(Scene(position.placements, Shot(seed=2, tilt_deg=20, fill=0.55), position.points,
                                  position.turns))
    corner = renderer.plan.corners[1]
    assert corner.center_mm is not None
    x, y = photo.pose.to_image(np.array([[*corner.center_mm, 0.0]]))[0].astype(int)
    image = photo.image.copy()
    cv2.circle(image, (int(x), int(y)), 45, (120, 140, 190), -1)  # a thumb over the top-right sticker
    reading = read(image, renderer.layout)
    assert reading.board_found and reading.missing_corners == (1,)
    assert dict(reading.pieces) == dict(photo.truth)
    assert advice(reading, (image.shape[1], image.shape[0])) == ["The top right corner marker is covered: clear it."]
    assert advice(reading, (image.shape[1], image.shape[0]), corner_names(renderer.edition)) == [
        "The Conservatory corner marker is covered: clear it."]
    assert draw(image, reading).shape == image.shape


def test_a_corner_out_of_the_picture_asks_to_move_the_camera() -> None:
    reading = Reading(True, {}, (), outline=((10.0, 10.0), (2100.0, 20.0), (1800.0, 1000.0), (100.0, 1000.0)),
                      missing_corners=(1,))
    assert advice(reading, (1920, 1080)) == [
        "The top right corner is out of the picture: move the camera toward it, or raise it."]
    assert advice(Reading(False, {}, ("Knife",)), (1920, 1080))[0].startswith("The board is not in view")


def test_a_moved_piece_is_read_at_its_new_place(renderers: dict[str, Renderer]) -> None:
    from hardware.camera.scene import move

    renderer = renderers["master_detective"]
    rng = np.random.default_rng(3)
    scene = random_scene(renderer, rng, PLAIN)
    square = next(s for s in renderer.edition.require_board().squares if s not in scene.placements.values())
    moved = move(move(scene, renderer.plan, "Miss Peach", square, rng), renderer.plan, "Horseshoe", "Gazebo", rng)
    photo = renderer.render(moved)
    reading = read(photo.image, renderer.layout)
    assert reading.pieces["Miss Peach"] == square and reading.pieces["Horseshoe"] == "Gazebo"


def test_a_corner_sticker_stuck_a_quarter_turn_off_still_gives_the_board(renderers: dict[str, Renderer]) -> None:
    renderer = renderers["doctor_who"]
    position = random_scene(renderer, np.random.default_rng(4), PLAIN)
    shot = Shot(seed=2, tilt_deg=0, fill=0.58)
    photo = renderer.render(Scene(position.placements, shot, position.points, position.turns))
    image = photo.image.copy()
    for corner, angle in zip(renderer.plan.corners, (90, 180, -90, 90)):  # every sticker turned in place
        assert corner.center_mm is not None
        x, y = photo.pose.to_image(np.array([[*corner.center_mm, 0.0]]))[0]
        turned = cv2.warpAffine(photo.image, cv2.getRotationMatrix2D((float(x), float(y)), angle, 1.0),
                                (photo.image.shape[1], photo.image.shape[0]))
        half = 38  # the sticker, white edge included
        image[int(y) - half:int(y) + half, int(x) - half:int(x) + half] = \
            turned[int(y) - half:int(y) + half, int(x) - half:int(x) + half]
    reading = read(image, renderer.layout)
    assert reading.board_found and not reading.missing_corners
    assert dict(reading.pieces) == dict(photo.truth)
    width, height = renderer.plan.width_mm, renderer.plan.height_mm
    true = photo.pose.to_image(np.array([[0, 0, 0], [width, 0, 0], [width, height, 0], [0, height, 0]], float))
    # Within a few pixels (4 measured; the turned copies are resampled), where keeping the printed
    # order of the turned stickers' corners puts it 7 px off
    assert np.abs(np.array(reading.outline) - true).max() < 5.5
