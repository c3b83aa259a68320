"""No page ever shows a program's leftovers: "[object …]", "undefined", "NaN", "null" or "{seat}" where words belong.

The walk test_page_texts.py (English) and test_page_texts_german.py (German) each take, in a file
of their own so two pytest processes share it: one real server (waitress on a loopback port) over
the mock table and one Debian Chromium walk a classic game through every state a bounded test
reaches: no game, a lobby, the game started (on start squares), a refusal shown, moving, in a
room, a suggestion pending, on a corridor square, the game over. In each state every page (/,
/seat through a join URL, /host logged out and in, /host/editor, /sim, the error pages) is read
in the file's language, first as it opens, then with every <details>, fold and tab opened: the
page's visible text (``document.body.innerText``), its title, and every aria-label, title, alt
and placeholder attribute (SVG titles too).
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from pages import wait_until

from companion.cli.mock_table import MockTable
from companion.rules.actions import Accuse, EndTurn, Move, Roll, Show, Suggest
from companion.table.commands import Play
from companion.table.store import Store
from web import create_app
from web.serve import WebServer

SCARLET, MUSTARD, WHITE = SEATS = ("Miss Scarlet", "Colonel Mustard", "Mrs. White")
PIN = "246813"
# Phones: every seat in English, the first two in German (the English walk has the seat's forms too).
PHONES = {"en-US": (SCARLET, MUSTARD, WHITE), "de-DE": (SCARLET, MUSTARD), "es-ES": (SCARLET, MUSTARD)}
SQUARE = re.compile(r"^[a-z]{1,2}[0-9]{1,2}$")
# Case matters for the words: "Null" is a German noun, "undefined" and "null" are JavaScript's. A placeholder
# left in braces ("{seat:The}") is a sentence its script could not fill.
LEFTOVERS = re.compile(r"\[object|\bundefined\b|\bNaN\b|\bnull\b|\{\w+(?::[^{}]*)?\}")

# Everything a reader meets on the page: its visible text, its title, and the words in attributes
# (also of folded parts: a screen reader says them) and in SVG <title>s.
READ = """() => {
  const found = [["document.title", document.title], ["body.innerText", document.body.innerText]];
  for (const node of document.body.querySelectorAll("*")) {
    for (const name of ["aria-label", "aria-description", "aria-valuetext", "title", "alt", "placeholder"]) {
      const value = node.getAttribute(name);
      if (value !== null) found.push([node.tagName.toLowerCase() + (node.id ? "#" + node.id : "") + " @" + name, value]);
    }
    if (node.tagName.toLowerCase() === "title") found.push(["svg title", node.textContent]);
  }
  return found;
}"""

# Counted in every page before its own scripts run: fetches under way and views received, so a test
# knows when a page has drawn the newest view and fetched what it needed (the pages stream their views).
COUNT = """(() => {
  window.__pending = 0;
  window.__views = 0;
  // A fetch counts until its body is read and whatever the page chained on it has run (a timer
  // fires after every promise callback queued before it).
  const counted = (promise) => {
    window.__pending++;
    return promise.finally(() => setTimeout(() => { window.__pending--; }, 0));
  };
  const fetched = window.fetch;
  window.fetch = function (...args) { return counted(fetched.apply(this, args)); };
  for (const read of ["json", "text", "blob", "arrayBuffer"]) {
    const original = Response.prototype[read];
    Response.prototype[read] = function (...args) { return counted(original.apply(this, args)); };
  }
  const Source = window.EventSource;
  window.EventSource = class extends Source {
    constructor(...args) {
      super(...args);
      for (const kind of ["view", "delta"]) this.addEventListener(kind, () => { window.__views++; });
    }
  };
})();"""

NEXT_FRAME = "() => new Promise((done) => requestAnimationFrame(() => setTimeout(done, 20)))"

# Open every <details>, every fold (a button that says it is collapsed) and every tab; returns how many.
EXPAND = """() => {
  let opened = 0;
  for (const box of document.querySelectorAll("details:not([open])")) { box.open = true; opened++; }
  for (const button of document.querySelectorAll("[aria-expanded='false'], [role=tab][aria-selected='false']")) {
    if (button.offsetParent === null || button.disabled) continue;
    button.click();
    button.dataset.openedByTest = "1";
    opened++;
  }
  return opened;
}"""
# Fold again what EXPAND unfolded with a click (the phone keeps its folds across reloads).
FOLD = """() => {
  for (const button of document.querySelectorAll("[data-opened-by-test]")) {
    delete button.dataset.openedByTest;
    if (button.getAttribute("aria-expanded") === "true") button.click();
  }
}"""


@dataclass
class Reading:
    """What every page said so far, and the leftovers found in it (page, state, where, text)."""

    bad: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    pages: int = 0

    def check(self, page: Any, what: str, state: str, mode: str) -> str:
        """Read ``page`` as it is now; keep every leftover; return its visible text."""
        self.pages += 1
        text = ""
        for where, said in page.evaluate(READ):
            if where == "body.innerText":
                text = said
            for line in said.splitlines():
                if LEFTOVERS.search(line):
                    self.bad.append(f"{what} [{state}, {mode}] {where}: {line.strip()[:200]!r}")
        return text


def settle(page: Any, ready: str, timeout: float = 6.0) -> None:
    """Wait for the page's ready mark and its fetches, then until its text stops changing."""
    wait_until(page, f"({ready}) && !window.__pending", timeout)
    deadline = time.monotonic() + timeout
    before = page.evaluate("document.body.innerText")
    while True:  # and a frame later it still says the same (a late view, a timer)
        page.evaluate(NEXT_FRAME)
        now = page.evaluate(f"({ready}) && !window.__pending && document.body.innerText")
        if now == before or time.monotonic() > deadline:
            return
        before = now


