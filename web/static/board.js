// The board drawing shared by the table, seat and sim pages.
//
// ClueBoard.load(container, options) -> Promise<board>: fetches GET /api/board (the current edition;
//   options.edition asks for another) and draws it.
// ClueBoard.data(edition) -> Promise<boardData>: that JSON, fetched once per page and edition
//   (its "words" name every square and room in plain words, its "suspects" are the edition's in order).
// ClueBoard.create(container, boardData, options) -> board   (boardData = the /api/board JSON)
//   options.onPick(place)        a pickable place (highlighted square or room) was tapped or clicked
//   options.onPiece(kind, name)  a mover ("mover") or weapon ("weapon") token was clicked
// board.update(view, {highlight: [places], pickable: bool})
//   draws the movers (view.position) and weapons (view.weapons), highlights the places in
//   `highlight`, makes them tappable if `pickable`, and marks the mover of view.turn.
// board.edition -> the edition drawn; if a view's edition differs, call ClueBoard.load again.
// board.cell -> a square's side in the drawing's units; board.mover(name) -> that mover's token node.
// board.initials(view) -> {suspect: its two letters} as the view's names are written (initialsOf).
//
// Movers are told apart by two letters as well as by colour (ClueBoard.initialsOf): each has a name
// for screen readers and a tooltip saying who it is and where. The board picture is the server's own
// SVG (companion/drawing.py), hidden from screen readers (hundreds of square codes); every name the
// page adds (suspects, weapons, places) goes in as text nodes, never as markup.
"use strict";
const ClueBoard = (() => {
  const SVG = "http://www.w3.org/2000/svg";

  // The classic suspects' colours (matched on a word of the name, so "Miss Scarlett" works too).
  const KNOWN_COLOURS = [
    ["scarlet", "#d62839"], ["mustard", "#e5b122"], ["white", "#f3f1ea"], ["green", "#2f9a4e"],
    ["peacock", "#2e6fd8"], ["plum", "#8a47b3"], ["gray", "#8d939e"], ["grey", "#8d939e"],
    ["rose", "#ec8db0"], ["brunette", "#85532f"], ["peach", "#f7b48a"], ["orchid", "#c774d6"],
  ];
  // Other editions' suspects: a stable pick from this palette (a hash of the name).
  const PALETTE = ["#e4572e", "#17bebb", "#ffc914", "#76b041", "#2e86ab", "#a23b72", "#f18f01",
    "#c6d8d3", "#6c4ab6", "#d1495b", "#00a6a6", "#edae49", "#3d5a80", "#ee6c4d", "#98c1d9", "#9bc53d"];

  function hash(text) {
    let h = 2166136261;
    for (let i = 0; i < text.length; i++) { h ^= text.charCodeAt(i); h = Math.imul(h, 16777619); }
    return h >>> 0;
  }

  function colourOf(suspect) {
    const words = String(suspect).toLowerCase().split(/[^a-z]+/);
    for (const [word, colour] of KNOWN_COLOURS) if (words.includes(word)) return colour;
    return PALETTE[hash(String(suspect)) % PALETTE.length];
  }

  // The relative luminance of "#rrggbb" (WCAG 2).
  function luminance(colour) {
    const n = parseInt(String(colour).slice(1), 16);
    const channel = (v) => { const c = v / 255; return c <= 0.03928 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4); };
    return 0.2126 * channel((n >> 16) & 255) + 0.7152 * channel((n >> 8) & 255) + 0.0722 * channel(n & 255);
  }

  // Black or white ink for text on a colour: whichever contrasts more (one of them always reaches 4.58:1).
  function inkOn(colour) {
    const l = luminance(colour);
    return (l + 0.05) / 0.05 >= 1.05 / (l + 0.05) ? "#000000" : "#ffffff";
  }

  // A name's words that start with a letter ("Mrs. Peacock" -> ["Mrs", "Peacock"]).
  function wordsOf(name) {
    return String(name).split(/[\s.\-]+/).filter((w) => /^\p{L}/u.test(w));
  }

  // Two letters for a name, best first: the first and last words' initials ("MS" for Miss Scarlet),
  // then the last word's initial with each of its later letters ("Sc", "Sa"...), then the first word's.
  function candidates(name) {
    const words = wordsOf(name);
    if (!words.length) return [String(name).slice(0, 2) || "?"];
    const first = Array.from(words[0]), last = Array.from(words[words.length - 1]);
    const up = (c) => c.toLocaleUpperCase(), low = (c) => c.toLocaleLowerCase();
    const found = [];
    if (words.length > 1) found.push(up(first[0]) + up(last[0]));
    for (const c of last.slice(1)) if (/\p{L}/u.test(c)) found.push(up(last[0]) + low(c));
    for (const c of first.slice(1)) if (/\p{L}/u.test(c)) found.push(up(first[0]) + low(c));
    for (let i = 2; i <= 9; i++) found.push(up(last[0]) + i);  // a last resort that is still two characters
    return found;
  }

  // {identity: two letters}, different for every suspect: the suspects in the edition's order, each
  // named as shown (names: identity -> shown name), takes its first candidate no earlier suspect took.
  function initialsOf(suspects, names) {
    const taken = new Set(), result = {};
    for (const identity of suspects) {
      if (identity in result) continue;
      const shown = (names && names[identity]) || identity;
      const mine = candidates(shown).find((c) => !taken.has(c.toLocaleUpperCase())) || candidates(shown)[0];
      taken.add(mine.toLocaleUpperCase());
      result[identity] = mine;
    }
    return result;
  }

  // One name's letters on its own (a page without the edition's list of suspects).
  function initials(name) {
    return candidates(name)[0];
  }

  function shortName(name, max) {
    const text = String(name);
    return text.length <= max ? text : text.slice(0, max - 1).trimEnd() + "\u2026";
  }

  function svgEl(tag, attrs, ...children) {
    const node = document.createElementNS(SVG, tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      node.setAttribute(key, String(value));
    }
    for (const child of children) {
      if (child === null || child === undefined) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  // The server's SVG, parsed as XML; anything active (scripts, handlers, links) is dropped.
  function parseSvg(text) {
    const doc = new DOMParser().parseFromString(String(text || ""), "image/svg+xml");
    const root = doc.documentElement;
    if (!root || root.localName !== "svg" || doc.getElementsByTagName("parsererror").length) {
      throw new Error(Clue._("The board drawing could not be read."));
    }
    for (const bad of Array.from(root.querySelectorAll("script, foreignObject, iframe, a, use, image"))) bad.remove();
    for (const node of [root, ...root.querySelectorAll("*")]) {
      for (const attr of Array.from(node.attributes)) {
        const name = attr.name.toLowerCase();
        if (name.startsWith("on") || name === "href" || name === "xlink:href") node.removeAttribute(attr.name);
      }
    }
    return document.importNode(root, true);
  }

  function distanceToBox(x, y, box) {
    const [bx, by, bw, bh] = box;
    const dx = Math.max(bx - x, 0, x - (bx + bw));
    const dy = Math.max(by - y, 0, y - (by + bh));
    return Math.hypot(dx, dy);
  }

  const fetched = new Map();  // url -> Promise of the board JSON: one fetch per edition per page
  function boardData(edition) {
    const url = edition ? "/api/board?edition=" + encodeURIComponent(edition) : "/api/board";
    if (!fetched.has(url)) {
      fetched.set(url, Clue.getJSON(url).catch((err) => { fetched.delete(url); throw err; }));
    }
    return fetched.get(url);
  }

  async function load(container, options) {
    const opts = options || {};
    return create(container, await boardData(opts.edition), opts);
  }

  function create(container, data, options) {
    const opts = options || {};
    const svg = parseSvg(data.svg);
    const width = Number(data.width) || 800, height = Number(data.height) || 800;
    svg.removeAttribute("width");
    svg.removeAttribute("height");
    svg.setAttribute("viewBox", "0 0 " + width + " " + height);
    svg.setAttribute("preserveAspectRatio", "xMidYMid meet");
    // A group, not an image: its pieces (and, when picking, its places) have names of their own. The
    // drawing itself is hidden from screen readers: the pieces' names say where everything is.
    svg.setAttribute("role", "group");
    svg.setAttribute("aria-label", Clue._("The board: {name}", {name: data.name || data.edition || "CLUE"}));
    svg.classList.add("cb-svg");
    const drawing = svgEl("g", {class: "cb-drawing", "aria-hidden": "true"});
    drawing.append(...Array.from(svg.childNodes).filter((node) => node.localName !== "defs"));
    svg.append(drawing);

    const places = data.places || {};
    const squares = data.squares || {};
    const roomNames = new Set(data.rooms || []);
    const firstSquare = Object.values(squares)[0];
    const cell = firstSquare ? firstSquare[2] : 32;

    // Each room's cells and label point, read from the drawing itself.
    const roomCells = new Map();
    for (const rect of svg.querySelectorAll("rect.room")) {
      const name = rect.getAttribute("data-name");
      const box = ["x", "y", "width", "height"].map((a) => Number(rect.getAttribute(a)));
      if (!roomCells.has(name)) roomCells.set(name, []);
      roomCells.get(name).push(box);
    }
    const startRooms = new Set(Array.from(svg.querySelectorAll("text.start-room")).map((t) => t.getAttribute("data-name")));
    const roomLabelSize = new Map();
    for (const label of svg.querySelectorAll("text.room-name")) {
      roomLabelSize.set(label.getAttribute("data-name"), Number(label.getAttribute("font-size")) || cell * 0.4);
    }

    // The boxes a place covers: a square's cell, a room's cells, or a cell around a spot.
    function boxesOf(place) {
      if (squares[place]) return [squares[place]];
      if (roomCells.has(place)) return roomCells.get(place);
      const centre = places[place];
      if (centre) return [[centre[0] - cell / 2, centre[1] - cell / 2, cell, cell]];
      return [];
    }
    function isRoom(place) { return roomNames.has(place) && roomCells.has(place); }

    const layers = {
      highlight: svgEl("g", {class: "cb-highlights"}),
      weapons: svgEl("g", {class: "cb-weapons"}),
      movers: svgEl("g", {class: "cb-movers"}),
    };
    svg.append(layers.highlight, layers.weapons, layers.movers);

    const wrap = document.createElement("div");
    wrap.className = "cb-wrap";
    wrap.append(svg);
    container.replaceChildren(wrap);
    container.classList.add("cb-board");

    // ---- pieces -------------------------------------------------------------------------------

    const tokens = new Map();  // "mover:Miss Scarlet" -> {node, kind, name}
    const moverRadius = cell * 0.42;
    const chipHeight = cell * 0.62;
    const chipFont = cell * 0.36;
    // How crowded rooms are packed: the longest chip label and the movers' size, tried in turn.
    const CHIP_CHARS = [13, 9, 6];
    const MOVER_SCALES = [1, 0.86, 0.72];

    function chipWidth(label) {
      return Math.max(cell * 1.2, label.length * chipFont * 0.6 + cell * 0.5);
    }

    // A piece's token; its letters, colour ink and names are set by dressToken on every update.
    function makeToken(kind, name) {
      let node;
      if (kind === "mover") {
        const colour = colourOf(name);
        node = svgEl("g", {class: "cb-token cb-mover", "data-name": name},
          svgEl("title", {}, name),
          svgEl("circle", {class: "cb-turn-ring", r: moverRadius + cell * 0.16, cx: 0, cy: 0}),
          svgEl("circle", {class: "cb-disc", r: moverRadius, cx: 0, cy: 0, fill: colour}),
          svgEl("text", {class: "cb-initials", x: 0, y: 0, fill: inkOn(colour), "font-size": (cell * 0.4).toFixed(1)}));
      } else {
        const rect = svgEl("rect", {class: "cb-chip", height: chipHeight, y: -chipHeight / 2, rx: chipHeight / 2});
        const text = svgEl("text", {class: "cb-chip-label", x: 0, y: 0, "font-size": chipFont.toFixed(1)});
        node = svgEl("g", {class: "cb-token cb-weapon", "data-name": name}, svgEl("title", {}, name), rect, text);
        node._shown = name;
        // A chip's label is shortened when its room is crowded (the full name is in its title).
        node._label = (max) => {
          const label = shortName(node._shown, max);
          const w = chipWidth(label);
          if (text.textContent !== label) text.textContent = label;
          rect.setAttribute("x", String(-w / 2));
          rect.setAttribute("width", String(w));
          node._width = w;
        };
        node._label(CHIP_CHARS[0]);
      }
      node.setAttribute("role", "img");
      if (typeof opts.onPiece === "function") {
        node.classList.add("cb-clickable");
        node.setAttribute("tabindex", "0");
        node.setAttribute("role", "button");
        const fire = (event) => { event.stopPropagation(); opts.onPiece(kind, name); };
        node.addEventListener("click", fire);
        node.addEventListener("keydown", (event) => {
          if (event.key === "Enter" || event.key === " ") { event.preventDefault(); fire(event); }
        });
      }
      return node;
    }

    // Where a place is, in the page's words (GET /api/board's, in the page's language), else the room or the square.
    function placeWords(view, place) {
      const said = (data.words || {})[place];
      if (said) return roomNames.has(place) ? said : said + " (" + place + ")";
      if (roomNames.has(place)) return Clue._("in {room}", {room: Clue.cardName(view, place)});
      return Clue._("on square {square}", {square: place});
    }

    // A token's shown name, letters, tooltip and screen-reader name, as the view writes them.
    function dressToken(token, view, letters) {
      const shown = Clue.cardName(view, token.name);
      const where = placeWords(view, token.place);
      const node = token.node;
      let said;
      if (token.kind === "mover") {
        const code = letters[token.name] || initials(shown);
        const text = node.querySelector(".cb-initials");
        if (text.textContent !== code) text.textContent = code;
        // The initials first: a clickable mover's name must start with what it shows (axe: label-content-name-mismatch).
        said = Clue._("{initials}: {name}, {place}", {name: shown, initials: code, place: where});
        if (token.name === view.turn) said += " \u2014 " + Clue._("on turn");
      } else {
        if (node._shown !== shown) { node._shown = shown; node._label(CHIP_CHARS[0]); }
        said = Clue._("{weapon}, {place}", {weapon: shown, place: where});
      }
      const title = node.querySelector("title");
      if (title.textContent !== said) title.textContent = said;
      node.setAttribute("aria-label", said);
    }

    // Where each piece at one place goes: a hallway square holds one (or a small ring of them);
    // in a room the pieces sit in rows above (movers) and below (weapons) the room's name.
    function layoutPlace(place, items) {
      const centre = places[place];
      if (!centre) return new Map();
      const spots = new Map();
      if (!isRoom(place)) {
        for (const item of items) if (item.kind === "weapon") item.node._label(CHIP_CHARS[0]);
        if (items.length === 1) { spots.set(items[0], {x: centre[0], y: centre[1], scale: 1}); return spots; }
        const ring = cell * 0.32, scale = items.length > 3 ? 0.55 : 0.68;
        items.forEach((item, i) => {
          const angle = -Math.PI / 2 + (2 * Math.PI * i) / items.length;
          spots.set(item, {x: centre[0] + ring * Math.cos(angle), y: centre[1] + ring * Math.sin(angle), scale});
        });
        return spots;
      }
      const cells = roomCells.get(place);
      const [lx, ly] = centre;
      const labelSize = roomLabelSize.get(place) || cell * 0.4;
      const labelTop = ly - labelSize * 0.7;
      const labelBottom = ly + labelSize * (startRooms.has(place) ? 2.0 : 0.7);
      // The room's rows of cells, each with its span; first those clear of the room's name.
      const byRow = new Map();
      for (const [x, y, w, h] of cells) {
        const key = Math.round(y);
        const row = byRow.get(key) || {y, h, x0: Infinity, x1: -Infinity};
        row.x0 = Math.min(row.x0, x); row.x1 = Math.max(row.x1, x + w);
        byRow.set(key, row);
      }
      const rows = Array.from(byRow.values())
        .filter((row) => row.y + row.h <= labelTop + 1 || row.y >= labelBottom - 1)
        .map((row) => ({...row, cy: row.y + row.h / 2}));
      const gap = cell * 0.12;
      const nameRows = Array.from(byRow.values())
        .filter((row) => !(row.y + row.h <= labelTop + 1 || row.y >= labelBottom - 1))
        .map((row) => ({...row, cy: row.y + row.h / 2}));
      let placed = null;
      for (let level = 0; level < CHIP_CHARS.length && !placed; level++) {
        const last = level === CHIP_CHARS.length - 1;
        placed = packRows(level, last ? [...rows, ...nameRows] : rows, last);
      }
      return placed;

      // Fill rows with the items at one level of crowding; null if they do not all fit (unless forced).
      function packRows(level, candidates, force) {
        const scale = MOVER_SCALES[level];
        for (const item of items) if (item.kind === "weapon") item.node._label(CHIP_CHARS[level]);
        const widthOf = (item) => item.kind === "mover" ? moverRadius * 2 * scale + gap : item.node._width + gap;
        const slots = candidates.map((row) => ({...row, used: 0, items: []}));
        const above = slots.filter((r) => r.cy < ly).sort((a, b) => b.cy - a.cy);
        const below = slots.filter((r) => r.cy >= ly).sort((a, b) => a.cy - b.cy);
        const overflow = [];
        const movers = items.filter((item) => item.kind === "mover");
        for (const item of [...movers, ...items.filter((item) => item.kind !== "mover")]) {
          const order = item.kind === "mover" ? [...above, ...below] : [...below, ...above];
          const row = order.find((r) => r.used + widthOf(item) <= (r.x1 - r.x0) - gap);
          if (row) { row.items.push(item); row.used += widthOf(item); } else overflow.push(item);
        }
        if (overflow.length && !force) return null;
        const spots = new Map();
        for (const row of slots) {
          if (!row.items.length) continue;
          const span = row.x1 - row.x0;
          let x = Math.min(Math.max(lx - row.used / 2, row.x0 + gap / 2), row.x0 + span - row.used);
          for (const item of row.items) {
            const w = widthOf(item);
            spots.set(item, {x: x + w / 2, y: row.cy, scale: item.kind === "mover" ? scale : 1});
            x += w;
          }
        }
        // Still too many for the room: the rest in a small ring round the name.
        overflow.forEach((item, i) => {
          const angle = (2 * Math.PI * i) / overflow.length;
          spots.set(item, {x: lx + cell * 1.1 * Math.cos(angle), y: ly + cell * 0.9 * Math.sin(angle), scale: 0.6});
        });
        return spots;
      }
      return spots;
    }

    function drawPieces(view) {
      const wanted = [];
      for (const [name, place] of Object.entries(view.weapons || {})) if (place) wanted.push({kind: "weapon", name, place});
      for (const [name, place] of Object.entries(view.position || {})) if (place) wanted.push({kind: "mover", name, place});
      const seen = new Set();
      const byPlace = new Map();
      for (const item of wanted) {
        const key = item.kind + ":" + item.name;
        seen.add(key);
        let token = tokens.get(key);
        if (!token) {
          token = {kind: item.kind, name: item.name, node: makeToken(item.kind, item.name)};
          tokens.set(key, token);
          (item.kind === "mover" ? layers.movers : layers.weapons).append(token.node);
          token.fresh = true;
        }
        token.place = item.place;
        if (!byPlace.has(item.place)) byPlace.set(item.place, []);
        byPlace.get(item.place).push(token);
      }
      for (const [key, token] of tokens) {
        if (!seen.has(key)) { token.node.remove(); tokens.delete(key); }
      }
      const letters = lettersFor(view);
      for (const token of tokens.values()) dressToken(token, view, letters);  // before layout: a chip's width is its name's
      for (const [place, items] of byPlace) {
        const spots = layoutPlace(place, items);
        for (const token of items) {
          const spot = spots.get(token);
          token.node.classList.toggle("hidden", !spot);
          if (!spot) continue;
          const transform = "translate(" + spot.x.toFixed(1) + "px, " + spot.y.toFixed(1) + "px) scale(" + spot.scale + ")";
          if (token.fresh) {  // first drawing: no sliding in from the corner
            token.node.style.transition = "none";
            token.node.style.transform = transform;
            token.node.getBoundingClientRect();
            token.node.style.transition = "";
            token.fresh = false;
          } else {
            token.node.style.transform = transform;
          }
        }
      }
      const turn = view.turn;
      for (const token of tokens.values()) {
        token.node.classList.toggle("cb-on-turn", token.kind === "mover" && token.name === turn);
      }
      // The mover on turn is drawn last, over its neighbours.
      const onTurn = tokens.get("mover:" + turn);
      if (onTurn) layers.movers.append(onTurn.node);
    }

    // ---- highlights and picking -------------------------------------------------------------

    let pickable = false;
    let shownBy = {};  // the view last drawn: how it names the rooms
    let targets = [];  // [{place, boxes, node}]

    function drawHighlights(highlight, canPick) {
      pickable = Boolean(canPick);
      layers.highlight.replaceChildren();
      targets = [];
      for (const place of new Set(highlight || [])) {
        const boxes = boxesOf(place);
        if (!boxes.length) continue;
        const room = isRoom(place);
        const group = svgEl("g", {class: "cb-highlight " + (room ? "cb-hl-room" : "cb-hl-square"), "data-place": place});
        for (const [x, y, w, h] of boxes) {
          const inset = room ? 0 : 1.5;
          group.append(svgEl("rect", {x: x + inset, y: y + inset, width: w - 2 * inset, height: h - 2 * inset,
            rx: room ? 0 : 5}));
        }
        if (pickable) {
          group.classList.add("cb-pickable");
          group.setAttribute("tabindex", "0");
          group.setAttribute("role", "button");
          // The square's place in the page's words (GET /api/board's "words", in the page's language).
          const said = (data.words || {})[place];
          group.setAttribute("aria-label", room ? Clue._("Go to {room}", {room: Clue.cardName(shownBy, place)})
            : said ? Clue._("Go to square {square}, {place}", {square: place, place: said})
              : Clue._("Go to square {square}", {square: place}));
          group.append(focusRing(boxes));
          group.addEventListener("keydown", (event) => {
            if (event.key === "Enter" || event.key === " ") { event.preventDefault(); pick(place); }
          });
          // Focused from the keyboard: the whole place in the board's window (a room wider than it, centred),
          // clear of the page's header and dock (their scroll padding, seat.css).
          group.addEventListener("focus", () => group.scrollIntoView({block: "nearest", inline: room ? "center" : "nearest"}));
        }
        layers.highlight.append(group);
        targets.push({place, boxes, node: group});
      }
      svg.classList.toggle("cb-picking", pickable && targets.length > 0);
    }

    // A ring round a pickable place, shown while it has the keyboard's focus (board.css): an outline, not
    // only a change of fill (WCAG 2.4.7), drawn round the place's whole box (a room's too).
    function focusRing(boxes) {
      const x0 = Math.min(...boxes.map((b) => b[0])), y0 = Math.min(...boxes.map((b) => b[1]));
      const x1 = Math.max(...boxes.map((b) => b[0] + b[2])), y1 = Math.max(...boxes.map((b) => b[1] + b[3]));
      const out = cell * 0.08;
      return svgEl("rect", {class: "cb-focus-ring", x: x0 - out, y: y0 - out, width: x1 - x0 + 2 * out,
        height: y1 - y0 + 2 * out, rx: cell * 0.18});
    }

    function pick(place) {
      if (pickable && typeof opts.onPick === "function") opts.onPick(place);
    }

    function toBoard(event) {
      const matrix = svg.getScreenCTM();
      if (!matrix) return null;
      const point = new DOMPoint(event.clientX, event.clientY).matrixTransform(matrix.inverse());
      return {x: point.x, y: point.y, unitsPerPixel: 1 / (matrix.a || 1)};
    }

    // The pickable place nearest a tap: inside one, or within a thumb's reach of it
    // (about 22 screen pixels, never less than half a square), so small squares stay easy to hit.
    function targetAt(event) {
      if (!pickable || !targets.length) return null;
      const at = toBoard(event);
      if (!at) return null;
      const reach = Math.max(cell * 0.5, 22 * at.unitsPerPixel);
      let best = null, bestDistance = Infinity;
      for (const target of targets) {
        for (const box of target.boxes) {
          const d = distanceToBox(at.x, at.y, box);
          if (d < bestDistance) { bestDistance = d; best = target; }
        }
      }
      return bestDistance <= reach ? best : null;
    }

    let hovered = null;
    function setHover(target) {
      if (hovered === target) return;
      if (hovered) hovered.node.classList.remove("cb-hover");
      hovered = target;
      if (hovered) hovered.node.classList.add("cb-hover");
      svg.classList.toggle("cb-over-target", Boolean(hovered));
    }

    svg.addEventListener("click", (event) => {
      const target = targetAt(event);
      if (target) { event.preventDefault(); pick(target.place); }
    });
    svg.addEventListener("pointermove", (event) => {
      if (event.pointerType === "mouse") setHover(targetAt(event));
    });
    svg.addEventListener("pointerleave", () => setHover(null));

    // Every suspect's letters: the edition's suspects (then any other mover) as the view names them.
    function lettersFor(view) {
      const suspects = [...(data.suspects || []), ...Object.keys(view.position || {})];
      return initialsOf(suspects, view.names);
    }

    const board = {
      edition: data.edition,
      initials: lettersFor,
      data,
      element: svg,
      cell,
      mover(name) { const token = tokens.get("mover:" + name); return token ? token.node : null; },
      update(view, settings) {
        const s = settings || {};
        hovered = null;
        shownBy = view || {};
        drawHighlights(s.highlight || [], s.pickable);
        drawPieces(view || {});
        return board;
      },
    };
    return board;
  }

  return {load, data: boardData, create, colourOf, inkOn, luminance, initials, initialsOf};
})();
