// The board and edition editor (/host/editor): paint a map, name its rooms and cards, check, save.
// The document it edits is the editor API's (web/editor.py, docs/editions.md):
//   {id, name, base, players: {min, max}, cards: {suspects, weapons, rooms}, colours, labels,
//    map: {rows, hallway, void, rooms, starts, marks, passages, joins}}
// Every edit is a whole-document snapshot on the undo stack, so undo is exact and cheap at ≤ 40 × 40.
// Names go into the page as text only (Clue.el / textContent), never as markup.
"use strict";
(() => {
  const {el, replace, toast, busy, post, getJSON, _} = Clue;
  const $ = (id) => document.getElementById(id);
  const SVG = "http://www.w3.org/2000/svg";
  const API = "/api/host/editor";
  const CELL = 24;          // a square's side in the grid's SVG units
  const MAX_UNDO = 200;
  const CHECK_DELAY = 400;  // ms after the last edit before the map is checked
  const MAX_SIDE = 40;
  const DIGITS = "1234567890";
  const MARK_GLYPHS = {snoop: "◉", bonus: "★", question: "?"};
  // Each category: its key, title, the "add" button, an input's name ({number}) and a new card's name ({number}).
  const CATEGORIES = [
    ["suspects", _("Suspects"), _("Add a suspect"), _("suspect {number}"), _("New suspect {number}")],
    ["weapons", _("Weapons"), _("Add a weapon"), _("weapon {number}"), _("New weapon {number}")],
    ["rooms", _("Rooms"), _("Add a room"), _("room {number}"), _("New room {number}")],
  ];
  const SOURCES = {yours: _("yours"), correction: _("your correction")};
  const TERRAIN = ["hallway", "void", "room", "door", "start", "mark"];

  const state = {
    doc: null,
    editions: [],
    roomNames: {},       // an installed edition's rooms as its drawing names them in the page's locale
    tool: "hallway", mode: "brush", mark: null, room: null, suspect: null, roomCard: true,
    undo: [], redo: [],
    stroke: null,        // {before, from: [r, c], last: [r, c]} while a pointer paints
    pick: null,          // the first room picked for a passage or a join
    checkTimer: null, checkSeq: 0, problems: [], highlight: null,
    saved: null,         // the id last saved or opened from the list (export needs a saved edition)
    photo: null,         // {url, width, height, corners: [[x, y] × 4] in image px, placing, opacity}
    cells: [],           // the grid's rect and text nodes, [row][col] -> {rect, text, char}
    sideKey: "", cardsKey: "",
  };

  // ---- the document ----------------------------------------------------------------------------

  function normalise(doc) {
    const map = doc.map = doc.map || {};
    map.rows = Array.isArray(map.rows) && map.rows.length ? map.rows.map(String) : ["#"];
    map.hallway = map.hallway || ".";
    map.void = map.void || "#";
    for (const key of ["rooms", "starts", "marks", "spots"]) map[key] = map[key] || {};
    for (const key of ["passages", "joins"]) map[key] = Array.isArray(map[key]) ? map[key] : [];
    doc.cards = doc.cards || {};
    for (const [key] of CATEGORIES) doc.cards[key] = Array.isArray(doc.cards[key]) ? doc.cards[key] : [];
    doc.colours = doc.colours || {};
    doc.labels = doc.labels || {};
    doc.players = doc.players || {min: 3, max: 6};
    return doc;
  }

  const rows = () => state.doc.map.rows;
  const height = () => rows().length;
  const width = () => rows()[0].length;
  const hallChar = () => state.doc.map.hallway[0];
  const voidChar = () => state.doc.map.void[0];

  function at(r, c) { return rows()[r][c]; }
  function put(r, c, ch) {
    const line = rows()[r];
    if (line[c] === ch) return false;
    rows()[r] = line.slice(0, c) + ch + line.slice(c + 1);
    return true;
  }

  // What a map character is, by the legend: the mark legend first (its characters may be letters).
  function kindOf(ch) {
    const map = state.doc.map;
    if (map.hallway.includes(ch)) return "hallway";
    if (map.void.includes(ch)) return "void";
    if (Object.prototype.hasOwnProperty.call(map.marks, ch)) return "mark";
    if (Object.prototype.hasOwnProperty.call(map.spots, ch)) return "spot";
    if (/[0-9]/.test(ch)) return "start";
    if (/[A-Z]/.test(ch) && map.rooms[ch]) return "room";
    if (/[a-z]/.test(ch) && map.rooms[ch.toUpperCase()]) return "door";
    return "other";
  }
  // Squares a door opens onto: hallway squares, start squares and marked squares.
  const walkable = (ch) => ["hallway", "start", "mark", "spot"].includes(kindOf(ch));

  function squareName(r, c) {
    return Clue.squareName(r, c) || _("col {column} row {row}", {column: c + 1, row: r + 1});
  }

  // ---- undo and redo -------------------------------------------------------------------------

  const snapshot = () => JSON.stringify(state.doc);

  function remember(before) {
    state.undo.push(before);
    if (state.undo.length > MAX_UNDO) state.undo.shift();
    state.redo = [];
  }

  // One undoable edit: work() changes state.doc; nothing is remembered if it changed nothing.
  function change(work) {
    if (!state.doc) return;
    const before = snapshot();
    work(state.doc);
    if (snapshot() === before) return;
    remember(before);
    changed();
  }

  function restore(from, to) {
    if (!from.length) return;
    to.push(snapshot());
    state.doc = normalise(JSON.parse(from.pop()));
    state.pick = null;
    changed();
  }
  const undo = () => restore(state.undo, state.redo);
  const redo = () => restore(state.redo, state.undo);

  function changed() {
    tidy();
    render();
    scheduleCheck();
  }

  // The tools' choices follow the document: a room, mark or suspect that is gone is forgotten.
  function tidy() {
    const map = state.doc.map;
    if (state.room && !map.rooms[state.room]) state.room = null;
    if (!state.room) state.room = Object.keys(map.rooms)[0] || null;
    if (state.mark && !Object.prototype.hasOwnProperty.call(map.marks, state.mark)) state.mark = null;
    if (!state.mark) state.mark = Object.keys(map.marks)[0] || null;
    if (!state.doc.cards.suspects.includes(state.suspect)) state.suspect = state.doc.cards.suspects[0] || null;
  }

  // ---- painting ------------------------------------------------------------------------------

  // The character the current tool paints on square (r, c), or null when it cannot paint there.
  function paintChar(r, c) {
    const map = state.doc.map;
    switch (state.tool) {
      case "hallway": return hallChar();
      case "void": return voidChar();
      case "room": return state.room;
      case "door": {
        const here = at(r, c);
        const kind = kindOf(here);  // a room's square becomes a door of that room
        if (kind === "room" || kind === "door") return here.toLowerCase();
        return state.room ? state.room.toLowerCase() : null;
      }
      case "start": return startDigit(state.suspect);
      case "mark": return map.marks[state.mark] ? state.mark : null;
      default: return null;
    }
  }

  // The digit of a suspect's start square: the one it has, else the first free one.
  function startDigit(suspect) {
    if (!suspect) return null;
    const starts = state.doc.map.starts;
    const found = Object.keys(starts).find((digit) => starts[digit] === suspect);
    if (found) return found;
    return Array.from(DIGITS).find((digit) => !starts[digit]) || null;
  }

  function paint(r, c) {
    const ch = paintChar(r, c);
    if (ch === null) return false;
    if (state.tool === "start") {  // one square per start: the digit moves here
      const map = state.doc.map;
      map.rows = map.rows.map((line) => line.split(ch).join(hallChar()));
      map.starts[ch] = state.suspect;
    }
    return put(r, c, ch);
  }

  function paintBox(from, to) {
    const [r0, r1] = [Math.min(from[0], to[0]), Math.max(from[0], to[0])];
    const [c0, c1] = [Math.min(from[1], to[1]), Math.max(from[1], to[1])];
    for (let r = r0; r <= r1; r++) for (let c = c0; c <= c1; c++) paint(r, c);
  }

  // Flood fill: the squares joined to (r, c) by the same character.
  function fill(r, c) {
    const target = at(r, c);
    const ch = paintChar(r, c);
    if (ch === null || ch === target) return;
    const queue = [[r, c]];
    const seen = new Set([r * MAX_SIDE * 2 + c]);
    while (queue.length) {
      const [y, x] = queue.pop();
      put(y, x, ch);
      for (const [dy, dx] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
        const ny = y + dy, nx = x + dx, key = ny * MAX_SIDE * 2 + nx;
        if (ny < 0 || nx < 0 || ny >= height() || nx >= width() || seen.has(key) || at(ny, nx) !== target) continue;
        seen.add(key);
        queue.push([ny, nx]);
      }
    }
  }

  // The squares on the way from a to b, so a fast drag leaves no gaps.
  function line(a, b) {
    const steps = Math.max(Math.abs(b[0] - a[0]), Math.abs(b[1] - a[1]), 1);
    const cells = [];
    for (let i = 1; i <= steps; i++) {
      cells.push([Math.round(a[0] + (b[0] - a[0]) * i / steps), Math.round(a[1] + (b[1] - a[1]) * i / steps)]);
    }
    return cells;
  }

  function cellAt(event) {
    const svg = $("grid");
    const box = svg.getBoundingClientRect();
    const c = Math.floor((event.clientX - box.left) / box.width * width());
    const r = Math.floor((event.clientY - box.top) / box.height * height());
    return (r >= 0 && c >= 0 && r < height() && c < width()) ? [r, c] : null;
  }

  function onDown(event) {
    if (!state.doc || event.button > 0 || (state.photo && state.photo.placing)) return;
    const cell = cellAt(event);
    if (!cell) return;
    event.preventDefault();
    if (state.tool === "passage" || state.tool === "join") { pickRoom(cell); return; }
    if (TERRAIN.includes(state.tool) && paintChar(cell[0], cell[1]) === null) {
      toast(state.tool === "mark" ? _("The base edition has no special spaces.") :
        state.tool === "start" ? _("Add a suspect card first.") : _("Add a room first (Rooms, on the side)."), "error");
      return;
    }
    $("grid").setPointerCapture(event.pointerId);
    state.stroke = {before: snapshot(), from: cell, last: cell};
    if (state.mode === "fill" && state.tool !== "start") fill(cell[0], cell[1]);
    else paint(cell[0], cell[1]);
    renderGrid();
  }

  function onMove(event) {
    const cell = cellAt(event);
    showSquare(cell);
    const stroke = state.stroke;
    if (!stroke || !cell || (cell[0] === stroke.last[0] && cell[1] === stroke.last[1])) return;
    if (state.mode === "box" && state.tool !== "start") {  // a box previews from the stroke's start
      state.doc = normalise(JSON.parse(stroke.before));
      paintBox(stroke.from, cell);
    } else if (state.mode === "brush" || state.tool === "start") {
      for (const [r, c] of line(stroke.last, cell)) paint(r, c);
    }
    stroke.last = cell;
    renderGrid();
  }

  function onUp() {
    const stroke = state.stroke;
    if (!stroke) return;
    state.stroke = null;
    if (snapshot() !== stroke.before) { remember(stroke.before); changed(); }
  }

  // Passages and joins: tap one room, then another; the same pair again removes it.
  function pickRoom(cell) {
    const ch = at(cell[0], cell[1]);
    const kind = kindOf(ch);
    if (kind !== "room" && kind !== "door") { toast(_("Tap a room."), "error"); return; }
    const name = state.doc.map.rooms[ch.toUpperCase()];
    if (!state.pick || state.pick === name) {
      state.pick = state.pick === name ? null : name;
      renderOverlay();
      renderOptions();
      return;
    }
    const first = state.pick;
    state.pick = null;
    const key = state.tool === "passage" ? "passages" : "joins";
    change((doc) => {
      const list = doc.map[key];
      const index = list.findIndex((pair) => pair.includes(first) && pair.includes(name));
      if (index >= 0) list.splice(index, 1);
      else list.push([first, name]);
    });
    renderOptions();
  }

  // ---- the grid ------------------------------------------------------------------------------

  function svgEl(tag, attrs, text) {
    const node = document.createElementNS(SVG, tag);
    for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, String(value));
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function roomHue(letter) { return ((letter.toUpperCase().charCodeAt(0) - 65) * 47) % 360; }

  function cellLook(ch) {
    const kind = kindOf(ch);
    switch (kind) {
      case "room": return {fill: `hsl(${roomHue(ch)} 55% 80%)`, text: "", kind};
      case "door": return {fill: `hsl(${roomHue(ch)} 60% 62%)`, text: ch.toUpperCase(), kind};
      case "start": return {fill: "#f3e7c4", text: ch, kind};
      case "mark": return {fill: "#f3e7c4", text: MARK_GLYPHS[state.doc.map.marks[ch]] || ch, kind};
      case "hallway": return {fill: "#f3e7c4", text: "", kind};
      case "spot": return {fill: "#e9d08f", text: ch, kind};
      case "void": return {fill: "#2a2f3a", text: "", kind};
      default: return {fill: "#9b4dca", text: ch, kind};
    }
  }

  function buildGrid() {
    const svg = $("grid");
    const w = width(), h = height();
    svg.setAttribute("viewBox", `0 0 ${w * CELL} ${h * CELL}`);
    svg.dataset.width = w;
    svg.dataset.height = h;
    const cells = svgEl("g", {class: "cells"});
    state.cells = [];
    for (let r = 0; r < h; r++) {
      const row = [];
      for (let c = 0; c < w; c++) {
        const rect = svgEl("rect", {x: c * CELL, y: r * CELL, width: CELL, height: CELL});
        const text = svgEl("text", {x: (c + 0.5) * CELL, y: (r + 0.5) * CELL, class: "glyph"});
        cells.append(rect, text);
        row.push({rect, text, char: null});
      }
      state.cells.push(row);
    }
    svg.replaceChildren(cells, svgEl("g", {class: "doors"}), svgEl("g", {class: "links"}),
      svgEl("g", {class: "labels"}), svgEl("g", {class: "marks-hl"}));
    sizeStage();
  }

  function renderGrid() {
    if (state.cells.length !== height() || (state.cells[0] || []).length !== width()) buildGrid();
    for (let r = 0; r < height(); r++) {
      for (let c = 0; c < width(); c++) {
        const cell = state.cells[r][c];
        const ch = at(r, c);
        const look = cellLook(ch);
        const key = ch + look.fill + look.text;
        if (cell.char === key) continue;
        cell.char = key;
        cell.rect.setAttribute("fill", look.fill);
        cell.rect.setAttribute("class", "sq " + look.kind);
        cell.text.textContent = look.text;
      }
    }
    renderOverlay();
  }

  // A room's label as the page's locale writes it: the document's own names table for the locale, then for
  // its language's main country (companion/rules/spelling.py's order), then the installed edition's drawing
  // (GET /api/board's room_names, the table's house names first), else the room's name as it is.
  function shownName(name) {
    const tables = state.doc.names || {};
    const tag = Clue.i18n.locale, language = tag.split("-")[0];
    for (const wanted of [tag, language + "-" + language.toUpperCase()]) {
      if (tables[wanted] && tables[wanted][name]) return tables[wanted][name];
    }
    return state.roomNames[name] || name;
  }

  // The installed edition's room names as its board drawing writes them in this page's locale; none if the
  // drawing cannot be had (the names then stay as they are).
  async function drawnRoomNames(id) {
    try {
      const drawn = await getJSON("/api/board?edition=" + encodeURIComponent(id));
      return drawn.room_names || {};
    } catch (err) { return {}; }
  }

  // Door bars (on the sides a door opens, as the board drawing shows them), passages, joins, names.
  function renderOverlay() {
    const svg = $("grid");
    const [doors, links, labels, marks] = ["doors", "links", "labels", "marks-hl"].map((name) => svg.querySelector("g." + name));
    const bars = [];
    const places = new Map();  // room name -> [sum r, sum c, n, minR, maxR, minC, maxC]
    for (let r = 0; r < height(); r++) {
      for (let c = 0; c < width(); c++) {
        const ch = at(r, c);
        const kind = kindOf(ch);
        if (kind !== "room" && kind !== "door") continue;
        const name = state.doc.map.rooms[ch.toUpperCase()];
        const place = places.get(name) || [0, 0, 0];
        places.set(name, [place[0] + r, place[1] + c, place[2] + 1]);
        if (kind !== "door") continue;
        for (const [dr, dc] of [[-1, 0], [1, 0], [0, -1], [0, 1]]) {
          const nr = r + dr, nc = c + dc;
          if (nr < 0 || nc < 0 || nr >= height() || nc >= width() || !walkable(at(nr, nc))) continue;
          const x = (c + 0.5 + dc * 0.5) * CELL, y = (r + 0.5 + dr * 0.5) * CELL, half = CELL * 0.42;
          bars.push(svgEl("line", {class: "door-bar", "data-square": squareName(r, c),
            x1: dc ? x : x - half, x2: dc ? x : x + half, y1: dr ? y : y - half, y2: dr ? y : y + half}));
        }
      }
    }
    replace(doors, bars);
    const centre = (name) => {
      const place = places.get(name);
      return place ? [(place[1] / place[2] + 0.5) * CELL, (place[0] / place[2] + 0.5) * CELL] : null;
    };
    const lines = [];
    for (const [key, cls] of [["passages", "passage"], ["joins", "join"]]) {
      for (const [a, b] of state.doc.map[key]) {
        const [p, q] = [centre(a), centre(b)];
        if (p && q) lines.push(svgEl("line", {class: cls, x1: p[0], y1: p[1], x2: q[0], y2: q[1]}));
      }
    }
    replace(links, lines);
    replace(labels, Array.from(places.keys()).map((name) => {
      const [x, y] = centre(name);
      return svgEl("text", {class: "room-label" + (state.pick === name ? " picked" : ""), x, y}, shownName(name));
    }));
    const hl = [];
    if (state.highlight) {
      const [r, c] = state.highlight;
      hl.push(svgEl("rect", {class: "problem-hl", x: c * CELL - 2, y: r * CELL - 2, width: CELL + 4, height: CELL + 4}));
    }
    replace(marks, hl);
  }

  // The grid's size in CSS px: as wide as its box allows, at most about 70 % of the window's height.
  function sizeStage() {
    if (!state.doc) return;
    const wrap = $("stage-wrap");
    const room = wrap.clientWidth;
    const tall = Math.max(260, window.innerHeight * 0.7);
    const side = Math.max(8, Math.min(room / width(), tall / height()));
    const stage = $("stage");
    stage.style.width = Math.floor(side * width()) + "px";
    stage.style.height = Math.floor(side * height()) + "px";
    placePhoto();
  }

  function showSquare(cell) {
    const box = $("hover-square");
    if (!cell) return;
    const ch = at(cell[0], cell[1]);
    const kind = kindOf(ch);
    const map = state.doc.map;
    const what = {hallway: _("hallway"), void: _("not part of the board"), other: _("unknown character {char}", {char: ch}),
      room: map.rooms[ch], door: _("{room} (door)", {room: map.rooms[ch.toUpperCase()]}),
      start: map.starts[ch] ? _("start of {suspect}", {suspect: map.starts[ch]}) : _("start of nobody yet"),
      mark: _("{kind} space", {kind: map.marks[ch]}), spot: map.spots[ch]}[kind];
    box.textContent = squareName(cell[0], cell[1]) + ": " + what;
  }

  // ---- tools ---------------------------------------------------------------------------------

  const TOOL_NAMES = {hallway: _("Hallway"), void: _("Void"), room: _("Room"), door: _("Door"), start: _("Start"),
    passage: _("Passage"), join: _("Join rooms")};

  function renderTools() {
    const marks = Object.entries(state.doc ? state.doc.map.marks : {});
    const tools = ["hallway", "void", "room", "door", "start", ...(marks.length ? ["mark"] : []), "passage", "join"];
    if (!tools.includes(state.tool)) state.tool = "hallway";
    replace($("tools"), tools.map((tool) => el("button", {type: "button", "data-tool": tool,
      class: "tool tool-" + tool, "aria-pressed": String(state.tool === tool),
      onclick: () => { state.tool = tool; state.pick = null; renderTools(); renderOptions(); renderOverlay(); }},
    tool === "mark" ? _("Special space") : TOOL_NAMES[tool])));
    for (const button of $("modes").querySelectorAll("button")) {
      button.setAttribute("aria-pressed", String(button.dataset.mode === state.mode));
    }
  }

  function optionSelect(id, label, values, current, onchange) {
    return [el("label", {for: id, class: "inline-label"}, label),
      el("select", {id, onchange: (event) => onchange(event.target.value)},
        values.map(([value, text]) => el("option", {value, selected: value === current}, text)))];
  }

  function renderOptions() {
    const box = $("tool-options");
    if (!state.doc) { replace(box); return; }
    const map = state.doc.map;
    const rooms = Object.entries(map.rooms).map(([letter, name]) => [letter, letter + " · " + name]);
    const parts = {
      room: () => rooms.length ? optionSelect("opt-room", _("Room"), rooms, state.room, (v) => { state.room = v; renderSide(true); })
        : el("span", {class: "muted"}, _("Add a room on the side first.")),
      door: () => [...(rooms.length ? optionSelect("opt-room", _("Door of"), rooms, state.room, (v) => { state.room = v; })
        : []), el("span", {class: "muted"}, _("Tap a room's edge square; its bar shows the side it opens."))],
      start: () => optionSelect("opt-suspect", _("Start of"), state.doc.cards.suspects.map((s) => [s, s]), state.suspect,
        (v) => { state.suspect = v; }),
      mark: () => optionSelect("opt-mark", _("Space"), Object.entries(map.marks).map(([ch, kind]) => [ch, kind + " (" + ch + ")"]),
        state.mark, (v) => { state.mark = v; }),
      passage: () => el("span", {class: "muted"}, state.pick ? _("From {room}: now tap the other room.", {room: state.pick}) :
        _("Tap one room, then the other (again to remove).")),
      join: () => el("span", {class: "muted"}, state.pick ? _("From {room}: now tap the room it joins.", {room: state.pick}) :
        _("Tap one room, then the room it joins (again to remove).")),
    }[state.tool];
    replace(box, parts ? parts() : el("span", {class: "muted"}, _("Tap or drag to paint; Box paints a rectangle, Fill a whole area.")));
  }

  // ---- the side panels: rooms, starts, passages ------------------------------------------------

  // Rebuild a list only when its data changed, and put the focus back where it was.
  function keepFocus(box, build) {
    const active = document.activeElement;
    const key = active && box.contains(active) ? active.dataset.focus : null;
    build();
    if (key) {
      const again = box.querySelector(`[data-focus="${CSS.escape(key)}"]`);
      if (again) again.focus();
    }
  }

  function renderSide(force) {
    const map = state.doc.map;
    const key = JSON.stringify([map.rooms, map.starts, map.passages, map.joins, map.rows, state.room, state.doc.cards.rooms]);
    if (!force && key === state.sideKey) return;
    state.sideKey = key;
    keepFocus($("rooms"), () => replace($("rooms"), Object.entries(map.rooms).map(([letter, name]) =>
      el("li", {class: "row" + (letter === state.room ? " chosen" : "")},
        el("button", {type: "button", class: "swatch", style: `background: hsl(${roomHue(letter)} 55% 80%)`,
          "aria-label": _("Paint {room}", {room: name}), "aria-pressed": String(letter === state.room),
          onclick: () => { state.room = letter; if (state.tool !== "door") state.tool = "room"; renderTools(); renderOptions(); renderSide(true); }},
        letter),
        el("input", {value: name, maxlength: 64, "aria-label": _("Name of room {letter}", {letter}), "data-focus": "room-" + letter,
          onchange: (event) => renameRoom(letter, event.target.value)}),
        el("span", {class: "badge" + (state.doc.cards.rooms.includes(name) ? " good" : "")},
          state.doc.cards.rooms.includes(name) ? _("card") : _("no card")),
        el("button", {type: "button", class: "subtle-danger icon", "aria-label": _("Remove room {room}", {room: name}),
          onclick: () => removeRoom(letter)}, "✕")))));
    const onMap = new Set(Object.values(map.rooms));
    replace($("room-choices"), state.doc.cards.rooms.filter((name) => !onMap.has(name)).map((name) => el("option", {value: name})));
    $("room-letter").placeholder = freeLetter() || "";
    const text = map.rows.join("");
    replace($("starts"), Object.entries(map.starts).map(([digit, suspect]) => el("li", {class: "row"},
      el("span", {class: "swatch start"}, digit),
      el("span", {class: "grow"}, text.includes(digit) ? _("Start of {suspect}", {suspect}) : _("Start of {suspect} (not on the map yet)", {suspect})),
      el("button", {type: "button", class: "subtle-danger icon", "aria-label": _("Remove {suspect}'s start", {suspect}),
        onclick: () => change((doc) => { removeStart(doc, digit); })}, "✕"))));
    replace($("links"), [["passages", _("Secret passage")], ["joins", _("Joined")]].flatMap(([key, word]) =>
      map[key].map(([a, b], index) => el("li", {class: "row"},
        el("span", {class: "swatch link-" + key}, key === "passages" ? "⇢" : "="),
        el("span", {class: "grow"}, `${word}: ${a} – ${b}`),
        el("button", {type: "button", class: "subtle-danger icon", "aria-label": _("Remove {what} {first} – {second}", {what: word, first: a, second: b}),
          onclick: () => change((doc) => { doc.map[key].splice(index, 1); })}, "✕")))));
    if (!Object.keys(map.starts).length && !map.passages.length && !map.joins.length) {
      replace($("links"), el("li", {class: "muted"}, _("None yet: use the Start, Passage and Join tools.")));
    }
  }

  function removeStart(doc, digit) {
    delete doc.map.starts[digit];
    doc.map.rows = doc.map.rows.map((l) => l.split(digit).join(hallChar()));
  }

  function freeLetter() {
    const used = state.doc.map.rooms;
    return Array.from("ABCDEFGHIJKLMNOPQRSTUVWXYZ").find((l) => !used[l] &&
      !Object.prototype.hasOwnProperty.call(state.doc.map.marks, l.toLowerCase()) &&
      !Object.prototype.hasOwnProperty.call(state.doc.map.marks, l)) || null;
  }

  function addRoom(event) {
    event.preventDefault();
    if (!state.doc) return;
    const letter = ($("room-letter").value.trim() || freeLetter() || "").toUpperCase();
    const name = $("room-name").value.trim();
    const map = state.doc.map;
    if (!/^[A-Z]$/.test(letter)) { toast(_("A room's letter is one letter, A to Z."), "error"); return; }
    if (map.rooms[letter]) { toast(_("{letter} is already {room}.", {letter, room: map.rooms[letter]}), "error"); return; }
    if (!name) { toast(_("Give the room a name."), "error"); $("room-name").focus(); return; }
    if (Object.values(map.rooms).includes(name)) { toast(_("{room} is already on the map.", {room: name}), "error"); return; }
    change((doc) => {
      doc.map.rooms[letter] = name;
      if (state.roomCard && !doc.cards.rooms.includes(name)) doc.cards.rooms.push(name);
    });
    state.room = letter;
    state.tool = "room";
    $("room-letter").value = "";
    $("room-name").value = "";
    renderTools();
    renderOptions();
    renderSide(true);
  }

  function renameRoom(letter, value) {
    const name = value.trim();
    const old = state.doc.map.rooms[letter];
    if (!name || name === old) { renderSide(true); return; }
    if (Object.values(state.doc.map.rooms).includes(name)) { toast(_("{room} is already on the map.", {room: name}), "error"); renderSide(true); return; }
    change((doc) => { doc.map.rooms[letter] = name; renameEverywhere(doc, "rooms", old, name); });
  }

  function removeRoom(letter) {
    change((doc) => {
      const name = doc.map.rooms[letter];
      delete doc.map.rooms[letter];
      doc.map.rows = doc.map.rows.map((l) => l.split(letter).join(voidChar()).split(letter.toLowerCase()).join(voidChar()));
      for (const key of ["passages", "joins"]) doc.map[key] = doc.map[key].filter((pair) => !pair.includes(name));
    });
  }

  // A card renamed: its colour and label follow, and so do the map's start squares, rooms and passages.
  function renameEverywhere(doc, category, old, name) {
    const cards = doc.cards[category];
    const index = cards.indexOf(old);
    if (index >= 0) cards[index] = name;
    for (const table of [doc.colours, doc.labels]) {
      if (old in table) { table[name] = table[old]; delete table[old]; }
    }
    const map = doc.map;
    if (category === "suspects") {
      for (const digit of Object.keys(map.starts)) if (map.starts[digit] === old) map.starts[digit] = name;
    }
    if (category === "rooms") {
      for (const letter of Object.keys(map.rooms)) if (map.rooms[letter] === old) map.rooms[letter] = name;
      for (const key of ["passages", "joins"]) map[key] = map[key].map((pair) => pair.map((p) => (p === old ? name : p)));
    }
  }

  // ---- the edition: title, base, players, cards ------------------------------------------------

  function renderEdition() {
    const doc = state.doc;
    for (const [id, value] of [["ed-id", doc.id || ""], ["ed-name", doc.name || ""], ["ed-min", doc.players.min],
      ["ed-max", doc.players.max]]) {
      if (document.activeElement !== $(id)) $(id).value = value;
    }
    const base = $("ed-base");
    if (!Array.from(base.options).some((o) => o.value === doc.base) && doc.base) base.append(el("option", {value: doc.base}, doc.base));
    base.value = doc.base || "classic";
    const exportLink = $("export-link");
    exportLink.classList.toggle("hidden", !state.saved);
    if (state.saved) {
      exportLink.href = `${API}/export/${encodeURIComponent(state.saved)}`;
      exportLink.setAttribute("download", state.saved + ".toml");
      exportLink.textContent = _("Export {edition}", {edition: state.saved});
    }
    $("save-button").disabled = false;
    renderCards();
  }

  function defaultColour(name) {
    let h = 0;
    for (const ch of String(name)) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
    const palette = ["#e4572e", "#17bebb", "#ffc914", "#76b041", "#2e86ab", "#a23b72", "#f18f01", "#6c4ab6"];
    return palette[h % palette.length];
  }

  function renderCards() {
    const doc = state.doc;
    const key = JSON.stringify([doc.cards, doc.colours, doc.labels]);
    if (key === state.cardsKey) return;
    state.cardsKey = key;
    keepFocus($("cards"), () => replace($("cards"), CATEGORIES.map(([category, title, adding, inputName, newName]) =>
      el("fieldset", {class: "card-list", id: "cards-" + category},
        el("legend", {}, _("{title} ({count})", {title, count: doc.cards[category].length})),
        el("ul", {class: "rows"}, doc.cards[category].map((name, index) => el("li", {class: "row"},
          el("input", {value: name, maxlength: 64, class: "grow card-name", "aria-label": inputName.replace("{number}", index + 1),
            "data-focus": `${category}-${index}-name`, onchange: (event) => renameCard(category, name, event.target.value)}),
          el("input", {type: "color", value: doc.colours[name] || defaultColour(name), "aria-label": _("Colour of {card}", {card: name}),
            "data-focus": `${category}-${index}-colour`,
            onchange: (event) => change((d) => { d.colours[name] = event.target.value; })}),
          el("input", {value: doc.labels[name] || "", maxlength: 4, class: "short", placeholder: _("label"),
            "aria-label": _("Short label of {card}", {card: name}), "data-focus": `${category}-${index}-label`,
            onchange: (event) => change((d) => {
              const label = event.target.value.trim();
              if (label) d.labels[name] = label; else delete d.labels[name];
            })}),
          el("button", {type: "button", class: "subtle-danger icon", "aria-label": _("Remove {card}", {card: name}),
            onclick: () => removeCard(category, name)}, "✕")))),
        el("button", {type: "button", class: "add-card", "data-category": category,
          onclick: () => addCard(category, newName)}, adding)))));
  }

  function renameCard(category, old, value) {
    const name = value.trim();
    if (!name || name === old) { state.cardsKey = ""; renderCards(); return; }
    if (state.doc.cards[category].includes(name)) {
      toast(_("There is already a card called {card}.", {card: name}), "error");
      state.cardsKey = "";
      renderCards();
      return;
    }
    change((doc) => renameEverywhere(doc, category, old, name));
  }

  function addCard(category, newName) {
    const cards = state.doc.cards[category];
    let n = cards.length + 1;
    while (cards.includes(newName.replace("{number}", n))) n += 1;
    change((doc) => { doc.cards[category].push(newName.replace("{number}", n)); });
    const inputs = $("cards-" + category).querySelectorAll("input.card-name");
    const last = inputs[inputs.length - 1];
    if (last) { last.focus(); last.select(); }
  }

  function removeCard(category, name) {
    change((doc) => {
      doc.cards[category] = doc.cards[category].filter((c) => c !== name);
      delete doc.colours[name];
      delete doc.labels[name];
      if (category === "suspects") {
        for (const digit of Object.keys(doc.map.starts)) if (doc.map.starts[digit] === name) removeStart(doc, digit);
      }
    });
  }

  function editField(id, apply) {
    $(id).addEventListener("change", (event) => change((doc) => apply(doc, event.target.value)));
  }

  async function changeBase(base) {
    if (!state.doc || !base) return;
    let marks = state.doc.map.marks;
    try {  // the special spaces are the base edition's: take its legend
      const other = await getJSON(`${API}/edition/${encodeURIComponent(base)}`);
      marks = (other.map && other.map.marks) || {};
    } catch (err) {
      toast(err.message, "error");
    }
    change((doc) => { doc.base = base; doc.map.marks = marks; });
    renderTools();
    renderOptions();
  }

  // ---- problems --------------------------------------------------------------------------------

  function scheduleCheck() {
    clearTimeout(state.checkTimer);
    $("problem-count").textContent = "…";
    state.checkTimer = setTimeout(check, CHECK_DELAY);
  }

  async function check() {
    const seq = ++state.checkSeq;
    try {
      const answer = await post(`${API}/check`, {document: state.doc});
      if (seq !== state.checkSeq) return;  // an older answer: a newer check is on its way
      state.problems = answer.problems || [];
      renderProblems();
    } catch (err) {
      if (err.code === "host_login") { location.reload(); return; }
      if (seq === state.checkSeq) $("problem-count").textContent = "?";
      toast(err.message, "error");
    }
  }

  // A problem's square as [row, column] (0-based, of map.rows), or null when it is not at one square.
  function problemCell(problem) {
    if (Number.isInteger(problem.row) && Number.isInteger(problem.column)) return [problem.row, problem.column];
    return Clue.squarePosition(problem.square);
  }

  function renderProblems() {
    const problems = state.problems;
    const count = $("problem-count");
    count.textContent = String(problems.length);
    count.classList.toggle("good", problems.length === 0);
    const box = $("problems");
    if (!problems.length) {
      replace(box, el("li", {class: "ready", id: "no-problems"}, _("No problems: the map and the edition are sound.")));
      return;
    }
    replace(box, problems.map((problem) => {
      const cell = problemCell(problem);
      const text = (problem.square ? problem.square + ": " : "") + problem.message;
      return el("li", {}, cell
        ? el("button", {type: "button", class: "problem", onclick: () => highlight(cell)}, text)
        : el("span", {class: "problem"}, text));
    }));
  }

  function highlight(cell) {
    state.highlight = cell;
    renderOverlay();
    showSquare(cell);
    $("stage").scrollIntoView({behavior: "smooth", block: "nearest"});
    clearTimeout(state.highlightTimer);
    state.highlightTimer = setTimeout(() => { state.highlight = null; renderOverlay(); }, 4000);
  }

  // ---- opening, saving, import ----------------------------------------------------------------

  function editionLabel(edition) {
    const source = SOURCES[edition.source];
    return edition.name + (source ? ` (${source})` : "");
  }

  async function loadEditions() {
    try {
      const answer = await getJSON(`${API}/editions`);
      state.editions = answer.editions || [];
    } catch (err) {
      if (err.code === "host_login") { location.reload(); return; }
      toast(err.message, "error");
      return;
    }
    for (const id of ["open-edition", "blank-base", "ed-base"]) {
      const select = $(id);
      const previous = select.value;
      replace(select, state.editions.map((e) => el("option", {value: e.id}, editionLabel(e))));
      const wanted = previous || (id === "blank-base" ? "classic" : "");  // a blank grid starts on the Classic rules
      if (wanted && state.editions.some((e) => e.id === wanted)) select.value = wanted;
    }
    if (state.doc) $("ed-base").value = state.doc.base || "classic";
  }

  function open(doc, savedId, status, roomNames = {}) {
    state.doc = normalise(doc);
    state.undo = [];
    state.redo = [];
    state.saved = savedId;
    state.pick = null;
    state.highlight = null;
    state.roomNames = roomNames;
    state.sideKey = state.cardsKey = "";
    state.cells = [];
    tidy();
    $("doc-status").textContent = status;
    render();
    scheduleCheck();
  }

  async function openEdition() {
    const id = $("open-edition").value;
    if (!id) return;
    await busy($("open-button"), async () => {
      // Both before the first drawing, so the labels never show in English first.
      const [doc, roomNames] = await Promise.all([getJSON(`${API}/edition/${encodeURIComponent(id)}`), drawnRoomNames(id)]);
      const edition = state.editions.find((e) => e.id === id);
      const savedId = edition && edition.source !== "bundled" ? id : null;
      open(doc, savedId, savedId ? _("Editing {edition}. Saving under the same id replaces your copy.", {edition: doc.name || id})
        : _("Editing {edition}. Saving under the same id saves a correction.", {edition: doc.name || id}), roomNames);
    });
  }

  async function openBlank() {
    const w = Number($("blank-width").value), h = Number($("blank-height").value);
    if (!(w >= 1 && w <= MAX_SIDE && h >= 1 && h <= MAX_SIDE)) { toast(_("A grid is 1 to {most} squares each way.", {most: MAX_SIDE}), "error"); return; }
    const base = $("blank-base").value || "classic";
    await busy($("blank-button"), async () => {
      const doc = await getJSON(`${API}/blank?width=${w}&height=${h}&base=${encodeURIComponent(base)}`);
      open(doc, null, _("A blank {width} × {height} grid on the rules of {base}. Paint it, then save it as a new edition.", {width: w, height: h, base}));
    });
  }

  async function save() {
    clearTimeout(state.checkTimer);
    await busy($("save-button"), async () => {
      try {
        const answer = await post(`${API}/save`, {document: state.doc});
        state.saved = answer.id;
        renderEdition();
        $("save-status").textContent = answer.path ? _("Saved as {edition} ({path}).", {edition: answer.id, path: answer.path})
          : _("Saved as {edition}.", {edition: answer.id});
        toast(_("Saved {edition}. It is in the host page's list of editions.", {edition: answer.id}));
        await loadEditions();
      } finally {
        check();  // a refused save shows why in the list of problems
      }
    });
  }

  async function importFile(event) {
    const file = event.target.files && event.target.files[0];
    event.target.value = "";
    if (!file) return;
    if (file.size > 200 * 1024) { toast(_("That file is too large for an edition."), "error"); return; }
    const text = await file.text();
    await busy(null, async () => {
      const answer = await post(`${API}/import`, {text});
      toast(_("Imported {edition}.", {edition: answer.id}));
      await loadEditions();
      const doc = await getJSON(`${API}/edition/${encodeURIComponent(answer.id)}`);
      open(doc, answer.id, _("Imported {edition} from {file}.", {edition: doc.name || answer.id, file: file.name}));
    });
  }


  // ---- the photo underlay: a perspective warp as a CSS matrix3d --------------------------------

  // The homography taking the four points src to dst (each [[x, y] × 4]), as a 3 × 3 matrix; null if degenerate.
  function homography(src, dst) {
    const a = [], b = [];
    for (let i = 0; i < 4; i++) {
      const [x, y] = src[i], [u, v] = dst[i];
      a.push([x, y, 1, 0, 0, 0, -u * x, -u * y]); b.push(u);
      a.push([0, 0, 0, x, y, 1, -v * x, -v * y]); b.push(v);
    }
    const h = solve(a, b);
    return h && [[h[0], h[1], h[2]], [h[3], h[4], h[5]], [h[6], h[7], 1]];
  }

  // Gaussian elimination with partial pivoting (8 × 8).
  function solve(a, b) {
    const n = b.length;
    const m = a.map((row, i) => [...row, b[i]]);
    for (let col = 0; col < n; col++) {
      let pivot = col;
      for (let r = col + 1; r < n; r++) if (Math.abs(m[r][col]) > Math.abs(m[pivot][col])) pivot = r;
      if (Math.abs(m[pivot][col]) < 1e-10) return null;
      [m[col], m[pivot]] = [m[pivot], m[col]];
      for (let r = 0; r < n; r++) {
        if (r === col) continue;
        const f = m[r][col] / m[col][col];
        for (let k = col; k <= n; k++) m[r][k] -= f * m[col][k];
      }
    }
    return m.map((row, i) => row[n] / row[i]);
  }

  // CSS matrix3d is column-major: x' = a·x + e·y + m, y' = b·x + f·y + n, w = d·x + h·y + p.
  function matrix3d(h) {
    return "matrix3d(" + [h[0][0], h[1][0], 0, h[2][0], h[0][1], h[1][1], 0, h[2][1], 0, 0, 1, 0,
      h[0][2], h[1][2], 0, h[2][2]].join(",") + ")";
  }

  function loadPhoto(event) {
    const file = event.target.files && event.target.files[0];
    event.target.value = "";
    if (!file) return;
    const reader = new FileReader();
    reader.onload = () => {
      const image = new Image();
      image.onload = () => {
        // Scaled to at most 1600 px a side: plenty to trace squares, and well under the upload limit.
        const scale = Math.min(1, 1600 / Math.max(image.naturalWidth, image.naturalHeight));
        const canvas = document.createElement("canvas");
        canvas.width = Math.round(image.naturalWidth * scale);
        canvas.height = Math.round(image.naturalHeight * scale);
        canvas.getContext("2d").drawImage(image, 0, 0, canvas.width, canvas.height);
        const [w, h] = [canvas.width, canvas.height];
        const inset = 0.08;
        state.photo = {url: canvas.toDataURL("image/jpeg", 0.9), width: w, height: h, placing: true,
          opacity: Number($("photo-opacity").value) / 100,
          corners: [[w * inset, h * inset], [w * (1 - inset), h * inset], [w * (1 - inset), h * (1 - inset)], [w * inset, h * (1 - inset)]]};
        $("photo").src = state.photo.url;
        renderPhoto();
      };
      image.onerror = () => toast(_("That file is not a photo this browser can read."), "error");
      image.src = reader.result;
    };
    reader.readAsDataURL(file);
  }

  function renderPhoto() {
    const photo = state.photo;
    for (const id of ["corners-button", "trace-button", "photo-remove", "photo-opacity", "opacity-label"]) {
      $(id).classList.toggle("hidden", !photo);
    }
    $("photo").classList.toggle("hidden", !photo);
    $("stage").classList.toggle("with-photo", Boolean(photo));
    $("stage").classList.toggle("placing", Boolean(photo && photo.placing));
    if (!photo) { $("corners").classList.add("hidden"); $("corners-line").classList.add("hidden"); return; }
    $("corners-button").textContent = photo.placing ? _("Corners placed") : _("Place corners");
    $("corners-button").setAttribute("aria-pressed", String(photo.placing));
    $("trace-button").disabled = photo.placing;
    $("corners").classList.toggle("hidden", !photo.placing);
    $("corners-line").classList.toggle("hidden", !photo.placing);
    if (photo.placing) {
      replace($("corners"), [_("The board's top-left corner in the photo"), _("The board's top-right corner in the photo"),
        _("The board's bottom-right corner in the photo"), _("The board's bottom-left corner in the photo")].map((label, index) =>
        el("div", {class: "handle", "data-corner": index, role: "slider", tabindex: "0", "aria-label": label})));
    }
    placePhoto();
  }

  // Placing: the photo fitted to the stage, handles on the image points. Placed: warped onto the grid.
  function placePhoto() {
    const photo = state.photo;
    if (!photo) return;
    const stage = $("stage");
    const [sw, sh] = [stage.clientWidth, stage.clientHeight];
    const image = $("photo");
    image.style.width = photo.width + "px";
    image.style.height = photo.height + "px";
    image.style.opacity = String(photo.opacity);
    if (photo.placing) {
      const s = Math.min(sw / photo.width, sh / photo.height);
      image.style.transform = `matrix3d(${s},0,0,0,0,${s},0,0,0,0,1,0,0,0,0,1)`;
      const points = photo.corners.map(([x, y]) => [x * s, y * s]);
      $("corners").querySelectorAll(".handle").forEach((handle, i) => {
        handle.style.left = points[i][0] + "px";
        handle.style.top = points[i][1] + "px";
      });
      const svg = $("corners-line");
      svg.setAttribute("viewBox", `0 0 ${sw} ${sh}`);
      replace(svg, svgEl("polygon", {points: points.map((p) => p.join(",")).join(" ")}));
      return;
    }
    const h = homography(photo.corners, [[0, 0], [sw, 0], [sw, sh], [0, sh]]);
    if (!h) { toast(_("Those corners do not make a board: move them apart."), "error"); return; }
    image.style.transform = matrix3d(h);
  }

  function dragHandle(event) {
    const handle = event.target.closest(".handle");
    if (!handle || !state.photo) return;
    event.preventDefault();
    handle.setPointerCapture(event.pointerId);
    const index = Number(handle.dataset.corner);
    const move = (e) => {
      const photo = state.photo;
      const box = $("stage").getBoundingClientRect();
      const s = Math.min(box.width / photo.width, box.height / photo.height);
      const x = Math.min(Math.max((e.clientX - box.left) / s, 0), photo.width);
      const y = Math.min(Math.max((e.clientY - box.top) / s, 0), photo.height);
      photo.corners[index] = [x, y];
      placePhoto();
    };
    const up = () => { handle.removeEventListener("pointermove", move); handle.removeEventListener("pointerup", up); };
    handle.addEventListener("pointermove", move);
    handle.addEventListener("pointerup", up);
  }

  // Without a pointer: a focused handle moves with the arrow keys (Shift: ten times as far).
  function nudgeHandle(event) {
    const handle = event.target.closest(".handle");
    const step = {ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1]}[event.key];
    if (!handle || !step || !state.photo) return;
    event.preventDefault();
    const photo = state.photo;
    const far = (event.shiftKey ? 10 : 1) * Math.max(1, photo.width / 400);
    const [x, y] = photo.corners[Number(handle.dataset.corner)];
    photo.corners[Number(handle.dataset.corner)] = [Math.min(Math.max(x + step[0] * far, 0), photo.width),
      Math.min(Math.max(y + step[1] * far, 0), photo.height)];
    placePhoto();
  }

  async function trace() {
    const photo = state.photo;
    if (!photo || !state.doc) return;
    await busy($("trace-button"), async () => {
      const answer = await post(`${API}/photo/trace`, {image: photo.url, width: width(), height: height(),
        corners: photo.corners.map(([x, y]) => [Math.round(x), Math.round(y)])});
      const guess = answer.rows || [];
      change((doc) => {
        const map = doc.map;
        map.rows = guess.map((line) => Array.from(line, (ch) => (ch === "#" ? voidChar() : ch === "." ? hallChar() : ch)).join(""));
        for (const ch of new Set(guess.join(""))) {
          if (/[A-Z]/.test(ch) && !map.rooms[ch]) map.rooms[ch] = _("Room {letter}", {letter: ch});
        }
      });
      toast(_("Traced: check the rooms' names, add doors and starts. Undo puts the map back."));
    });
  }

  // ---- rendering, wiring -----------------------------------------------------------------------

  function render() {
    if (!state.doc) return;
    renderGrid();
    renderTools();
    renderOptions();
    renderSide();
    renderEdition();
    $("undo-button").disabled = !state.undo.length;
    $("redo-button").disabled = !state.redo.length;
  }

  function onKey(event) {
    if (!(event.ctrlKey || event.metaKey) || event.altKey) return;
    const target = event.target;
    if (target && ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName) && target.type !== "range") return;  // their own undo
    const key = event.key.toLowerCase();
    if (key === "z" && !event.shiftKey) { event.preventDefault(); undo(); }
    else if (key === "y" || (key === "z" && event.shiftKey)) { event.preventDefault(); redo(); }
  }

  function start() {
    const grid = $("grid");
    grid.addEventListener("pointerdown", onDown);
    grid.addEventListener("pointermove", onMove);
    grid.addEventListener("pointerup", onUp);
    grid.addEventListener("pointercancel", onUp);
    grid.addEventListener("pointerleave", () => { if (!state.stroke) $("hover-square").textContent = _("Tap or drag on the grid to paint."); });
    $("modes").addEventListener("click", (event) => {
      const button = event.target.closest("button[data-mode]");
      if (button) { state.mode = button.dataset.mode; renderTools(); }
    });
    $("undo-button").addEventListener("click", undo);
    $("redo-button").addEventListener("click", redo);
    document.addEventListener("keydown", onKey);
    $("open-button").addEventListener("click", openEdition);
    $("blank-button").addEventListener("click", openBlank);
    $("import-file").addEventListener("change", importFile);
    $("room-form").addEventListener("submit", addRoom);
    $("room-card").addEventListener("click", (event) => {
      state.roomCard = !state.roomCard;
      event.currentTarget.setAttribute("aria-pressed", String(state.roomCard));
      event.currentTarget.textContent = state.roomCard ? _("A card too") : _("Not a card");
    });
    $("room-letter").addEventListener("input", (event) => { event.target.value = event.target.value.toUpperCase().replace(/[^A-Z]/g, ""); });
    editField("ed-id", (doc, value) => { doc.id = value.trim(); });
    editField("ed-name", (doc, value) => { doc.name = value.trim(); });
    editField("ed-min", (doc, value) => { doc.players.min = Number(value); });
    editField("ed-max", (doc, value) => { doc.players.max = Number(value); });
    $("ed-base").addEventListener("change", (event) => changeBase(event.target.value));
    $("save-button").addEventListener("click", save);
    $("photo-file").addEventListener("change", loadPhoto);
    $("corners-button").addEventListener("click", () => { state.photo.placing = !state.photo.placing; renderPhoto(); });
    $("photo-remove").addEventListener("click", () => { state.photo = null; $("photo").removeAttribute("src"); renderPhoto(); });
    $("photo-opacity").addEventListener("input", (event) => {
      if (state.photo) { state.photo.opacity = Number(event.target.value) / 100; placePhoto(); }
    });
    $("trace-button").addEventListener("click", trace);
    $("corners").addEventListener("pointerdown", dragHandle);
    $("corners").addEventListener("keydown", nudgeHandle);
    window.addEventListener("resize", sizeStage);
    renderTools();
    loadEditions();
  }

  if ($("editor")) start();
})();