def read_both_ways(reading: Reading, page: Any, what: str, state: str, ready: str) -> str:
    """Read the page as it is, then with everything unfolded (and fold it back)."""
    settle(page, ready)
    text = reading.check(page, what, state, "as opened")
    if page.evaluate(EXPAND):
        settle(page, ready)
        reading.check(page, what, state, "unfolded")
        page.evaluate(FOLD)
    return text


@dataclass
class Tab:
    """One open (live) page: how to tell it has drawn, its name in the report, the states it is read in."""

    page: Any
    ready: str
    name: str
    states: frozenset[str] | None = None  # the states it is read in (None: every state)

    def views(self) -> int:
        """How many views (whole or deltas) the page's streams have received."""
        return int(self.page.evaluate("window.__views"))

    def read(self, reading: Reading, state: str) -> str:
        return read_both_ways(reading, self.page, self.name, state, self.ready)


# The host's page shows the game's stage, the seats and the board, not each move: it is read where
# those change (the test stays within its minute).
HOST_STATES = frozenset({"no game", "a lobby, cards being scanned", "a lobby", "started, on start squares", "a mover out of place",
                         "a suggestion pending", "the game over"})

READY = {
    "table": "!!document.querySelector('#phase, main') && document.body.innerText.trim().length > 0",
    "host": "!!document.getElementById('host') && !!document.querySelector('#game-facts')"
            " && document.getElementById('game-facts').textContent.trim().length > 0",
    "sim": "!!document.querySelector('#status') && document.getElementById('status').children.length > 0",
    "seat": "!!document.querySelector('#dock .dock-title')",
    "plain": "document.readyState === 'complete'",
}


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[MockTable, str, Any]]:
    """The mock table (no game yet), the simulator on, behind a real server; a home of its own."""
    home = tmp_path_factory.mktemp("home")
    with pytest.MonkeyPatch.context() as patch:
        for name, sub in (("HOME", ""), ("XDG_DATA_HOME", "data"), ("XDG_CONFIG_HOME", "config")):
            patch.setenv(name, str(home / sub))
        patch.setenv("CLUE_COMPANION_DB", str(home / "games.db"))
        with Store(home / "games.db").open() as store, MockTable(store) as rig:
            app = create_app(rig.session, {"HOST_PIN": PIN, "RIG": rig, "SIM": True, "KEEPALIVE": 0.5})
            # Sixteen pages from one address, each browser context with its own keep-alive
            # connections, pass the server's cap for one phone (PER_ADDRESS): this test reads pages.
            with WebServer(app, "127.0.0.1", 0, per_address=256) as server:
                yield rig, f"http://127.0.0.1:{server.port}", app.extensions["clue"].pairing


def new_tab(browser: Any, url: str, reading: Reading, language: str, **context: Any) -> Any:
    """A page in a fresh context (its own cookies) whose errors are kept; the language set by ?lang=."""
    opened = browser.new_context(base_url=url, locale=language, **context)
    opened.add_init_script(COUNT)
    page = opened.new_page()
    page.on("pageerror", lambda err: reading.problems.append(f"page error on {page.url}: {err}"))
    # A page's ?lang= is kept in a cookie for every later page of this context (not the table's: it
    # follows the table unless its own address says otherwise).
    page.goto(f"/host?lang={language}")
    return page


def log_in(page: Any) -> None:
    page.goto("/host")
    page.fill("#pin", PIN)
    page.click("#login-button")
    page.wait_for_selector("#host")


