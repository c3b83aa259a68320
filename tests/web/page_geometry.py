"""What a page test measures on screen: how much of the focused element is hidden, the tab order, sideways scrolling.

Shared by the ``test_pages_*`` modules (Chromium, WCAG 2.4.11, 2.4.3, 1.4.10).
"""

from __future__ import annotations

from typing import Any

# The phone's large-text setting as Chromium takes it: a default font size of 32 px instead of 16 (200%).
LARGE_TEXT = {"fontSizes": {"standard": 32, "fixed": 26}}
PHONES = ((360, 640), (390, 844))

# The focused element's box, sampled on a 9 x 21 grid: a point is seen when the element (or an element
# holding it, or for a piece of the board drawing, which takes no pointer events, the drawing) is what the
# screen shows there, inside every box that clips it. "covered" names what hides a point that is on screen.
SEEN = """(node) => {
  const r = node.getBoundingClientRect();
  let clip = {l: 0, t: 0, r: innerWidth, b: innerHeight};
  let boxW = Infinity, boxH = Infinity;  // the smallest box that clips it (the board's scroll window), wherever it is
  for (let a = node.parentElement; a && a !== document.body; a = a.parentElement) {
    const s = getComputedStyle(a);
    if (!/(auto|scroll|hidden|clip)/.test(s.overflowX + " " + s.overflowY)) continue;
    const q = a.getBoundingClientRect();
    boxW = Math.min(boxW, a.clientWidth || q.width); boxH = Math.min(boxH, a.clientHeight || q.height);
    clip = {l: Math.max(clip.l, q.left), t: Math.max(clip.t, q.top), r: Math.min(clip.r, q.right), b: Math.min(clip.b, q.bottom)};
  }
  // A place highlighted on the board takes no pointer events: the drawing under it answers for it.
  const svg = node instanceof SVGElement ? node.ownerSVGElement : null;
  const cols = 9, rows = 21;
  let seen = 0, seenRows = 0;
  const covered = new Set();
  for (let j = 0; j < rows; j++) {
    const y = r.top + (j + 0.5) * r.height / rows;
    let rowSeen = false;
    for (let i = 0; i < cols; i++) {
      const x = r.left + (i + 0.5) * r.width / cols;
      if (x < clip.l || x > clip.r || y < clip.t || y > clip.b) continue;
      const hit = document.elementFromPoint(x, y);
      if (hit && (node.contains(hit) || hit.contains(node) || (svg && svg.contains(hit)))) { seen++; rowSeen = true; }
      else if (hit) covered.add(hit.id ? "#" + hit.id : hit.tagName.toLowerCase() + "." + String(hit.className.baseVal ?? hit.className).split(" ")[0]);
    }
    if (rowSeen) seenRows++;
  }
  const name = node.getAttribute("aria-label") || node.textContent.trim().slice(0, 40) || node.id || node.tagName;
  return {name, id: node.id, height: Math.round(r.height), fraction: seen / (cols * rows),
          width: Math.round(r.width), boxW: Math.min(boxW, innerWidth), boxH: Math.min(boxH, innerHeight),
          hiddenPx: Math.round(r.height * (1 - seenRows / rows)), covered: Array.from(covered)};
}"""

# The room the page leaves for focus between its sticky header and its fixed dock (none on a wide screen).
FREE = """() => {
  const head = document.querySelector('.seat-head'), dock = document.getElementById('dock');
  const top = head && getComputedStyle(head).position === 'sticky' ? Math.max(0, head.getBoundingClientRect().bottom) : 0;
  const bottom = dock && getComputedStyle(dock).position === 'fixed' ? dock.getBoundingClientRect().top : innerHeight;
  return Math.round(bottom - top);
}"""


# Inside the dock: its height less its sticky title and action bar (unless the focus is on one of those).
DOCK_FREE = """(n) => {
  const dock = document.getElementById('dock');
  if (n.closest('.dock-handle, .dock-actions')) return innerHeight;
  const part = (selector) => { const found = dock.querySelector(selector); return found ? found.offsetHeight : 0; };
  return dock.clientHeight - part('.dock-handle') - part('.dock-actions');
}"""
# One look at the focused element: what SEEN says, and the room it has.
LOOK = "() => { const n = document.activeElement; if (!n || n === document.body) return null;" \
       " const seen = (" + SEEN + ")(n); seen.free = n.closest('#dock') ? (" + DOCK_FREE + ")(n) : (" + FREE + ")();" \
       " return seen; }"


def hidden_focus(page: Any, presses: int) -> tuple[list[str], int]:
    """Press Tab ``presses`` times from the top of the page; every focused element that is hidden more than
    it must be (all of it seen when it fits between the header and the dock; else as much as fits), and the
    most pixels of a focused element hidden."""
    page.evaluate("document.activeElement && document.activeElement.blur(); scrollTo(0, 0)")
    bad, worst = [], 0
    for _ in range(presses):
        page.keyboard.press("Tab")
        seen = page.evaluate(LOOK)
        if seen is None:
            continue
        free = seen["free"]
        # All of it when it fits; else as much as fits (a room larger than the board's scroll window: that much).
        room_h = min(free, seen["boxH"]) - 8
        must = 1.0 if seen["height"] <= room_h else 0.9 * room_h / max(seen["height"], 1)
        must *= min(1.0, seen["boxW"] / max(seen["width"], 1))
        worst = max(worst, seen["hiddenPx"])
        if seen["fraction"] < must * 0.97:
            bad.append(f"{seen['name']!r}: {seen['fraction']:.0%} seen ({seen['hiddenPx']} of {seen['height']} px "
                       f"hidden, free {free} px) under {seen['covered']}")
    return bad, worst


def scroll_width(page: Any) -> tuple[int, int]:
    """The page's scrolling width and the window's width as the browser was given it (a phone's browser widens
    its layout to content that overflows, so ``innerWidth`` is no measure)."""
    found = page.evaluate("document.scrollingElement.scrollWidth")
    return int(found), int(page.viewport_size["width"])


def wider_than_window(page: Any) -> list[str]:
    """Visible elements reaching past the window's right edge (what makes a page scroll sideways)."""
    found: list[str] = page.evaluate("""(width) => Array.from(document.querySelectorAll('body *'))
      .filter((n) => n.getClientRects().length && n.getBoundingClientRect().right > width + 1)
      .filter((n) => !n.closest('.sr-only') && getComputedStyle(n).position !== 'fixed')
      .slice(0, 8).map((n) => (n.id ? '#' + n.id : n.tagName.toLowerCase() + '.' + n.className) + ' ' +
        Math.round(n.getBoundingClientRect().right))""", page.viewport_size["width"])
    return found
