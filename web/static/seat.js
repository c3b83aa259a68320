// One player's phone: what to do now (the dock at the bottom, in thumb reach), the hand, the
// cards shown to this seat, the board, a notebook kept on this phone only, and the public log.
// It follows GET /events/seat; every choice is one POST /api/seat/action and the engine judges
// it: a refusal is shown in the engine's own words. Names only ever go in as text (Clue.el).
"use strict";
(() => {
  const E = Clue.el;
  const $ = (id) => document.getElementById(id);
  const ME = $("me-name").dataset.seat;
  const _ = Clue._;
  const ENGLISH = Clue.i18n.language === "en";
  const SQUARE = /^[a-z]{1,2}[0-9]{1,2}$/;  // "h25", and "ab3" past column z on a wide board
  const LOG_SHORT = 20;

  const ui = {
    view: null,
    mode: null,            // on my turn: null | "suggest" | "accuse" | "confirm"
    picks: {},             // {suspect, weapon, room} chosen in the pickers
    dice: [],              // real dice as typed
    busy: false,
    dockMin: false,
    promptKind: "",
    folds: loadFolds(),
    logAll: false,
    zoom: false,
    noticeGone: loadGone(), // notice ids dismissed, timed out or already shown as a toast
    refusal: {text: "", at: 0},
    movedFor: null,        // the action count whose move opened the board
    words: {},             // square or room -> plain words (GET /api/board's "words")
    wordsFor: null,        // the edition whose words were asked for
    wordsReady: null,      // the edition whose words have come
    myPutBack: "",         // the board's "put your mover back" for this seat, while it stands
    memo: {},
  };

  // ---- small helpers ------------------------------------------------------------------------

  function changed(key, ...parts) {
    const sig = JSON.stringify(parts);
    if (ui.memo[key] === sig) return false;
    ui.memo[key] = sig;
    return true;
  }
  // A card or seat as this page writes it (the view's names: the locale's spelling, the house names).
  const nameOf = (card) => Clue.cardName(ui.view, card);
  // A room or weapon with its English article ("the Lounge"); other languages' messages say it their way.
  const the = (card) => {
    const name = nameOf(card);
    return !ENGLISH || /^the /i.test(name) ? name : "the " + name;
  };
  // Where a place is, as a person says it: "in the corridor by the Lounge door", the code in small type.
  const whereIs = (place) => Clue.where(place, ui.words);
  const sentence = (text) => {
    const t = String(text || "").trim();
    if (!t) return _("That was refused.");
    const s = t[0].toUpperCase() + t.slice(1);
    return /[.!?]$/.test(s) ? s : s + ".";
  };
  // A notice or board correction in this page's language: its template and args when the table sends
  // them (card names in the args spelled this page's way), else its English text.
  function told(said) {
    return Clue.sentence(said, nameOf);
  }
  // The board's corrections (text, or {text, template, args}) and their English texts, which name them.
  const corrections = (v) => (v.board && v.board.corrections) || [];
  const correctionTexts = (v) => corrections(v).map((c) => (typeof c === "string" ? c : String(c.text || "")));
  const p = (...children) => E("p", {}, ...children);
  const b = (text) => E("strong", {}, text);
  // A translated sentence whose {placeholders} are elements or text: _("{seat} showed you:") with the seat in bold.
  // A placeholder may ask for a form of its name ({seat:the}, {room:de}, {seat:éliminé|éliminée}: Clue.nameForm).
  function say(text, parts) {
    const out = [];
    let at = 0;
    for (const found of text.matchAll(/\{(\w+)(?::([^{}]*))?\}/g)) {
      out.push(text.slice(at, found.index));
      // A part may be several nodes (a place in words, its grid code in small type after it).
      out.push(...[].concat(found[1] in parts ? formed(parts[found[1]], found[2]) : found[0]));
      at = found.index + found[0].length;
    }
    out.push(text.slice(at));
    return out.filter((part) => part !== "");
  }
  // A part in the form its placeholder asks for: a name as text, or an element holding only a name (the
  // form goes inside it: <strong>la señorita Amapola</strong>); a choice of words is plain text.
  function formed(part, spec) {
    if (!spec) return part;
    if (typeof part === "string") return Clue.nameForm(part, spec);
    if (part instanceof Node && part.childNodes.length === 1 && part.firstChild.nodeType === Node.TEXT_NODE) {
      const form = Clue.nameForm(part.textContent, spec);
      if (spec.includes("|")) return form;
      const copy = part.cloneNode(true);
      copy.textContent = form;
      return copy;
    }
    return part;
  }
  const colourOf = (name) => (typeof ClueBoard !== "undefined" && ClueBoard.colourOf ? ClueBoard.colourOf(name) : "#a9adb8");
  // A suspect's colour as a CSS variable (set through the CSSOM, not a style attribute).
  const tint = (node, card, kind) => { if (kind === "suspect") node.style.setProperty("--c", colourOf(card)); return node; };
  const cards = (v) => v.edition_cards || {suspects: [], weapons: [], rooms: []};
  const rooms = (v) => cards(v).rooms || [];

  function kindOf(v, card) {
    const c = cards(v);
    if ((c.suspects || []).includes(card)) return "suspect";
    if ((c.weapons || []).includes(card)) return "weapon";
    if ((c.rooms || []).includes(card)) return "room";
    return "other";
  }

  // Notices stay in the view until the next one: one already seen is not shown again after a reload.
  function loadGone() {
    const gone = new Set();
    try { for (const id of JSON.parse(sessionStorage.getItem("clue-companion:notices-seen") || "[]")) gone.add(id); }
    catch (err) { /* none kept */ }
    const add = gone.add.bind(gone);
    gone.add = (id) => {
      add(id);
      try { sessionStorage.setItem("clue-companion:notices-seen", JSON.stringify(Array.from(gone).slice(-30))); } catch (err) { /* not kept */ }
      return gone;
    };
    return gone;
  }

  function loadFolds() {
    try { return Object.assign({board: false, notebook: false, log: false}, JSON.parse(localStorage.getItem("clue-companion:folds") || "{}")); }
    catch (err) { return {board: false, notebook: false, log: false}; }
  }

  // ---- the notebook: this phone's own marks, never sent anywhere --------------------------------

  const MARKS = ["", "x", "check", "maybe"];
  const GLYPH = {"": "·", x: "✗", check: "✓", maybe: "?"};
  const MARK_WORDS = {"": _("unknown"), x: _("not it"), check: _("held or seen"), maybe: _("maybe")};
  const notebook = {
    key: null,
    data: {marks: {}, who: {}, hl: []},
    open(v) {
      const id = v.game_id !== null && v.game_id !== undefined ? "game" + v.game_id : [v.edition, ...(v.seats || [])].join("|");
      const key = "clue-companion:notebook:" + id + ":" + ME;
      if (key === this.key) return;
      this.key = key;
      const fresh = {marks: {}, who: {}, hl: []};
      try { this.data = Object.assign(fresh, JSON.parse(localStorage.getItem(key) || "{}")); }
      catch (err) { this.data = fresh; }
    },
    save() {
      try { localStorage.setItem(this.key, JSON.stringify(this.data)); } catch (err) { /* private mode: kept for this visit */ }
    },
  };

  // What this seat knows for sure: card -> {why, who}.
  function known(v) {
    const out = {};
    const add = (card, fact) => { if (!out[card]) out[card] = fact; };
    for (const c of v.hand || []) add(c, {why: _("in your hand"), hand: true});
    for (const c of v.face_up || []) add(c, {why: _("face up")});
    for (const s of v.shown_to_me || []) add(s.card, {why: _("shown by {seat}", {seat: nameOf(s.by)}), who: s.by});
    for (const s of v.seen || []) {
      add(s.card, s.from === "aside" ? {why: _("a side card")} : {why: _("snooped from {seat}", {seat: nameOf(s.from)}), who: s.from});
    }
    for (const [seat, held] of Object.entries(v.revealed || {})) {
      if (seat !== ME) for (const c of held) add(c, {why: _("{seat}'s open hand", {seat: nameOf(seat)}), who: seat});
    }
    const a = v.assistant;  // the host's detective's assistant, when on: deduced places
    if (a && a.certain) {
      for (const [c, where] of Object.entries(a.certain)) {
        if (where === "envelope") continue;
        const why = where === "aside" ? _("assistant: set aside") : _("assistant: {seat} has it", {seat: nameOf(where)});
        add(c, {why, who: where === "aside" ? "" : where});
      }
    }
    return out;
  }

  function markOf(card, facts) {
    const manual = notebook.data.marks[card] || "";
    if (manual) return {mark: manual, auto: false};
    return facts[card] ? {mark: "check", auto: true} : {mark: "", auto: false};
  }

  // ---- acting ----------------------------------------------------------------------------------

  async function act(body, after) {
    if (ui.busy) return;
    ui.busy = true;
    document.body.classList.add("busy");
    for (const button of document.querySelectorAll("#dock button.act")) button.disabled = true;
    try {
      await Clue.post("/api/seat/action", body);
      if (after) after();
    } catch (err) {
      refused(err.message);
    } finally {
      ui.busy = false;
      document.body.classList.remove("busy");
      if (ui.view) render(ui.view, true);
    }
  }

  function refused(message) {
    ui.refusal = {text: String(message || ""), at: Date.now()};
    const notice = ui.view && ui.view.notice;
    if (notice && notice.text === message) ui.noticeGone.add(notice.id);  // the toast says it already
    Clue.toast(sentence(message), "error");
  }

  const button = (label, onclick, cls) => E("button", {type: "button", class: "act " + (cls || ""), disabled: ui.busy, onclick}, label);
  const actButton = (label, body, cls, after) => button(label, () => act(body, after), cls);
  const accuseButton = () => button(_("Accuse…"), () => { ui.mode = "accuse"; ui.picks = {}; render(ui.view, true); }, "ghost");
  const endButton = (primary) => actButton(_("End turn"), {type: "end_turn"}, primary ? "primary" : "");

  // ---- the prompt -----------------------------------------------------------------------------

  function promptFor(v) {
    if (!v.stage || v.stage === "idle") {
      return {kind: "idle", title: _("No game yet"), body: [p(_("The host opens a game on the host page. This page follows it."))]};
    }
    if (v.stage === "setup") return setupPrompt(v);
    if (v.stage === "over" || v.phase === "over" || v.winner) return overPrompt(v);
    const s = v.suggestion;
    if (v.phase === "refuting" && s) return s.asked === ME ? showPrompt(v, s) : suggestionWait(v, s);
    if (v.turn !== ME) return waitPrompt(v);
    if (ui.mode === "suggest") return suggestPrompt(v);
    if (ui.mode === "accuse") return accusePrompt(v);
    if (ui.mode === "confirm") return confirmPrompt(v);
    switch (v.phase) {
      case "start": return rollPrompt(v);
      case "moving": return movePrompt(v);
      case "moved": return movedPrompt(v);
      case "suggested": return answeredPrompt(v);
      case "out": return {kind: "out", tone: "bad", title: _("Wrong accusation"),
        body: [p(_("You are out of the game. You still show cards when a suggestion names one of yours."))],
        actions: [endButton(true)]};
      default: return {kind: "turn", title: _("Your turn"), body: extras(v), actions: [accuseButton(), endButton(false)]};
    }
  }

  function setupPrompt(v) {
    const physical = v.settings && v.settings.deal === "physical";
    const body = [p(physical ? _("Tap each of your cards on your seat's pad. They appear under Your cards.")
      : _("The companion deals the cards when the game starts."))];
    const scanned = v.scanned || {};
    if (physical && Object.keys(scanned).length) {
      body.push(E("ul", {class: "scan-list"}, (v.seats || []).map((seat) =>
        E("li", {class: seat === ME ? "me" : ""}, E("span", {}, nameOf(seat)),
          E("span", {class: "count"}, _("{count} cards", {count: scanned[seat] || 0}))))));
    }
    for (const problem of v.problems || []) body.push(E("p", {class: "problem"}, problem));
    const actions = v.ready ? [actButton(_("Start game"), {type: "start"}, "primary big")] : [];
    if (!v.ready) body.push(p(E("span", {class: "muted"}, _("Waiting until every card is scanned."))));
    else body.push(p(E("span", {class: "muted"}, _("Start once everyone has joined, or wait for the host."))));
    return {kind: "setup", title: _("Setting up"), body, actions};
  }

  function overPrompt(v) {
    const sol = v.solution;
    const title = v.winner === ME ? _("You solved it!") : v.winner ? _("{seat} wins", {seat: nameOf(v.winner)}) : _("Nobody solved it");
    const body = [];
    if (sol) {
      body.push(p(...say(_("It was {suspect} with {weapon} in {room}."),
        {suspect: b(nameOf(sol.suspect)), weapon: b(the(sol.weapon)), room: b(the(sol.room))})));
      body.push(E("div", {class: "cards solution"}, [sol.suspect, sol.weapon, sol.room].map((c) => cardTile(v, c, {static: true}))));
    }
    body.push(E("p", {class: "muted"}, _("The host opens the next game from the host page.")));
    return {kind: "over", tone: v.winner === ME ? "good" : "", title, body};
  }

  // A suggestion's three cards in a sentence of the page's language ("{suspect} with {weapon} in {room}").
  function named(s) {
    return {suspect: b(nameOf(s.suspect)), weapon: b(the(s.weapon)), room: b(the(s.room))};
  }

  function showPrompt(v, s) {
    const mayShow = v.may_show || [];
    if (!mayShow.length) {
      return {kind: "pass", tone: "ask", title: _("You are asked"),
        body: [p(...say(_("{seat} suggests {suspect} with {weapon} in {room}."), {seat: nameOf(s.suggester), ...named(s)})),
          p(_("You have none of these."))],
        actions: [actButton(_("I have none of these"), {type: "pass"}, "primary big")]};
    }
    return {kind: "show", tone: "ask", lead: "body", title: _("Show {seat} a card", {seat: nameOf(s.suggester)}),
      body: [p(...say(_("{suspect} with {weapon} in {room}. Pick one card to show: only {seat} sees it."),
        {...named(s), seat: b(nameOf(s.suggester))})),
        E("div", {class: "cards pick-cards"}, mayShow.map((card) => cardTile(v, card, {onclick: () => act({type: "show", card}), act: true})))]};
  }

  function suggestionWait(v, s) {
    if (s.suggester === ME) {
      return {kind: "wait-card", title: _("Waiting for a card"),
        body: [p(...say(_("You suggested {suspect} with {weapon} in {room}."), named(s))),
          p(...say(_("{seat} is choosing a card to show you."), {seat: b(s.asked ? nameOf(s.asked) : _("Someone"))}))]};
    }
    const mine = [s.suspect, s.weapon, s.room].filter((c) => (v.hand || []).includes(c)).map(nameOf);
    const body = [p(...say(_("{seat} suggests {suspect} with {weapon} in {room}."), {seat: nameOf(s.suggester), ...named(s)})),
      p(...say(_("{seat} is being asked to show a card."), {seat: b(s.asked ? nameOf(s.asked) : _("Someone"))}))];
    if (mine.length === 1) body.push(E("p", {class: "muted"}, _("You hold {card}.", {card: mine[0]})));
    else if (mine.length) body.push(E("p", {class: "muted"}, _("You hold {cards} and {card}.", {cards: mine.slice(0, -1).join(", "), card: mine[mine.length - 1]})));
    return {kind: "wait-suggest", title: _("{seat} suggests", {seat: nameOf(s.suggester)}), body};
  }

  function waitPrompt(v) {
    const words = {start: _("{seat} is about to roll."), moving: _("{seat} is moving."), moved: _("{seat} has moved."),
      suggested: _("{seat} is deciding what to do next."), out: _("{seat} made a wrong accusation.")};
    const who = b(v.turn ? nameOf(v.turn) : _("Someone"));
    const body = [p(...say(words[v.phase] || _("{seat} is playing."), {seat: who}))];
    if ((v.eliminated || []).includes(ME)) body.push(E("p", {class: "muted"}, _("You are out: you still show cards when asked.")));
    body.push(...extras(v));
    return {kind: "wait", title: v.turn ? _("{seat}'s turn", {seat: nameOf(v.turn)}) : _("Waiting"), body};
  }

  function dice(v) {
    if (!v.dice || !v.dice.length) return null;
    return E("div", {class: "dice", role: "img", "aria-label": _("Dice: {faces}", {faces: v.dice.join(", ")})},
      v.dice.map((f) => E("span", {class: "die", "aria-hidden": "true"}, String(f))));
  }

  function rollPrompt(v) {
    const physical = v.settings && v.settings.dice === "physical";
    const count = Math.max(1, Number(v.dice_count) || 1);
    const body = [];
    const here = (v.position || {})[ME];
    if (here) body.push(p(...say(_("You are {place}."), {place: b(whereIs(here))})));
    if (physical) {
      body.push(p(count > 1 ? _("Roll the dice and enter what they show:") : _("Roll the die and enter what it shows:")));
      const inputs = [];
      for (let i = 0; i < count; i++) {
        const question = v.question_die && i === count - 1;  // Doctor Who: this die shows "?" for 1
        const store = (event) => { ui.dice[i] = event.target.value; };
        inputs.push(question
          ? E("select", {class: "die-input question", "aria-label": _("Die {n} (the question die)", {n: i + 1}), onchange: store},
            ["", "?", "2", "3", "4", "5", "6"].map((face) => E("option", {value: face, selected: (ui.dice[i] || "") === face ? "selected" : null}, face || "–")))
          : E("input", {type: "number", class: "die-input", min: 1, max: 6, inputmode: "numeric", placeholder: "1–6", "aria-label": _("Die {n}", {n: i + 1}),
            value: ui.dice[i] || null, oninput: store}));
      }
      body.push(E("div", {class: "dice-inputs"}, inputs));
    }
    const roll = () => {
      if (!physical) return act({type: "roll"});
      const faces = [];
      for (let i = 0; i < count; i++) faces.push(ui.dice[i] === "?" ? "?" : Number.parseInt(ui.dice[i], 10));
      if (faces.some((f) => f !== "?" && !(f >= 1 && f <= 6))) return Clue.toast(_("Enter what each die shows, from 1 to 6."), "error");
      return act({type: "roll", dice: faces}, () => { ui.dice = []; });
    };
    const passages = (v.legal_destinations || []).map((to) => actButton(_("Secret passage to {room}", {room: the(to)}), {type: "move", to}, "wide"));
    if (passages.length) body.push(E("div", {class: "stack"}, passages));
    if (rooms(v).includes(here) && summoned(v)) {
      body.push(E("div", {class: "stack"}, button(_("Suggest here, in {room}", {room: the(here)}), () => { ui.mode = "suggest"; ui.picks = {}; render(ui.view, true); }, "wide")));
    }
    body.push(...extras(v));
    return {kind: "roll", tone: "turn", title: _("Your turn"), lead: physical ? "body" : "actions",
      actions: [button(physical ? _("Send my roll") : _("Roll"), roll, "primary big"), accuseButton()], body};
  }

  // Brought into a room by someone else's suggestion since my last turn (then a suggestion needs no move).
  function summoned(v) {
    const record = v.record || [];
    let turns = 0;
    for (let i = record.length - 1; i >= 0; i--) {
      const e = record[i];
      if (e.type === "turn_started" && e.seat === ME && ++turns === 2) return false;
      if (turns === 1 && e.type === "moved" && e.seat === ME) return e.via === "suggestion";
    }
    return false;
  }

  function movePrompt(v) {
    const left = v.moves_left;
    const reachable = (v.legal_destinations || []).filter((d) => !SQUARE.test(d));
    const body = [E("div", {class: "move-line"}, dice(v),
      E("span", {class: "moves"}, left === null || left === undefined ? "" : _("{count} to move", {count: left})))];
    body.push(p(_("Tap a highlighted square or room on the board.")));
    if (reachable.length) body.push(E("div", {class: "stack"}, reachable.map((to) => actButton(_("Go to {room}", {room: the(to)}), {type: "move", to}, "wide"))));
    body.push(...extras(v));
    return {kind: "move", tone: "turn", title: _("Move"), lead: "body", body, actions: [button(_("Find me on the board"), showBoard, "ghost")]};
  }

  function movedPrompt(v) {
    const here = (v.position || {})[ME] || "";
    const inRoom = rooms(v).includes(here);
    const body = [p(...say(_("You are {place}."), {place: b(whereIs(here))}))];
    body.push(...extras(v));
    const suggest = () => button(_("Suggest"), () => { ui.mode = "suggest"; ui.picks = {}; render(ui.view, true); }, "primary big");
    if (inRoom && !v.suggestion && v.must_suggest) {  // "If you entered a room, you must stop and ask"
      body.push(p(...say(_("You entered {room}: the rules say you must make a suggestion here now."), {room: b(the(here))})));
      return {kind: "moved-room", tone: "turn", title: _("In {room}", {room: the(here)}), body, actions: [suggest()]};
    }
    if (inRoom && !v.suggestion) {
      body.push(p(_("Make a suggestion here, accuse, or end your turn.")));
      return {kind: "moved-room", tone: "turn", title: _("In {room}", {room: the(here)}), body,
        actions: [suggest(), accuseButton(), endButton(false)]};
    }
    body.push(p(_("Accuse, or end your turn.")));
    return {kind: "moved", tone: "turn", title: _("Your move is done"), body, actions: [endButton(true), accuseButton()]};
  }

  function answeredPrompt(v) {
    const record = v.record || [], log = v.log || [];
    let from = -1;
    for (let i = record.length - 1; i >= 0; i--) if (record[i].type === "suggested" && record[i].seat === ME) { from = i; break; }
    const body = [];
    const shown = [];
    for (let i = from + 1; from >= 0 && i < record.length; i++) {
      const e = record[i];
      if (e.type === "card_shown" && e.to === ME && e.card) shown.push(e);
      else if (["passed", "no_refutation", "side_card_seen", "card_shown"].includes(e.type) && log[i]) body.push(E("p", {class: "muted"}, log[i]));
    }
    for (const e of shown) body.unshift(p(...say(_("{seat} showed you:"), {seat: b(nameOf(e.by))})), E("div", {class: "cards"}, cardTile(v, e.card, {static: true})));
    if (!shown.length && record.slice(from + 1).some((e) => e.type === "no_refutation")) {
      body.unshift(E("p", {class: "big-line"}, _("Nobody could show you a card!")));
    }
    body.push(...extras(v));
    return {kind: "answered", tone: "turn", title: _("Suggestion answered"), body, actions: [endButton(true), accuseButton()]};
  }

  // Edition extras: snoop spaces, bonus cards, powers (offered when the view says they exist).
  function extras(v) {
    const out = [];
    const mine = v.turn === ME && v.stage === "playing";
    if (mine && v.snoop_at) {
      const others = (v.seats || []).filter((s) => s !== ME);
      out.push(E("div", {class: "extra"}, E("h3", {}, _("Snoop")),
        E("div", {class: "grid"}, others.map((target) => actButton(nameOf(target), {type: "snoop", target})))));
    }
    if ((v.may_draw || []).includes(ME)) out.push(E("div", {class: "extra"}, actButton(_("Draw a bonus card"), {type: "draw"}, "wide")));
    const power = mine && v.powers && v.powers[ME];
    if (power && !power.used) {
      out.push(E("div", {class: "extra"}, actButton(_("Use your power: {power}", {power: power.name}), {type: "use_power"}, "wide"),
        E("p", {class: "muted small"}, power.text)));
    }
    const held = mine && v.bonus && v.bonus.held ? v.bonus.held[ME] || [] : [];
    if (held.length) {
      out.push(E("div", {class: "extra"}, E("h3", {}, _("Your bonus cards")),
        E("div", {class: "grid"}, held.map((id) => actButton(_("Play {card}", {card: id}), {type: "play_card", card_id: id})))));
    }
    return out;
  }

  function picker(v, label, kind, options) {
    const facts = known(v);
    return E("fieldset", {class: "picker"}, E("legend", {}, label), E("div", {class: "grid"}, options.map((card) => {
      const mark = markOf(card, facts);
      const chosen = ui.picks[kind] === card;
      return tint(E("button", {type: "button", class: "pick mark-" + (mark.mark || "none") + (chosen ? " chosen" : ""), "aria-pressed": chosen ? "true" : "false",
        onclick: () => { ui.picks[kind] = chosen ? undefined : card; render(ui.view, true); }},
      E("span", {class: "pick-name"}, nameOf(card)),
      mark.mark ? E("span", {class: "pick-mark"}, E("span", {"aria-hidden": "true"}, GLYPH[mark.mark]), E("span", {class: "sr-only"}, " (" + MARK_WORDS[mark.mark] + ")")) : null), card, kind);
    })));
  }

  const cancelButton = () => button(_("Cancel"), () => { ui.mode = null; ui.picks = {}; render(ui.view, true); }, "ghost");

  function suggestPrompt(v) {
    const room = (v.position || {})[ME];
    const {suspect, weapon} = ui.picks;
    const ready = Boolean(suspect && weapon);
    const label = ready ? _("Suggest {suspect} with {weapon}", {suspect: nameOf(suspect), weapon: the(weapon)}) : _("Pick who and what");
    const go = actButton(label, {type: "suggest", suspect, weapon}, "primary big",
      () => { ui.mode = null; ui.picks = {}; });
    go.disabled = !ready || ui.busy;
    return {kind: "suggest", tone: "turn", lead: "body", title: room ? _("Suggest in {room}", {room: the(room)}) : _("Suggest"),
      body: [picker(v, _("Who?"), "suspect", cards(v).suspects || []), picker(v, _("With what?"), "weapon", cards(v).weapons || [])],
      actions: [go, cancelButton()]};
  }

  function accusePrompt(v) {
    const {suspect, weapon, room} = ui.picks;
    const ready = Boolean(suspect && weapon && room);
    const next = button(_("Accuse…"), () => { ui.mode = "confirm"; render(ui.view, true); }, "danger big");
    next.disabled = !ready || ui.busy;
    return {kind: "accuse", tone: "bad", lead: "body", title: _("Accuse"),
      body: [E("p", {class: "muted"}, _("Only when you are sure: a wrong accusation puts you out.")),
        picker(v, _("Who?"), "suspect", cards(v).suspects || []), picker(v, _("With what?"), "weapon", cards(v).weapons || []),
        picker(v, _("Where?"), "room", rooms(v))],
      actions: [next, cancelButton()]};
  }

  function confirmPrompt(v) {
    const {suspect, weapon, room} = ui.picks;
    if (!(suspect && weapon && room)) { ui.mode = "accuse"; return accusePrompt(v); }
    return {kind: "confirm", tone: "bad", title: _("Are you sure?"),
      body: [E("p", {class: "big-line"}, ...say(_("Accuse {suspect} with {weapon} in {room}?"), named({suspect, weapon, room}))),
        p(_("A wrong accusation puts you out."))],
      actions: [actButton(_("Accuse"), {type: "accuse", suspect, weapon, room}, "danger big", () => { ui.mode = null; ui.picks = {}; }),
        button(_("Back"), () => { ui.mode = "accuse"; render(ui.view, true); }, "ghost")]};
  }

  function renderDock(v, force) {
    if (v.turn !== ME || ["refuting", "over"].includes(v.phase) || v.stage !== "playing") ui.mode = null;
    if (ui.mode === "suggest" && !["start", "moved"].includes(v.phase)) ui.mode = null;
    const {record, log, notice, link, board, ...rest} = v;
    if (!changed("dock", rest, (board || {}).waiting, ui.mode, ui.picks, ui.busy, ui.dockMin, notebook.data.marks,
      ui.myPutBack, ui.wordsReady) && !force) return;
    const prompt = promptFor(v);
    if (prompt.kind !== ui.promptKind) { ui.dockMin = false; ui.promptKind = prompt.kind; }
    const dock = $("dock");
    dock.className = "dock tone-" + (prompt.tone || "plain") + (ui.dockMin ? " min" : "");
    const handle = E("button", {type: "button", class: "dock-handle", "aria-expanded": ui.dockMin ? "false" : "true",
      onclick: () => { ui.dockMin = !ui.dockMin; render(ui.view, true); }},
    E("span", {class: "dock-title"}, prompt.title), E("span", {class: "chev", "aria-hidden": "true"}));
    const body = ui.dockMin ? null : E("div", {class: "dock-body"}, prompt.body || []);
    const actions = ui.dockMin || !(prompt.actions || []).length ? null : E("div", {class: "dock-actions"}, prompt.actions);
    // The moment's main action is the first tab stop after the cards: the action buttons first, unless the
    // body holds what must be chosen first (a card to show, the pickers, the dice, a room to go to); the
    // fold handle last. The dock's flex order (seat.css) still shows handle, body, actions from the top.
    Clue.replace($("prompt"), putBackWarning(), ...(prompt.lead === "body" ? [body, actions] : [actions, body]), handle);
    keepFocusClear();
  }

  // What may cover a focused control (WCAG 2.4.11): the sticky header over the page, the fixed dock under
  // it, and inside the dock its sticky title and action bar. Their heights become scroll padding (seat.css),
  // so a control that takes the focus is scrolled clear of them.
  function keepFocusClear() {
    const root = document.documentElement.style, dock = $("dock");
    const head = $("head");
    root.setProperty("--head-h", (getComputedStyle(head).position === "sticky" ? head.offsetHeight : 0) + "px");
    const wide = getComputedStyle(dock).position !== "fixed" || dock.getBoundingClientRect().bottom < innerHeight - 2;
    root.setProperty("--dock-h", (wide ? 0 : dock.offsetHeight) + "px");
    const handle = dock.querySelector(".dock-handle"), actions = dock.querySelector(".dock-actions");
    dock.style.setProperty("--handle-h", (handle && getComputedStyle(handle).position === "sticky" ? handle.offsetHeight : 0) + "px");
    dock.style.setProperty("--actions-h", (actions ? actions.offsetHeight : 0) + "px");
  }

  // ---- header, alerts ------------------------------------------------------------------------

  function renderHead(v) {
    if (!changed("head", v.turn, v.phase, v.stage, v.eliminated, v.winner, v.link)) return;
    $("me-dot").style.background = colourOf(ME);
    const out = (v.eliminated || []).includes(ME);
    let line;
    if (v.stage === "setup") line = _("Setting up");
    else if (v.stage === "over" || v.phase === "over") line = _("Game over");
    else if (!v.stage || v.stage === "idle") line = _("No game");
    else if (v.turn === ME) line = E("span", {class: "your-turn"}, _("Your turn"));
    else line = v.turn ? _("{seat}'s turn", {seat: nameOf(v.turn)}) : _("Someone's turn");
    Clue.replace($("turn-line"), line, out ? E("span", {class: "out-tag"}, " · " + _("out")) : null);
    $("me-name").textContent = nameOf(ME);
    const linkPill = $("link-pill");
    linkPill.classList.toggle("hidden", !v.link || v.link === "none");
    linkPill.firstElementChild.className = "status-dot " + (v.link === "up" ? "up" : "down");
    linkPill.lastElementChild.textContent = v.link === "up" ? _("Board") : _("Board lost");
    linkPill.title = v.link === "up" ? _("Board connected") : _("Board disconnected: searching");
  }

  function setStream(status) {
    const pill = $("sse-pill");
    pill.firstElementChild.className = "status-dot " + (status === "live" ? "up" : "down");
    pill.lastElementChild.textContent = status === "live" ? _("Live") : _("Reconnecting…");
    pill.classList.toggle("warn", status !== "live");
  }

  // The board saw this seat's own mover in the wrong place: the table and the handheld say so, and
  // so does this phone, in the dock (always on screen, even scrolled down to the board) until the
  // board matches. The table leaves it as this seat's "put_back" notice; a later notice may replace
  // that, so it is kept here for as long as the board's corrections still list it.
  function followPutBack(v) {
    const texts = correctionTexts(v);
    if (v.notice && v.notice.code === "put_back" && texts.includes(v.notice.text)) ui.myPutBack = v.notice.text;
    if (!texts.includes(ui.myPutBack)) ui.myPutBack = "";
  }

  // This seat's correction as the board sends it (with its template, when there is one).
  function myCorrection() {
    const texts = ui.view ? correctionTexts(ui.view) : [];
    const at = texts.indexOf(ui.myPutBack);
    return at >= 0 ? corrections(ui.view)[at] : ui.myPutBack;
  }

  function putBackWarning() {
    if (!ui.myPutBack) return null;
    return E("div", {class: "put-back", role: "alert"},
      E("div", {class: "put-back-title"}, _("Your mover is in the wrong place")),
      E("p", {class: "put-back-text"}, Clue.placeText(sentence(told(myCorrection())), ui.words)),
      E("p", {class: "small"}, _("The game waits until the board matches.")));
  }

  function renderAlerts(v, force) {
    const texts = correctionTexts(v);
    let notice = v.notice;
    if (notice && notice.text === ui.refusal.text && Date.now() - ui.refusal.at < 10000) ui.noticeGone.add(notice.id);
    if (notice && notice.code === "board_mismatch" && !(v.board && v.board.waiting)) notice = null;  // the board matches again
    if (notice && (ui.noticeGone.has(notice.id) || texts.includes(notice.text))) notice = null;
    if (!changed("alerts", corrections(v), notice, ui.myPutBack, ui.wordsReady) && !force) return;
    const items = [];
    if (texts.length) {
      items.push(E("div", {class: "alert big", role: "alert"}, E("div", {class: "alert-title"}, _("Put the board right")),
        corrections(v).map((said, i) => E("p", {class: texts[i] === ui.myPutBack ? "mine" : ""},
          texts[i] === ui.myPutBack ? E("strong", {}, _("Your mover:") + " ") : null, Clue.placeText(told(said), ui.words))),
        E("p", {class: "small"}, _("The game waits until the board matches."))));
    }
    if (notice) {
      const big = notice.code === "put_back";
      const id = notice.id;
      items.push(E("div", {class: "alert " + (big ? "big" : "info"), role: big ? "alert" : "status"},
        E("p", {}, sentence(told(notice))),
        E("button", {type: "button", class: "alert-close", "aria-label": _("Dismiss"), onclick: () => { ui.noticeGone.add(id); renderAlerts(ui.view, true); }}, "×")));
      if (!big) setTimeout(() => { ui.noticeGone.add(id); if (ui.view) renderAlerts(ui.view, true); }, 12000);
    }
    Clue.replace($("alerts"), items);
  }

  // ---- hand, shown, log ----------------------------------------------------------------------

  function cardTile(v, card, opts) {
    const o = opts || {};
    const kind = kindOf(v, card);
    const hl = !o.static && !o.act && notebook.data.hl.includes(card);
    const labels = {suspect: _("Suspect"), weapon: _("Weapon"), room: _("Room"), other: _("Card")};
    const attrs = {class: "card kind-" + kind + (hl ? " hl" : "") + (o.faceUp ? " face-up-card" : "") + (o.act ? " act" : "")};
    const inner = [E("span", {class: "card-kind"}, labels[kind]), E("span", {class: "card-name"}, nameOf(card)),
      o.faceUp ? E("span", {class: "card-tag"}, _("face up")) : null];
    if (o.static) return tint(E("div", attrs, inner), card, kind);
    const onclick = o.onclick || (() => toggleHighlight(card));
    return tint(E("button", {...attrs, type: "button", disabled: o.act && ui.busy, "aria-pressed": o.act ? null : String(hl), onclick}, inner), card, kind);
  }

  function toggleHighlight(card) {
    const hl = notebook.data.hl;
    notebook.data.hl = hl.includes(card) ? hl.filter((c) => c !== card) : [...hl, card];
    notebook.save();
    renderHand(ui.view, true);
  }

  function renderHand(v, force) {
    if (!changed("hand", v.hand, v.face_up, v.edition_cards, notebook.key, v.stage) && !force) return;
    const hand = v.hand || [];
    Clue.replace($("hand"), hand.length ? hand.map((c) => cardTile(v, c)) :
      E("p", {class: "muted"}, v.stage === "setup" ? _("Your cards appear here as you scan them.") : _("You hold no cards.")));
    Clue.replace($("face-up"), (v.face_up || []).map((c) => cardTile(v, c, {faceUp: true, static: true})));
    $("hand-sec").classList.toggle("hidden", !v.stage || v.stage === "idle");
    $("hand-hint").classList.toggle("hidden", !hand.length || v.stage === "setup");
    $("hand-title").textContent = v.stage === "setup" ? _("Cards scanned") : _("Your cards");
  }

  function renderShown(v) {
    if (!changed("shown", v.shown_to_me, v.seen, v.stage)) return;
    $("shown-sec").classList.toggle("hidden", v.stage !== "playing" && v.stage !== "over");
    const items = [];
    const chip = (card) => E("span", {class: "card-chip"}, nameOf(card));
    for (const s of (v.shown_to_me || []).slice().reverse()) {
      items.push(E("li", {}, ...say(_("{seat} showed you {card}"), {seat: b(nameOf(s.by)), card: chip(s.card)})));
    }
    for (const s of (v.seen || []).slice().reverse()) {
      items.push(E("li", {}, ...(s.from === "aside" ? say(_("Side card {n}: {card}"), {n: String((s.index || 0) + 1), card: chip(s.card)})
        : say(_("You snooped on {seat}: {card}"), {seat: b(nameOf(s.from)), card: chip(s.card)}))));
    }
    Clue.replace($("shown"), items.length ? items : E("li", {class: "muted"}, _("Nobody has shown you a card yet.")));
  }

  function renderLog(v, force) {
    const log = v.log || [];
    $("log-sec").classList.toggle("hidden", !log.length);
    $("log-hint").textContent = log.length ? log[log.length - 1] : "";
    if (!ui.folds.log) return;
    if (!changed("log", log.length, log[log.length - 1], ui.logAll) && !force) return;
    const lines = log.slice().reverse();
    const shown = ui.logAll ? lines : lines.slice(0, LOG_SHORT);
    Clue.replace($("log"), shown.map((line) => E("li", {class: line.includes(nameOf(ME)) ? "mine" : ""}, line)));
    $("log-more").hidden = ui.logAll || lines.length <= LOG_SHORT;
  }

  // ---- notebook --------------------------------------------------------------------------------

  function renderNotebook(v, force) {
    const playing = v.stage === "playing" || v.stage === "over";
    $("notebook-sec").classList.toggle("hidden", !playing || !v.edition_cards);
    if (!playing || !v.edition_cards) return;
    const facts = known(v);
    const groups = [[_("Suspects"), cards(v).suspects || []], [_("Weapons"), cards(v).weapons || []], [_("Rooms"), rooms(v)]];
    const open = groups.map(([, list]) => list.filter((c) => !["x", "check"].includes(markOf(c, facts).mark)).length);
    $("notebook-hint").textContent = _("{counts} still open", {counts: open.join(" · ")});
    if (!ui.folds.notebook) return;
    if (!changed("notebook", facts, notebook.key, notebook.data, v.edition_cards, v.seats, v.assistant) && !force) return;
    const others = (v.seats || []).filter((s) => s !== ME);
    Clue.replace($("notebook"), groups.map(([title, list], g) => E("div", {class: "nb-group"},
      E("h3", {}, title, E("span", {class: "nb-open"}, _("{open} of {count} open", {open: open[g], count: list.length}))),
      list.map((card) => notebookRow(card, facts, others, v.assistant)))));
    const summary = assistantLine(v.assistant);
    if (summary) $("notebook").prepend(summary);
  }

  const pct = (p) => (p > 0 && p < 0.01 ? "<1" : Math.round(p * 100)) + "%";

  // The assistant's verdict on the whole envelope, above the notebook.
  function assistantLine(a) {
    if (!a || a.error) return a && a.error ? E("p", {class: "nb-assist"}, _("Assistant: {error}", {error: a.error})) : null;
    if (a.can_accuse) {
      return E("p", {class: "nb-assist sure"}, _("Assistant: you can accuse now: {cards}.", {cards: a.accusation.map(nameOf).join(", ")}));
    }
    if (a.mode === "probabilities") {
      return E("p", {class: "nb-assist"}, _("Assistant: likeliest envelope {cards} ({chance}).",
        {cards: a.best_accusation.map(nameOf).join(", "), chance: pct(a.accuse_chance)}));
    }
    return E("p", {class: "nb-assist"}, _("Assistant: what is certain is shown on each card."));
  }

  // The assistant's word on one card: where it certainly is, or its chances.
  function assistantHint(a, card) {
    if (!a || a.error) return null;
    const where = a.certain[card];
    if (where === "envelope") return _("assistant: in the envelope!");
    if (where) return null;  // already in the card's "why"
    if (a.mode === "probabilities" && a.cards && a.cards[card]) {
      const parts = Object.entries(a.cards[card]).filter(([, p]) => p > 0).sort((x, y) => y[1] - x[1]);
      return _("assistant: {chances}", {chances: parts.map(([place, p]) => placeName(place) + " " + pct(p)).join(" · ")});
    }
    const not = (a.impossible[card] || []).filter((place) => place !== ME);
    return not.length ? _("assistant: not {places}", {places: not.map(placeName).join(", ")}) : null;
  }

  // Where the assistant puts a card: a seat, the envelope or the cards set aside.
  function placeName(place) {
    if (place === "envelope") return _("envelope");
    if (place === "aside") return _("set aside");
    return nameOf(place);
  }

  function notebookRow(card, facts, others, assistant) {
    const fact = facts[card];
    const {mark, auto} = markOf(card, facts);
    const who = notebook.data.who[card] || (fact && fact.who) || "";
    const select = E("select", {class: "nb-who", "aria-label": _("Who has {card}", {card: nameOf(card)}),
      onchange: (event) => { notebook.data.who[card] = event.target.value; notebook.save(); }},
    E("option", {value: ""}, _("who?")), others.map((s) => E("option", {value: s}, nameOf(s))));
    select.value = who;
    const cycle = () => {
      // Past the last mark the card goes back to no manual mark (a known card: the game's ✓).
      const next = MARKS[(MARKS.indexOf(mark) + 1) % MARKS.length];
      if (next) notebook.data.marks[card] = next; else delete notebook.data.marks[card];
      notebook.save();
      renderNotebook(ui.view, true);
      renderDock(ui.view, true);
    };
    return E("div", {class: "nb-row mark-" + (mark || "none") + (auto ? " auto" : "") + (fact && fact.hand ? " held" : "")},
      E("span", {class: "nb-name"}, nameOf(card), fact ? E("small", {class: "nb-why"}, fact.why) : null,
        assistantHint(assistant, card) ? E("small", {class: "nb-why nb-hint"}, assistantHint(assistant, card)) : null),
      select,
      E("button", {type: "button", class: "nb-mark", onclick: cycle, "data-card": card,
        "aria-label": _("{card}: {mark}. Tap to change.", {card: nameOf(card), mark: MARK_WORDS[mark]})}, GLYPH[mark]));
  }

  // ---- board --------------------------------------------------------------------------------

  const board = {drawn: null, loading: false, edition: null, failed: false};

  function renderBoard(v) {
    $("board-sec").classList.toggle("hidden", !v.edition);
    const here = (v.position || {})[ME];
    if (changed("board-hint", here, ui.wordsReady)) Clue.replace($("board-hint"), here ? say(_("you are {place}"), {place: whereIs(here)}) : []);
    const mine = v.turn === ME && v.stage === "playing";
    const moving = mine && v.phase === "moving";
    if (moving && ui.movedFor !== v.actions) {  // a new roll: open the board zoomed to tap, my mover in view
      ui.movedFor = v.actions;
      ui.focusPending = true;
      setZoom(true);
      setFold("board", true, false);
    }
    if (!ui.folds.board || board.failed) return;
    if (typeof ClueBoard === "undefined") {
      board.failed = true;
      Clue.replace($("board"), E("p", {class: "muted"}, _("The board drawing is not available.")));
      return;
    }
    if (board.drawn && board.drawn.edition === v.edition) {
      const pickable = mine && ["start", "moving"].includes(v.phase) && !ui.busy;
      if (changed("board", v.position, v.weapons, v.turn, v.legal_destinations, pickable)) {
        board.drawn.update(v, {highlight: v.legal_destinations || [], pickable});
      }
      if (ui.focusPending) {
        ui.focusPending = false;
        requestAnimationFrame(focusMover);
      }
      return;
    }
    if (board.loading || (board.drawn && board.edition === v.edition)) return;
    board.loading = true;
    board.edition = v.edition;
    ClueBoard.load($("board"), {edition: v.edition, onPick: (to) => act({type: "move", to})}).then((drawn) => {
      board.drawn = drawn;
      board.loading = false;
      setZoom(ui.zoom);
      delete ui.memo.board;
      if (ui.view) renderBoard(ui.view);
    }).catch((err) => {
      board.loading = false;
      board.failed = true;
      Clue.replace($("board"), E("p", {class: "muted"}, _("The board could not be drawn: {reason}", {reason: err.message})));
    });
  }

  // "Find me": open the board zoomed in and bring my mover to the middle of the screen.
  function showBoard() {
    ui.focusPending = true;
    setZoom(true);
    setFold("board", true, true);
  }

  // Zoomed in, a square is TAP CSS pixels wide, so even its inset highlight is over the 44 px a
  // thumb needs, and the board pans in its own scroller (pinch-zoom and scrolling stay the
  // browser's); zoomed out, the whole board fits the phone.
  const TAP = 52;
  function setZoom(on) {
    ui.zoom = on;
    $("board-scroll").classList.toggle("zoomed", on);
    $("board-zoom").setAttribute("aria-pressed", String(on));
    $("board-zoom").textContent = on ? _("Whole board") : _("Zoom in");
    const drawn = board.drawn;
    if (drawn && drawn.cell) $("board").style.setProperty("--zoomed-w", Math.ceil(drawn.data.width * TAP / drawn.cell) + "px");
  }

  // Scroll so that my mover sits in the middle of what the header and the dock leave visible
  // (and, zoomed in, in the middle of the board's own scroller).
  function focusMover() {
    const mover = board.drawn ? board.drawn.mover(ME) : null;
    const target = mover || $("board-sec");
    const scroller = $("board-scroll");
    if (mover && ui.zoom) {
      const box = mover.getBoundingClientRect(), frame = scroller.getBoundingClientRect();
      scroller.scrollLeft += box.left + box.width / 2 - (frame.left + frame.width / 2);
      scroller.scrollTop += box.top + box.height / 2 - (frame.top + frame.height / 2);
    }
    const box = target.getBoundingClientRect();
    const top = $("head").getBoundingClientRect().bottom;
    const wide = window.matchMedia("(min-width: 1100px)").matches;
    const bottom = window.innerHeight - (wide ? 0 : $("dock").offsetHeight);
    const centre = mover ? box.top + box.height / 2 : box.top + Math.min(box.height, bottom - top) / 2;
    const still = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    window.scrollBy({top: centre - (top + bottom) / 2, behavior: still ? "auto" : "smooth"});
  }

  // ---- folds, wiring --------------------------------------------------------------------------

  function setFold(name, open, remember) {
    ui.folds[name] = open;
    $(name + "-toggle").setAttribute("aria-expanded", String(open));
    $(name + "-body").hidden = !open;
    $(name + "-sec").classList.toggle("open", open);
    if (remember !== false) {
      try { localStorage.setItem("clue-companion:folds", JSON.stringify(ui.folds)); } catch (err) { /* not kept */ }
    }
    if (open && ui.view) render(ui.view, true);
  }

  for (const name of ["board", "notebook", "log"]) {
    $(name + "-toggle").addEventListener("click", () => setFold(name, !ui.folds[name]));
    setFold(name, ui.folds[name], false);
  }
  $("log-more").addEventListener("click", () => { ui.logAll = true; renderLog(ui.view, true); });
  $("board-zoom").addEventListener("click", () => {
    setZoom(!ui.zoom);
    requestAnimationFrame(focusMover);
  });
  $("board-find").addEventListener("click", showBoard);
  let clearArmed = null;
  $("notebook-clear").addEventListener("click", (event) => {
    const btn = event.currentTarget;
    if (!clearArmed) {
      btn.textContent = _("Tap again to clear");
      clearArmed = setTimeout(() => { clearArmed = null; btn.textContent = _("Clear my marks"); }, 3000);
      return;
    }
    clearTimeout(clearArmed);
    clearArmed = null;
    btn.textContent = _("Clear my marks");
    notebook.data.marks = {};
    notebook.data.who = {};
    notebook.save();
    if (ui.view) render(ui.view, true);
  });

  // This phone's own language (a cookie the server keeps), or the table's again: the page reloads in it.
  $("lang-choice").addEventListener("change", async (event) => {
    const chooser = event.currentTarget;
    chooser.disabled = true;
    try {
      await Clue.post("/api/seat/language", {locale: chooser.value || null});
      location.replace("/seat");
    } catch (err) {
      chooser.disabled = false;
      Clue.toast(sentence(err.message), "error");
    }
  });

  // Keep the page's last lines, and whatever has the focus, clear of the dock and the header, whatever their heights.
  if (typeof ResizeObserver !== "undefined") {
    const watch = new ResizeObserver(keepFocusClear);
    for (const node of [$("dock"), $("head")]) watch.observe(node);
  }
  window.addEventListener("resize", keepFocusClear);

  // The edition's places in words, fetched once (the board drawing shares the fetch).
  function loadWords(v) {
    if (!v.edition || ui.wordsFor === v.edition || typeof ClueBoard === "undefined") return;
    ui.wordsFor = v.edition;
    ClueBoard.data(v.edition).then((data) => {
      ui.words = data.words || {};
      ui.wordsReady = v.edition;
      if (ui.view) render(ui.view, true);
    }).catch(() => { ui.wordsFor = null; });  // codes until the next view tries again
  }

  function render(v, force) {
    notebook.open(v);
    loadWords(v);
    followPutBack(v);
    renderHead(v);
    renderAlerts(v, force);
    renderDock(v, force);
    renderHand(v, force);
    renderShown(v);
    renderBoard(v);
    renderNotebook(v, force);
    renderLog(v, force);
  }

  // ---- the stream ------------------------------------------------------------------------------

  let source = null;
  function connect() {
    source = Clue.stream("/events/seat", (v) => {
      // A notice already there when the page opens is old news (but a board correction is not).
      if (!ui.view && v.notice && v.notice.code !== "put_back") ui.noticeGone.add(v.notice.id);
      ui.view = v;
      render(v, false);
    }, (status) => {
      setStream(status);
      if (status === "closed") recheck();
    });
  }

  // The stream was refused: if this phone is not joined any more, reload to show why.
  async function recheck() {
    if (source) source.close();
    try {
      await Clue.getJSON("/api/seat");
      setTimeout(connect, 2000);
    } catch (err) {
      if (err.code === "not_joined") location.reload();
      else setTimeout(connect, 4000);
    }
  }

  connect();
})();