def read_idle_only_pages(browser: Any, url: str, reading: Reading, language: str) -> None:
    """Pages that do not change with the game: the host's login, the editor, the error pages."""
    page = new_tab(browser, url, reading, language)
    for path, name in (("/host", "host login"), ("/seat", "seat not joined"), ("/j/not-a-token", "join refused"),
                       ("/nowhere", "error 404"), ("/host/login", "error 405"), ("/host/editor", "editor logged out")):
        page.goto(path)
        read_both_ways(reading, page, f"{name} ({language})", "no game", READY["plain"])
    page.fill("#pin", "111111")  # the editor logged out is the login page
    page.click("#login-button")
    wait_until(page, "!document.getElementById('login-error').classList.contains('hidden')")
    read_both_ways(reading, page, f"host login ({language})", "a wrong PIN", READY["plain"])
    log_in(page)
    page.goto("/host/editor")
    read_both_ways(reading, page, f"editor ({language})", "empty", "!!document.getElementById('open-button')")
    page.click("#open-button")  # the edition chosen in the list: classic
    wait_until(page, "document.querySelectorAll('#grid *').length > 50")
    read_both_ways(reading, page, f"editor ({language})", "an edition open", READY["plain"])
    page.click("#blank-button")
    read_both_ways(reading, page, f"editor ({language})", "a blank grid", READY["plain"])
    page.context.close()


def shared_tabs(browser: Any, url: str, reading: Reading, language: str) -> list[Tab]:
    """The table, the host and the simulator."""
    table = new_tab(browser, url, reading, language, viewport={"width": 1280, "height": 720})
    table.goto(f"/?lang={language}")
    host = new_tab(browser, url, reading, language, viewport={"width": 1024, "height": 768})
    log_in(host)
    # A context of its own: a second tab in the host's would be hidden, and a hidden page's
    # timers and animation frames are throttled to one a second.
    sim = new_tab(browser, url, reading, language, viewport={"width": 1280, "height": 800})
    log_in(sim)
    sim.goto("/sim")
    return [Tab(table, READY["table"], f"table ({language})"), Tab(host, READY["host"], f"host ({language})", HOST_STATES),
            Tab(sim, READY["sim"], f"sim ({language})")]


def phone_tabs(browser: Any, url: str, reading: Reading, pairing: Any, language: str) -> dict[str, Tab]:
    """Each phone joins through its seat's join URL, as a QR scan would."""
    phones = {}
    for seat in PHONES[language]:
        page = new_tab(browser, url, reading, language, viewport={"width": 390, "height": 844},
                       has_touch=True, is_mobile=True)
        page.goto(f"/j/{pairing.token(seat)}")
        page.wait_for_url("**/seat")
        phones[seat] = Tab(page, READY["seat"], f"seat {seat} ({language})")
    return phones


def read_all(reading: Reading, tabs: list[Tab], state: str) -> dict[str, str]:
    return {tab.name: tab.read(reading, state) for tab in tabs if tab.states is None or state in tab.states}


def play_ok(outcome: Any) -> None:
    assert outcome.ok, outcome.error


def play(rig: MockTable, seat: str, action: Any) -> None:
    play_ok(rig.session.call(Play(seat, action)))


def show_a_refusal(reading: Reading, tab: Tab) -> None:
    """A roll goes out as the companion's roll (the page's request changed on the way): refused in words."""
    page = tab.page
    page.route("**/api/seat/action", lambda route: route.continue_(post_data=json.dumps({"type": "roll"})))
    page.fill("#dock .die-input", "4")
    page.click("#dock button.primary")
    wait_until(page, "!!document.getElementById('toast') && document.getElementById('toast').classList.contains('show')")
    tab.read(reading, "a refusal shown")
    page.unroute("**/api/seat/action")


def read_the_host_dialogs(reading: Reading, tab: Tab, state: str) -> None:
    """The seat's big QR code, the confirmation before ending the game, the new-game form (all closed again)."""
    page = tab.page
    page.locator(".seat-card").first.locator(".qr-button").click()
    wait_until(page, "!!document.getElementById('qr-overlay-title') && document.getElementById('qr-overlay-title').textContent !== ''")
    tab.read(reading, f"{state}: a seat's QR code shown big")
    page.click("#qr-overlay-close")
    page.click("#end-game")
    page.wait_for_selector(".confirm-box")
    tab.read(reading, f"{state}: asked to confirm ending the game")
    page.click(".confirm-box .actions button:first-child")  # Cancel
    wait_until(page, "!document.querySelector('.confirm-box')")


