// The simulator page (/sim, only with --mock): a clickable virtual board, the seats' card pads,
// the emulated handhelds (OLED frames and buttons) and the table's status.
// Every name goes into the page as text (Clue.el); nothing from the server goes into innerHTML.
"use strict";
(() => {
  const {el, replace, toast, post, getJSON, _} = Clue;
  const cardName = (identity) => Clue.cardName(state.view, identity);
  const $ = (id) => document.getElementById(id);

  const PHASES = {
    idle: _("No game"), setup: _("Setting up"), start: _("About to roll (or take a secret passage)"),
    moving: _("Moving"), moved: _("Moved: may suggest, accuse or end the turn"), refuting: _("Waiting for a card to be shown"),
    suggested: _("Suggestion settled: may accuse or end the turn"), out: _("Out: wrong accusation, ends the turn"),
    over: _("Game over"),
  };
  const LINKS = {up: _("Board connected"), down: _("Board disconnected — searching"), none: _("No board")};
  const BUTTONS = [
    {button: "up", label: "▲", name: _("Up"), key: "ArrowUp"},
    {button: "down", label: "▼", name: _("Down"), key: "ArrowDown"},
    {button: "ok", label: _("OK"), name: _("OK"), key: "Enter"},
    {button: "back", label: _("Back"), name: _("Back"), key: "Backspace"},
  ];

  const state = {
    view: null,
    sim: null,
    board: null,          // the ClueBoard drawn
    boardData: null,      // its /api/board JSON
    loadingEdition: null,
    selected: null,       // {kind, name}: the piece picked to move
    activeSeat: null,     // the handheld the keyboard drives
    padsKey: "",
    handheldsKey: "",
    piecesKey: "",
    simLoading: null,
    simAgain: false,
    suppressClick: false,
  };

  // ---- helpers ------------------------------------------------------------------------------

  function fail(err) {
    if (err && err.code === "host_login") { location.reload(); return; }
    toast(err.message, "error");
  }

  function disc(name) {
    const node = el("span", {class: "sim-disc", "aria-hidden": "true"});
    if (typeof ClueBoard !== "undefined" && ClueBoard.colourOf) {
      const colour = ClueBoard.colourOf(name);
      node.style.background = colour;
      node.style.color = ClueBoard.inkOn ? ClueBoard.inkOn(colour) : "#111";
      node.textContent = ClueBoard.initials ? ClueBoard.initials(name) : "";
    }
    return node;
  }

  // "h9" < "h10": squares in a natural order for the place list.
  const natural = new Intl.Collator(undefined, {numeric: true, sensitivity: "base"});

  // ---- the board ----------------------------------------------------------------------------

  function allPlaces() {
    return state.boardData ? Object.keys(state.boardData.places || {}) : [];
  }

  async function ensureBoard(view) {
    const edition = view.edition;
    const container = $("board");
    $("move-form").classList.toggle("hidden", !edition);
    $("select-bar").classList.toggle("hidden", !edition);
    if (!edition) {
      state.board = null;
      state.boardData = null;
      state.piecesKey = "";
      $("sim-edition").textContent = "";
      if (state.selected) select(null);
      replace(container, el("div", {class: "sim-board-msg"},
        el("p", {}, _("No game on the table.")),
        el("p", {}, el("a", {class: "button primary", href: "/host"}, _("Open one on the host page")))));
      return;
    }
    if ((state.board && state.board.edition === edition) || state.loadingEdition === edition) return;
    state.loadingEdition = edition;
    try {
      const data = await getJSON("/api/board?edition=" + encodeURIComponent(edition));
      state.boardData = data;
      state.board = ClueBoard.create(container, data, {onPick, onPiece});
      $("sim-edition").textContent = data.name || edition;
      fillPlaces();
    } catch (err) {
      replace(container, el("p", {class: "sim-board-msg"}, _("The board could not be drawn: {reason}", {reason: err.message})));
    } finally {
      state.loadingEdition = null;
    }
    drawBoard();
  }

  function drawBoard() {
    if (!state.board || !state.view) return;
    const view = state.view;
    const selected = state.selected;
    state.board.update(view, selected
      ? {highlight: allPlaces(), pickable: true}
      : {highlight: view.legal_destinations || [], pickable: false});
    for (const token of state.board.element.querySelectorAll(".cb-token")) {
      const kind = token.classList.contains("cb-mover") ? "mover" : "weapon";
      token.classList.toggle("sim-selected", Boolean(selected) && selected.kind === kind && token.getAttribute("data-name") === selected.name);
    }
    $("board").classList.toggle("picking", Boolean(selected));
  }

  function select(piece) {
    state.selected = piece;
    const text = $("select-text");
    if (piece) {
      text.textContent = _("Moving {piece}: click a square or a room (or drag the piece there).", {piece: cardName(piece.name)});
      $("move-piece").value = piece.name;
    } else {
      text.textContent = _("Click a mover or a weapon on the board to move it (or drag it).");
    }
    $("select-cancel").classList.toggle("hidden", !piece);
    $("select-bar").classList.toggle("active", Boolean(piece));
    drawBoard();
  }

  function onPiece(kind, name) {
    if (state.selected && state.selected.kind === kind && state.selected.name === name) select(null);
    else select({kind, name});
  }

  function onPick(place) {
    if (state.selected) movePiece(state.selected.name, place);
  }

  async function movePiece(piece, place) {
    try {
      const result = await post("/api/sim/move", {piece, place});
      toast(result && result.sensed === false ? result.message : `${cardName(piece)} → ${place}`);
      select(null);
      fetchSim();
    } catch (err) {
      fail(err);
    }
  }

  // Dragging a token: press on it, move past a few pixels, let go over a square or a room.
  function startDragging() {
    const container = $("board");
    let drag = null;
    const placeAt = (x, y) => {
      for (const node of document.elementsFromPoint(x, y)) {
        if (node.localName === "rect" && (node.classList.contains("hallway") || node.classList.contains("room"))) {
          const name = node.getAttribute("data-name");
          if (name) return name;
        }
      }
      return null;
    };
    const finish = () => {
      if (drag && drag.ghost) drag.ghost.remove();
      drag = null;
      container.classList.remove("dragging");
    };
    container.addEventListener("pointerdown", (event) => {
      if (event.button !== 0) return;
      const token = event.target.closest && event.target.closest(".cb-token");
      if (!token) return;
      drag = {
        x: event.clientX, y: event.clientY, id: event.pointerId, ghost: null,
        kind: token.classList.contains("cb-mover") ? "mover" : "weapon", name: token.getAttribute("data-name"),
      };
    });
    container.addEventListener("pointermove", (event) => {
      if (!drag || event.pointerId !== drag.id) return;
      if (!drag.ghost) {
        if (Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < 8) return;
        try { container.setPointerCapture(event.pointerId); } catch (err) { /* not capturable: fine */ }
        drag.ghost = el("div", {class: "sim-ghost", "aria-hidden": "true"}, drag.name);
        document.body.append(drag.ghost);
        container.classList.add("dragging");
        select({kind: drag.kind, name: drag.name});
      }
      drag.ghost.style.transform = `translate(${event.clientX + 14}px, ${event.clientY + 14}px)`;
      const place = placeAt(event.clientX, event.clientY);
      drag.ghost.classList.toggle("over", Boolean(place));
      drag.ghost.textContent = place ? `${cardName(drag.name)} → ${place}` : cardName(drag.name);
    });
    const end = (event) => {
      if (!drag || event.pointerId !== drag.id) return;
      const moved = Boolean(drag.ghost);
      const piece = drag.name;
      finish();
      if (!moved) return;
      state.suppressClick = true;  // the click that follows this drop is not a pick
      setTimeout(() => { state.suppressClick = false; }, 0);
      const place = event.type === "pointerup" ? placeAt(event.clientX, event.clientY) : null;
      if (place) movePiece(piece, place);
    };
    container.addEventListener("pointerup", end);
    container.addEventListener("pointercancel", end);
    container.addEventListener("click", (event) => {
      if (state.suppressClick) { event.stopPropagation(); event.preventDefault(); state.suppressClick = false; }
    }, true);
  }

  // The form under the board: the same move without aiming (phones, keyboards).
  function fillPieces(view) {
    const cards = view.edition_cards || {};
    const movers = view.position ? Object.keys(view.position) : (cards.suspects || []);
    const weapons = view.weapons ? Object.keys(view.weapons) : (cards.weapons || []);
    const key = JSON.stringify([movers, weapons]);
    if (key === state.piecesKey) return;
    state.piecesKey = key;
    const select = $("move-piece");
    const previous = select.value;
    replace(select,
      el("optgroup", {label: _("Movers")}, movers.map((name) => el("option", {value: name}, cardName(name)))),
      el("optgroup", {label: _("Weapons")}, weapons.map((name) => el("option", {value: name}, cardName(name)))));
    if ([...movers, ...weapons].includes(previous)) select.value = previous;
  }

  function fillPlaces() {
    const data = state.boardData;
    const rooms = data.rooms || [];
    const squares = Object.keys(data.squares || {}).sort(natural.compare);
    const known = new Set([...rooms, ...squares]);
    const others = Object.keys(data.places || {}).filter((p) => !known.has(p)).sort(natural.compare);
    replace($("move-place"),
      el("optgroup", {label: _("Rooms")}, rooms.map((name) => el("option", {value: name}, cardName(name)))),
      others.length ? el("optgroup", {label: _("Other places")}, others.map((name) => el("option", {value: name}, name))) : null,
      el("optgroup", {label: _("Squares")}, squares.map((name) => el("option", {value: name}, name))));
  }

  // ---- status -------------------------------------------------------------------------------

  function row(term, ...value) {
    return el("div", {class: "sim-row"}, el("span", {class: "sim-term"}, term), el("span", {class: "sim-value"}, ...value));
  }

  function dice(values) {
    return el("span", {class: "sim-dice"}, values.map((n) => el("span", {class: "sim-die", "aria-label": _("die {value}", {value: n})}, String(n))));
  }

  // A notice, a board correction or a difference: its template in the page's language when it has one
  // (card names in its arguments spelled the table's way), else its English text.
  function said(item) {
    return Clue.sentence(item, cardName);
  }

  function renderStatus(view) {
    const stage = view.stage || "idle";
    const rows = [];
    if (stage === "idle") {
      rows.push(el("p", {class: "sim-big"}, _("No game yet.")), el("p", {}, el("a", {href: "/host"}, _("Open one on the host page."))));
    } else if (stage === "setup") {
      rows.push(row(_("Stage"), _("Setting up")));
      const scanned = view.scanned || {};
      for (const seat of view.seats || []) rows.push(row(cardName(seat), scanned[seat] === 1 ? _("1 card scanned") : _("{count} cards scanned", {count: scanned[seat] || 0})));
      const problems = view.problems || [];
      if (problems.length) {
        rows.push(el("ul", {class: "sim-problems"}, problems.map((p) => el("li", {}, said(p)))));
      } else {
        rows.push(el("p", {class: "sim-good"}, _("Ready: start the game on the host page.")));
      }
    } else {
      if (view.turn) rows.push(row(_("Turn"), el("span", {class: "sim-who"}, disc(view.turn), cardName(view.turn))));
      rows.push(row(_("Phase"), PHASES[view.phase] || view.phase || "—"));
      if (Array.isArray(view.dice) && view.dice.length) {
        rows.push(row(_("Dice"), dice(view.dice), view.moves_left !== null && view.moves_left !== undefined ? el("span", {class: "sim-moves"}, _("{count} to move", {count: view.moves_left})) : null));
      }
      const s = view.suggestion;
      if (s) {
        rows.push(row(_("Suggests"), `${cardName(s.suggester)}: ${cardName(s.suspect)}, ${cardName(s.weapon)}, ${cardName(s.room)}`));
        if (s.asked) rows.push(row(_("Asking"), cardName(s.asked)));
      }
      if ((view.eliminated || []).length) rows.push(row(_("Out"), view.eliminated.map(cardName).join(", ")));
      if (stage === "over" || view.winner) {
        rows.push(row(_("Winner"), view.winner ? cardName(view.winner) : _("nobody")));
        const sol = view.solution;
        if (sol) rows.push(row(_("It was"), `${cardName(sol.suspect)}, ${cardName(sol.weapon)}, ${cardName(sol.room)}`));
      }
    }
    replace($("status"), rows);

    const notice = $("notice");
    const text = view.notice ? said(view.notice) : "";
    notice.textContent = text || "";
    notice.classList.toggle("hidden", !text);

    const board = view.board || {};
    const corrections = board.corrections || [];
    replace($("corrections-list"), corrections.map((line) => el("li", {}, said(line))));
    $("corrections").classList.toggle("hidden", corrections.length === 0);
    const differences = board.differences || [];
    replace($("differences"), differences.map((line) => el("li", {}, said(line))));
    $("differences-box").classList.toggle("hidden", differences.length === 0);

    const link = view.link || "none";
    replace($("link-status"), el("span", {class: "status-dot " + (link === "up" ? "up" : link === "down" ? "down" : "")}), el("span", {}, LINKS[link] || link));

    const log = (view.log || []).slice(-14).reverse();
    replace($("log"), log.map((line) => el("li", {class: /^--.*--$/.test(line) ? "sim-log-turn" : ""}, line)));
  }

  // ---- pads ---------------------------------------------------------------------------------

  function cardOptions(cards) {
    const groups = [[_("Suspects"), cards.suspects], [_("Weapons"), cards.weapons], [_("Rooms"), cards.rooms]];
    return groups.filter(([, list]) => list && list.length)
      .map(([label, list]) => el("optgroup", {label}, list.map((card) => el("option", {value: card}, cardName(card)))));
  }

  function renderPads() {
    const view = state.view || {};
    const sim = state.sim;
    const cards = view.edition_cards;
    const box = $("pads");
    if (!sim || !cards) {
      replace(box, el("p", {class: "muted"}, _("No game: no cards to tap.")));
      state.padsKey = "";
      return;
    }
    const pads = Object.entries(sim.pads || {}).sort((a, b) => a[1] - b[1]);
    const key = JSON.stringify([pads, cards]);
    if (key === state.padsKey) return;
    state.padsKey = key;
    const pad = (label, seat, number) => {
      const id = "pad-card-" + number;
      const picker = el("select", {id, "aria-label": _("Card to tap on {pad}", {pad: label})}, cardOptions(cards));
      return el("div", {class: "pad" + (number === 0 ? " centre" : "")},
        el("label", {for: id, class: "pad-name"}, number === 0 ? el("span", {class: "pad-num"}, "◎") : el("span", {class: "pad-num"}, String(number)), label),
        el("div", {class: "pad-row"},
          picker,
          el("button", {type: "button", class: "primary", title: _("Tap the card on this pad"), "aria-label": number === 0 ? _("Tap on the centre reader") : _("Tap on {seat}'s pad", {seat: label}),
            onclick: (event) => tap(event.currentTarget, picker.value, seat, label)}, _("Tap"))));
    };
    replace(box, pads.map(([seat, number]) => pad(cardName(seat), seat, number)), pad(_("Centre reader"), 0, 0));
  }

  async function tap(button, card, seat, label) {
    button.disabled = true;
    try {
      await post("/api/sim/tap", {card, seat});
      toast(_("{card} tapped on {pad}.", {card: cardName(card), pad: label}));
      fetchSim();
    } catch (err) {
      fail(err);
    } finally {
      button.disabled = false;
    }
  }

  // ---- handhelds ----------------------------------------------------------------------------

  function padNumber(seat) {
    return state.sim && state.sim.pads ? state.sim.pads[seat] : undefined;
  }

  function activeSeat() {
    const seats = (state.sim && state.sim.handhelds || []).map((h) => h.seat).filter((seat) => padNumber(seat) !== undefined);
    if (state.activeSeat && seats.includes(state.activeSeat)) return state.activeSeat;
    const turn = state.view && state.view.turn;
    return seats.includes(turn) ? turn : seats[0] || null;
  }

  function renderHandhelds() {
    const sim = state.sim;
    const box = $("handhelds");
    // Only the seated players' handhelds (after a game ends the rig may still list the old ones).
    const handhelds = ((sim && sim.handhelds) || []).filter((h) => padNumber(h.seat) !== undefined);
    if (!handhelds.length) {
      replace(box, el("p", {class: "muted"}, _("No handhelds: open a game first.")));
      state.handheldsKey = "";
      return;
    }
    const key = JSON.stringify(handhelds.map((h) => [h.seat, padNumber(h.seat)]));
    if (key !== state.handheldsKey) {
      state.handheldsKey = key;
      replace(box, handhelds.map((h) => {
        const number = padNumber(h.seat);
        return el("article", {class: "handheld", dataset: {seat: h.seat},
          onclick: () => { state.activeSeat = h.seat; markActive(); }},
          el("header", {},
            el("span", {class: "hh-key", title: _("Keyboard: {key}", {key: number})}, String(number)),
            disc(h.seat),
            el("h3", {class: "hh-name"}, cardName(h.seat))),
          el("div", {class: "oled"}, el("img", {class: "oled-img", width: "384", height: "192", alt: "", decoding: "async"})),
          el("div", {class: "hh-buttons"}, BUTTONS.map((b) => el("button", {
            type: "button", class: "hh-" + b.button, "aria-label": _("{button} on {seat}'s handheld", {button: b.name, seat: cardName(h.seat)}), title: b.name,
            onclick: (event) => press(h.seat, b.button, event.currentTarget),
          }, b.label))));
      }));
    }
    for (const h of handhelds) {
      const card = Array.from(box.querySelectorAll(".handheld")).find((node) => node.dataset.seat === h.seat);
      if (!card) continue;
      const img = card.querySelector("img");
      const src = `/sim/oled/${encodeURIComponent(padNumber(h.seat))}.png?v=${encodeURIComponent(h.frame)}`;
      if (img.getAttribute("src") !== src) img.setAttribute("src", src);
      img.alt = h.text || "";
      img.title = h.text || "";
    }
    markActive();
  }

  function markActive() {
    const seat = activeSeat();
    for (const node of $("handhelds").querySelectorAll(".handheld")) {
      const on = node.dataset.seat === seat;
      node.classList.toggle("active", on);
      node.classList.toggle("on-turn", Boolean(state.view) && node.dataset.seat === state.view.turn);
    }
  }

  async function press(seat, button, node) {
    state.activeSeat = seat;
    markActive();
    if (node) {
      node.classList.add("pressed");
      setTimeout(() => node.classList.remove("pressed"), 150);
    }
    try {
      await post("/api/sim/press", {seat, button});
      fetchSim();
      setTimeout(fetchSim, 300);  // the handheld may redraw a moment later
    } catch (err) {
      fail(err);
    }
  }

  // ---- data ---------------------------------------------------------------------------------

  async function fetchSim() {
    if (state.simLoading) { state.simAgain = true; return; }
    state.simLoading = true;
    try {
      state.sim = await getJSON("/api/sim");
      renderPads();
      renderHandhelds();
    } catch (err) {
      fail(err);
    } finally {
      state.simLoading = null;
      if (state.simAgain) { state.simAgain = false; fetchSim(); }
    }
  }

  function onView(view) {
    state.view = view;
    renderStatus(view);
    fillPieces(view);
    ensureBoard(view);
    drawBoard();
    fetchSim();
  }

  function onStatus(status) {
    const words = {live: _("Live"), reconnecting: _("Reconnecting…"), closed: _("Disconnected")};
    replace($("stream-status"), el("span", {class: "status-dot " + (status === "live" ? "up" : "down")}), el("span", {}, words[status] || status));
  }

  // ---- keyboard -----------------------------------------------------------------------------

  function onKey(event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.key === "Escape" && state.selected) { select(null); return; }
    const target = event.target;
    if (target && target.closest && target.closest("input, select, textarea")) return;
    // Enter on a focused button or board place is that control's own click.
    if (event.key === "Enter" && target && target.closest && target.closest("button, a, [role=button]")) return;
    if (/^[1-9]$/.test(event.key) && state.sim) {
      const number = Number(event.key);
      const found = Object.entries(state.sim.pads || {}).find(([, n]) => n === number);
      if (found) {
        state.activeSeat = found[0];
        markActive();
        event.preventDefault();
        // Picking a handheld by number hands the keys to it: a focused button would take Enter.
        if (document.activeElement && document.activeElement !== document.body && document.activeElement.blur) document.activeElement.blur();
      }
      return;
    }
    const button = BUTTONS.find((b) => b.key === event.key);
    const seat = activeSeat();
    if (!button || !seat) return;
    event.preventDefault();
    const card = Array.from($("handhelds").querySelectorAll(".handheld")).find((node) => node.dataset.seat === seat);
    press(seat, button.button, card ? card.querySelector(".hh-" + button.button) : null);
  }

  // ---- start --------------------------------------------------------------------------------

  $("select-cancel").addEventListener("click", () => select(null));
  $("move-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const piece = $("move-piece").value;
    const place = $("move-place").value;
    if (piece && place) movePiece(piece, place);
  });
  document.addEventListener("keydown", onKey);
  startDragging();
  select(null);
  Clue.stream("/events/table", onView, onStatus);
  fetchSim();
})();