def read_the_dock_forms(reading: Reading, tab: Tab, state: str) -> None:
    """The phone's suggestion and accusation forms, empty, filled and confirmed (then cancelled)."""
    page = tab.page
    for opener, form, pickers in (("Suggest", "the suggestion form", 2), ("Accuse…", "the accusation form", 3)):
        page.click(f"#dock button:text-is('{opener}')")
        wait_until(page, f"document.querySelectorAll('#dock fieldset.picker').length === {pickers}")
        tab.read(reading, f"{state}: {form}")
        for number in range(pickers):
            page.locator("#dock fieldset.picker").nth(number).locator(".pick").first.click()
        tab.read(reading, f"{state}: {form} filled")
        if opener == "Accuse…":
            page.click("#dock .dock-actions button:text-is('Accuse…')")
            tab.read(reading, f"{state}: asked to confirm the accusation")
            page.click("#dock button:text-is('Back')")
        page.click("#dock button:text-is('Cancel')")
        wait_until(page, "document.querySelectorAll('#dock fieldset.picker').length === 0")


def the_states(rig: MockTable) -> list[tuple[str, Callable[[], None]]]:
    """The game's states after the lobby, in order, each with what leads to it."""
    def into_the_lounge() -> None:
        play(rig, SCARLET, Move(SCARLET, "Lounge"))

    def answered_and_on_to_a_corridor() -> None:
        asked = rig.view(None)["suggestion"]["asked"]
        if asked is not None:
            play(rig, asked, Show(asked, rig.view(asked)["may_show"][0]))
        play(rig, SCARLET, EndTurn(SCARLET))
        play(rig, MUSTARD, Roll(MUSTARD, (1,)))
        corridor = sorted(p for p in rig.view(MUSTARD)["legal_destinations"] if SQUARE.match(p))
        play(rig, MUSTARD, Move(MUSTARD, corridor[0]))

    def over() -> None:
        state = rig.session.inspect(lambda table: table.state)
        play(rig, MUSTARD, Accuse(MUSTARD, *state.envelope.cards()))

    def out_of_place() -> None:
        rig.move(MUSTARD, "Hall")  # not his turn: the table asks for it back
        rig.wait_for(lambda view: bool(view["board"]["corrections"]))

    def rolled() -> None:
        rig.move(MUSTARD, "a18")  # his mover back on its square first (no reader there: False)
        rig.wait_for(lambda view: not view["board"]["corrections"])
        play(rig, SCARLET, Roll(SCARLET, (6,)))

    return [("a mover out of place", out_of_place),
            ("moving", rolled),
            ("in a room", into_the_lounge),
            ("a suggestion pending", lambda: play(rig, SCARLET, Suggest(SCARLET, "Professor Plum", "Rope"))),
            ("on a corridor square", answered_and_on_to_a_corridor),
            ("the game over", over)]


def after(tabs: list[Tab], change: Callable[[], Any]) -> None:
    """Make ``change`` on the table and wait until every (live) page has received the news."""
    seen = [tab.views() for tab in tabs]
    change()
    for tab, before in zip(tabs, seen):
        wait_until(tab.page, f"window.__views > {before}")


def walk(browser: Any, served: tuple[MockTable, str, Any], language: str) -> tuple[Reading, dict[str, str]]:
    """Every page in ``language`` in every state; what was read, and what each page said on the start squares."""
    rig, url, pairing = served
    started = time.monotonic()
    reading = Reading()
    read_idle_only_pages(browser, url, reading, language)
    shared = shared_tabs(browser, url, reading, language)
    read_all(reading, shared, "no game")

    # A lobby whose cards are dealt by hand: the host and the simulator count the cards scanned.
    after(shared, lambda: play_ok(rig.new_game("classic", SEATS, seed=7, deal="physical")))
    rig.tap("Rope", 1)
    read_all(reading, shared, "a lobby, cards being scanned")
    after(shared, lambda: play_ok(rig.new_game("classic", SEATS, seed=7, dice="physical")))
    phones = phone_tabs(browser, url, reading, pairing, language)
    tabs = shared + list(phones.values())
    read_all(reading, tabs, "a lobby")

    after(tabs, lambda: play_ok(rig.start()))
    said = read_all(reading, tabs, "started, on start squares")
    show_a_refusal(reading, phones[SCARLET])
    read_the_host_dialogs(reading, shared[1], "started")
    for state, lead_there in the_states(rig):
        after(tabs, lead_there)
        read_all(reading, tabs, state)
        if state == "in a room" and language == "en-US":
            read_the_dock_forms(reading, phones[SCARLET], state)
    for context in {id(tab.page.context): tab.page.context for tab in tabs}.values():
        context.close()
    print(f"{reading.pages} readings in {time.monotonic() - started:.1f} s")
    return reading, said


def assert_no_leftovers(reading: Reading) -> None:
    assert not reading.bad, f"{len(reading.bad)} leftovers on the pages:\n" + "\n".join(dict.fromkeys(reading.bad))
    assert reading.problems == []
