// One player's phone: what to do now (the dock at the bottom, in thumb reach), the hand, the
// cards shown to this seat, the board, a notebook kept on this phone only, and the public log.
// It follows GET /events/seat; every choice is one POST /api/seat/action and the engine judges
// it: a refusal is shown in the engine's own words. Names only ever go in as text (Clue.el).
"use strict";
(() => {
  const E = Clue.el;
  const $ = (id) => document.getElementById(id);
  const ME = $("me-name").dataset.seat;
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
  const the = (name) => (/^the /i.test(name) ? name : "the " + name);
  // Where a place is, as a person says it: "in the corridor by the Lounge door", the code in small type.
  const whereIs = (place) => Clue.where(place, ui.words);
  const sentence = (text) => {
    const t = String(text || "").trim();
    if (!t) return "That was refused.";
    const s = t[0].toUpperCase() + t.slice(1);
    return /[.!?]$/.test(s) ? s : s + ".";
  };
  const p = (...children) => E("p", {}, ...children);
  const b = (text) => E("strong", {}, text);
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
  const MARK_WORDS = {"": "unknown", x: "not it", check: "held or seen", maybe: "maybe"};
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
    for (const c of v.hand || []) add(c, {why: "in your hand", hand: true});
    for (const c of v.face_up || []) add(c, {why: "face up"});
    for (const s of v.shown_to_me || []) add(s.card, {why: "shown by " + s.by, who: s.by});
    for (const s of v.seen || []) add(s.card, s.from === "aside" ? {why: "a side card"} : {why: "snooped from " + s.from, who: s.from});
    for (const [seat, held] of Object.entries(v.revealed || {})) if (seat !== ME) for (const c of held) add(c, {why: seat + "'s open hand", who: seat});
    const a = v.assistant;  // the host's detective's assistant, when on: deduced places
    if (a && a.certain) for (const [c, where] of Object.entries(a.certain)) if (where !== "envelope") add(c, {why: "assistant: " + (where === "aside" ? "set aside" : where + " has it"), who: where === "aside" ? "" : where});
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
  const accuseButton = () => button("Accuse…", () => { ui.mode = "accuse"; ui.picks = {}; render(ui.view, true); }, "ghost");
  const endButton = (primary) => actButton("End turn", {type: "end_turn"}, primary ? "primary" : "");

  // ---- the prompt -----------------------------------------------------------------------------

  function promptFor(v) {
    if (!v.stage || v.stage === "idle") {
      return {kind: "idle", title: "No game yet", body: [p("The host opens a game on the host page. This page follows it.")]};
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
      case "out": return {kind: "out", tone: "bad", title: "Wrong accusation",
        body: [p("You are out of the game. You still show cards when a suggestion names one of yours.")],
        actions: [endButton(true)]};
      default: return {kind: "turn", title: "Your turn", body: extras(v), actions: [accuseButton(), endButton(false)]};
    }
  }

  function setupPrompt(v) {
    const physical = v.settings && v.settings.deal === "physical";
    const body = [p(physical ? "Tap each of your cards on your seat's pad. They appear under Your cards." : "The companion deals the cards when the game starts.")];
    const scanned = v.scanned || {};
    if (physical && Object.keys(scanned).length) {
      body.push(E("ul", {class: "scan-list"}, (v.seats || []).map((seat) =>
        E("li", {class: seat === ME ? "me" : ""}, E("span", {}, seat), E("span", {class: "count"}, String(scanned[seat] || 0) + " cards")))));
    }
    for (const problem of v.problems || []) body.push(E("p", {class: "problem"}, problem));
    const actions = v.ready ? [actButton("Start game", {type: "start"}, "primary big")] : [];
    if (!v.ready) body.push(p(E("span", {class: "muted"}, "Waiting until every card is scanned.")));
    else body.push(p(E("span", {class: "muted"}, "Start once everyone has joined, or wait for the host.")));
    return {kind: "setup", title: "Setting up", body, actions};
  }

  function overPrompt(v) {
    const sol = v.solution;
    const title = v.winner === ME ? "You solved it!" : v.winner ? v.winner + " wins" : "Nobody solved it";
    const body = [];
    if (sol) {
      body.push(p("It was ", b(sol.suspect), " with ", b(the(sol.weapon)), " in ", b(the(sol.room)), "."));
      body.push(E("div", {class: "cards solution"}, [sol.suspect, sol.weapon, sol.room].map((c) => cardTile(v, c, {static: true}))));
    }
    body.push(E("p", {class: "muted"}, "The host opens the next game from the host page."));
    return {kind: "over", tone: v.winner === ME ? "good" : "", title, body};
  }

  function suggestionLine(s) {
    return [b(s.suspect), " with ", b(the(s.weapon)), " in ", b(the(s.room))];
  }

  function showPrompt(v, s) {
    const mayShow = v.may_show || [];
    if (!mayShow.length) {
      return {kind: "pass", tone: "ask", title: "You are asked", body: [p(s.suggester, " suggests ", ...suggestionLine(s), "."), p("You have none of these.")],
        actions: [actButton("I have none of these", {type: "pass"}, "primary big")]};
    }
    return {kind: "show", tone: "ask", title: "Show " + s.suggester + " a card",
      body: [p(...suggestionLine(s), ". Pick one card to show: only ", b(s.suggester), " sees it."),
        E("div", {class: "cards pick-cards"}, mayShow.map((card) => cardTile(v, card, {onclick: () => act({type: "show", card}), act: true})))]};
  }

  function suggestionWait(v, s) {
    if (s.suggester === ME) {
      return {kind: "wait-card", title: "Waiting for a card", body: [p("You suggested ", ...suggestionLine(s), "."), p(b(s.asked || "Someone"), " is choosing a card to show you.")]};
    }
    const mine = [s.suspect, s.weapon, s.room].filter((c) => (v.hand || []).includes(c));
    const body = [p(s.suggester, " suggests ", ...suggestionLine(s), "."), p(b(s.asked || "Someone"), " is being asked to show a card.")];
    if (mine.length) body.push(E("p", {class: "muted"}, "You hold " + mine.join(" and ") + "."));
    return {kind: "wait-suggest", title: s.suggester + " suggests", body};
  }

  function waitPrompt(v) {
    const words = {start: "is about to roll", moving: "is moving", moved: "has moved", suggested: "is deciding what to do next",
      out: "made a wrong accusation"};
    const body = [p(b(v.turn || "Someone"), " " + (words[v.phase] || "is playing") + ".")];
    if ((v.eliminated || []).includes(ME)) body.push(E("p", {class: "muted"}, "You are out: you still show cards when asked."));
    body.push(...extras(v));
    return {kind: "wait", title: v.turn ? v.turn + "'s turn" : "Waiting", body};
  }

  function dice(v) {
    if (!v.dice || !v.dice.length) return null;
    return E("div", {class: "dice", "aria-label": "Dice: " + v.dice.join(", ")}, v.dice.map((f) => E("span", {class: "die"}, String(f))));
  }

  function rollPrompt(v) {
    const physical = v.settings && v.settings.dice === "physical";
    const count = Math.max(1, Number(v.dice_count) || 1);
    const body = [];
    const here = (v.position || {})[ME];
    if (here) body.push(p("You are ", b(whereIs(here)), "."));
    if (physical) {
      body.push(p(count > 1 ? "Roll the dice and enter what they show:" : "Roll the die and enter what it shows:"));
      const inputs = [];
      for (let i = 0; i < count; i++) {
        const question = v.question_die && i === count - 1;  // Doctor Who: this die shows "?" for 1
        const store = (event) => { ui.dice[i] = event.target.value; };
        inputs.push(question
          ? E("select", {class: "die-input question", "aria-label": "Die " + (i + 1) + " (the question die)", onchange: store},
            ["", "?", "2", "3", "4", "5", "6"].map((face) => E("option", {value: face, selected: (ui.dice[i] || "") === face ? "selected" : null}, face || "–")))
          : E("input", {type: "number", class: "die-input", min: 1, max: 6, inputmode: "numeric", placeholder: "1–6", "aria-label": "Die " + (i + 1),
            value: ui.dice[i] || null, oninput: store}));
      }
      body.push(E("div", {class: "dice-inputs"}, inputs));
    }
    const roll = () => {
      if (!physical) return act({type: "roll"});
      const faces = [];
      for (let i = 0; i < count; i++) faces.push(ui.dice[i] === "?" ? "?" : Number.parseInt(ui.dice[i], 10));
      if (faces.some((f) => f !== "?" && !(f >= 1 && f <= 6))) return Clue.toast("Enter what each die shows, from 1 to 6.", "error");
      return act({type: "roll", dice: faces}, () => { ui.dice = []; });
    };
    const passages = (v.legal_destinations || []).map((to) => actButton("Secret passage to " + the(to), {type: "move", to}, "wide"));
    if (passages.length) body.push(E("div", {class: "stack"}, passages));
    if (rooms(v).includes(here) && summoned(v)) {
      body.push(E("div", {class: "stack"}, button("Suggest here, in " + the(here), () => { ui.mode = "suggest"; ui.picks = {}; render(ui.view, true); }, "wide")));
    }
    body.push(...extras(v));
    return {kind: "roll", tone: "turn", title: "Your turn",
      actions: [button(physical ? "Send my roll" : "Roll", roll, "primary big"), accuseButton()], body};
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
    const body = [E("div", {class: "move-line"}, dice(v), E("span", {class: "moves"}, left === null || left === undefined ? "" : left + " to move"))];
    body.push(p("Tap a highlighted square or room on the board."));
    if (reachable.length) body.push(E("div", {class: "stack"}, reachable.map((to) => actButton("Go to " + the(to), {type: "move", to}, "wide"))));
    body.push(...extras(v));
    return {kind: "move", tone: "turn", title: "Move", body, actions: [button("Find me on the board", showBoard, "ghost")]};
  }

  function movedPrompt(v) {
    const here = (v.position || {})[ME] || "";
    const inRoom = rooms(v).includes(here);
    const body = [p("You are ", b(whereIs(here)), ".")];
    body.push(...extras(v));
    if (inRoom && !v.suggestion && v.must_suggest) {  // "If you entered a room, you must stop and ask"
      body.push(p("You entered ", b(the(here)), ": the rules say you must make a suggestion here now."));
      return {kind: "moved-room", tone: "turn", title: "In " + the(here), body,
        actions: [button("Suggest", () => { ui.mode = "suggest"; ui.picks = {}; render(ui.view, true); }, "primary big")]};
    }
    if (inRoom && !v.suggestion) {
      body.push(p("Make a suggestion here, accuse, or end your turn."));
      return {kind: "moved-room", tone: "turn", title: "In " + the(here), body,
        actions: [button("Suggest", () => { ui.mode = "suggest"; ui.picks = {}; render(ui.view, true); }, "primary big"), accuseButton(), endButton(false)]};
    }
    body.push(p("Accuse, or end your turn."));
    return {kind: "moved", tone: "turn", title: "Your move is done", body, actions: [endButton(true), accuseButton()]};
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
    for (const e of shown) body.unshift(p(b(e.by), " showed you:"), E("div", {class: "cards"}, cardTile(v, e.card, {static: true})));
    if (!shown.length && record.slice(from + 1).some((e) => e.type === "no_refutation")) body.unshift(E("p", {class: "big-line"}, "Nobody could show you a card!"));
    body.push(...extras(v));
    return {kind: "answered", tone: "turn", title: "Suggestion answered", body, actions: [endButton(true), accuseButton()]};
  }

  // Edition extras: snoop spaces, bonus cards, powers (offered when the view says they exist).
  function extras(v) {
    const out = [];
    const mine = v.turn === ME && v.stage === "playing";
    if (mine && v.snoop_at) {
      const others = (v.seats || []).filter((s) => s !== ME);
      out.push(E("div", {class: "extra"}, E("h3", {}, "Snoop"), E("div", {class: "grid"}, others.map((target) => actButton(target, {type: "snoop", target})))));
    }
    if ((v.may_draw || []).includes(ME)) out.push(E("div", {class: "extra"}, actButton("Draw a bonus card", {type: "draw"}, "wide")));
    const power = mine && v.powers && v.powers[ME];
    if (power && !power.used) {
      out.push(E("div", {class: "extra"}, actButton("Use your power: " + power.name, {type: "use_power"}, "wide"), E("p", {class: "muted small"}, power.text)));
    }
    const held = mine && v.bonus && v.bonus.held ? v.bonus.held[ME] || [] : [];
    if (held.length) out.push(E("div", {class: "extra"}, E("h3", {}, "Your bonus cards"), E("div", {class: "grid"}, held.map((id) => actButton("Play " + id, {type: "play_card", card_id: id})))));
    return out;
  }

  function picker(v, label, kind, options) {
    const facts = known(v);
    return E("fieldset", {class: "picker"}, E("legend", {}, label), E("div", {class: "grid"}, options.map((card) => {
      const mark = markOf(card, facts);
      const chosen = ui.picks[kind] === card;
      return tint(E("button", {type: "button", class: "pick mark-" + (mark.mark || "none") + (chosen ? " chosen" : ""), "aria-pressed": chosen ? "true" : "false",
        onclick: () => { ui.picks[kind] = chosen ? undefined : card; render(ui.view, true); }},
      E("span", {class: "pick-name"}, card), mark.mark ? E("span", {class: "pick-mark", "aria-label": MARK_WORDS[mark.mark]}, GLYPH[mark.mark]) : null), card, kind);
    })));
  }

  const cancelButton = () => button("Cancel", () => { ui.mode = null; ui.picks = {}; render(ui.view, true); }, "ghost");

  function suggestPrompt(v) {
    const room = (v.position || {})[ME];
    const {suspect, weapon} = ui.picks;
    const ready = Boolean(suspect && weapon);
    const go = actButton(ready ? "Suggest " + suspect + " with " + the(weapon) : "Pick who and what", {type: "suggest", suspect, weapon}, "primary big",
      () => { ui.mode = null; ui.picks = {}; });
    go.disabled = !ready || ui.busy;
    return {kind: "suggest", tone: "turn", title: "Suggest in " + the(room || "room"),
      body: [picker(v, "Who?", "suspect", cards(v).suspects || []), picker(v, "With what?", "weapon", cards(v).weapons || [])],
      actions: [go, cancelButton()]};
  }

  function accusePrompt(v) {
    const {suspect, weapon, room} = ui.picks;
    const ready = Boolean(suspect && weapon && room);
    const next = button("Accuse…", () => { ui.mode = "confirm"; render(ui.view, true); }, "danger big");
    next.disabled = !ready || ui.busy;
    return {kind: "accuse", tone: "bad", title: "Accuse",
      body: [E("p", {class: "muted"}, "Only when you are sure: a wrong accusation puts you out."),
        picker(v, "Who?", "suspect", cards(v).suspects || []), picker(v, "With what?", "weapon", cards(v).weapons || []),
        picker(v, "Where?", "room", rooms(v))],
      actions: [next, cancelButton()]};
  }

  function confirmPrompt(v) {
    const {suspect, weapon, room} = ui.picks;
    if (!(suspect && weapon && room)) { ui.mode = "accuse"; return accusePrompt(v); }
    return {kind: "confirm", tone: "bad", title: "Are you sure?",
      body: [E("p", {class: "big-line"}, "Accuse ", b(suspect), " with ", b(the(weapon)), " in ", b(the(room)), "?"),
        p("A wrong accusation puts you out.")],
      actions: [actButton("Accuse", {type: "accuse", suspect, weapon, room}, "danger big", () => { ui.mode = null; ui.picks = {}; }),
        button("Back", () => { ui.mode = "accuse"; render(ui.view, true); }, "ghost")]};
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
    Clue.replace($("prompt"), putBackWarning(), handle,
      ui.dockMin ? null : E("div", {class: "dock-body"}, prompt.body || []),
      ui.dockMin || !(prompt.actions || []).length ? null : E("div", {class: "dock-actions"}, prompt.actions));
  }

  // ---- header, alerts ------------------------------------------------------------------------

  function renderHead(v) {
    if (!changed("head", v.turn, v.phase, v.stage, v.eliminated, v.winner, v.link)) return;
    $("me-dot").style.background = colourOf(ME);
    const out = (v.eliminated || []).includes(ME);
    let line;
    if (v.stage === "setup") line = "Setting up";
    else if (v.stage === "over" || v.phase === "over") line = "Game over";
    else if (!v.stage || v.stage === "idle") line = "No game";
    else if (v.turn === ME) line = E("span", {class: "your-turn"}, "Your turn");
    else line = (v.turn || "Someone") + "'s turn";
    Clue.replace($("turn-line"), line, out ? E("span", {class: "out-tag"}, " · out") : null);
    const linkPill = $("link-pill");
    linkPill.classList.toggle("hidden", !v.link || v.link === "none");
    linkPill.firstElementChild.className = "status-dot " + (v.link === "up" ? "up" : "down");
    linkPill.lastElementChild.textContent = v.link === "up" ? "Board" : "Board lost";
    linkPill.title = v.link === "up" ? "Board connected" : "Board disconnected: searching";
  }

  function setStream(status) {
    const pill = $("sse-pill");
    pill.firstElementChild.className = "status-dot " + (status === "live" ? "up" : "down");
    pill.lastElementChild.textContent = status === "live" ? "Live" : "Reconnecting…";
    pill.classList.toggle("warn", status !== "live");
  }

  // The board saw this seat's own mover in the wrong place: the table and the handheld say so, and
  // so does this phone, in the dock (always on screen, even scrolled down to the board) until the
  // board matches. The table leaves it as this seat's "put_back" notice; a later notice may replace
  // that, so it is kept here for as long as the board's corrections still list it.
  function followPutBack(v) {
    const corrections = (v.board && v.board.corrections) || [];
    if (v.notice && v.notice.code === "put_back" && corrections.includes(v.notice.text)) ui.myPutBack = v.notice.text;
    if (!corrections.includes(ui.myPutBack)) ui.myPutBack = "";
  }

  function putBackWarning() {
    if (!ui.myPutBack) return null;
    return E("div", {class: "put-back", role: "alert"},
      E("div", {class: "put-back-title"}, "Your mover is in the wrong place"),
      E("p", {class: "put-back-text"}, Clue.placeText(sentence(ui.myPutBack), ui.words)),
      E("p", {class: "small"}, "The game waits until the board matches."));
  }

  function renderAlerts(v, force) {
    const corrections = (v.board && v.board.corrections) || [];
    let notice = v.notice;
    if (notice && notice.text === ui.refusal.text && Date.now() - ui.refusal.at < 10000) ui.noticeGone.add(notice.id);
    if (notice && notice.code === "board_mismatch" && !(v.board && v.board.waiting)) notice = null;  // the board matches again
    if (notice && (ui.noticeGone.has(notice.id) || corrections.includes(notice.text))) notice = null;
    if (!changed("alerts", corrections, notice, ui.myPutBack, ui.wordsReady) && !force) return;
    const items = [];
    if (corrections.length) {
      items.push(E("div", {class: "alert big", role: "alert"}, E("div", {class: "alert-title"}, "Put the board right"),
        corrections.map((text) => E("p", {class: text === ui.myPutBack ? "mine" : ""},
          text === ui.myPutBack ? E("strong", {}, "Your mover: ") : null, Clue.placeText(text, ui.words))),
        E("p", {class: "small"}, "The game waits until the board matches.")));
    }
    if (notice) {
      const big = notice.code === "put_back";
      const id = notice.id;
      items.push(E("div", {class: "alert " + (big ? "big" : "info"), role: big ? "alert" : "status"},
        E("p", {}, sentence(notice.text)),
        E("button", {type: "button", class: "alert-close", "aria-label": "Dismiss", onclick: () => { ui.noticeGone.add(id); renderAlerts(ui.view, true); }}, "×")));
      if (!big) setTimeout(() => { ui.noticeGone.add(id); if (ui.view) renderAlerts(ui.view, true); }, 12000);
    }
    Clue.replace($("alerts"), items);
  }

  // ---- hand, shown, log ----------------------------------------------------------------------

  function cardTile(v, card, opts) {
    const o = opts || {};
    const kind = kindOf(v, card);
    const hl = !o.static && !o.act && notebook.data.hl.includes(card);
    const labels = {suspect: "Suspect", weapon: "Weapon", room: "Room", other: "Card"};
    const attrs = {class: "card kind-" + kind + (hl ? " hl" : "") + (o.faceUp ? " face-up-card" : "") + (o.act ? " act" : "")};
    const inner = [E("span", {class: "card-kind"}, labels[kind]), E("span", {class: "card-name"}, card),
      o.faceUp ? E("span", {class: "card-tag"}, "face up") : null];
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
      E("p", {class: "muted"}, v.stage === "setup" ? "Your cards appear here as you scan them." : "You hold no cards."));
    Clue.replace($("face-up"), (v.face_up || []).map((c) => cardTile(v, c, {faceUp: true, static: true})));
    $("hand-sec").classList.toggle("hidden", !v.stage || v.stage === "idle");
    $("hand-hint").classList.toggle("hidden", !hand.length || v.stage === "setup");
    $("hand-title").textContent = v.stage === "setup" ? "Cards scanned" : "Your cards";
  }

  function renderShown(v) {
    if (!changed("shown", v.shown_to_me, v.seen, v.stage)) return;
    $("shown-sec").classList.toggle("hidden", v.stage !== "playing" && v.stage !== "over");
    const items = [];
    for (const s of (v.shown_to_me || []).slice().reverse()) items.push(E("li", {}, b(s.by), " showed you ", E("span", {class: "card-chip"}, s.card)));
    for (const s of (v.seen || []).slice().reverse()) {
      items.push(E("li", {}, s.from === "aside" ? "Side card " + ((s.index || 0) + 1) + ": " : ["You snooped on ", b(s.from), ": "], E("span", {class: "card-chip"}, s.card)));
    }
    Clue.replace($("shown"), items.length ? items : E("li", {class: "muted"}, "Nobody has shown you a card yet."));
  }

  function renderLog(v, force) {
    const log = v.log || [];
    $("log-sec").classList.toggle("hidden", !log.length);
    $("log-hint").textContent = log.length ? log[log.length - 1] : "";
    if (!ui.folds.log) return;
    if (!changed("log", log.length, log[log.length - 1], ui.logAll) && !force) return;
    const lines = log.slice().reverse();
    const shown = ui.logAll ? lines : lines.slice(0, LOG_SHORT);
    Clue.replace($("log"), shown.map((line) => E("li", {class: line.includes(ME) ? "mine" : ""}, line)));
    $("log-more").hidden = ui.logAll || lines.length <= LOG_SHORT;
  }

  // ---- notebook --------------------------------------------------------------------------------

  function renderNotebook(v, force) {
    const playing = v.stage === "playing" || v.stage === "over";
    $("notebook-sec").classList.toggle("hidden", !playing || !v.edition_cards);
    if (!playing || !v.edition_cards) return;
    const facts = known(v);
    const groups = [["Suspects", cards(v).suspects || []], ["Weapons", cards(v).weapons || []], ["Rooms", rooms(v)]];
    const open = groups.map(([, list]) => list.filter((c) => !["x", "check"].includes(markOf(c, facts).mark)).length);
    $("notebook-hint").textContent = open.join(" · ") + " still open";
    if (!ui.folds.notebook) return;
    if (!changed("notebook", facts, notebook.key, notebook.data, v.edition_cards, v.seats, v.assistant) && !force) return;
    const others = (v.seats || []).filter((s) => s !== ME);
    Clue.replace($("notebook"), groups.map(([title, list], g) => E("div", {class: "nb-group"},
      E("h3", {}, title, E("span", {class: "nb-open"}, open[g] + " of " + list.length + " open")),
      list.map((card) => notebookRow(card, facts, others, v.assistant)))));
    const summary = assistantLine(v.assistant);
    if (summary) $("notebook").prepend(summary);
  }

  const pct = (p) => (p > 0 && p < 0.01 ? "<1" : Math.round(p * 100)) + "%";

  // The assistant's verdict on the whole envelope, above the notebook.
  function assistantLine(a) {
    if (!a || a.error) return a && a.error ? E("p", {class: "nb-assist"}, "Assistant: " + a.error) : null;
    if (a.can_accuse) return E("p", {class: "nb-assist sure"}, "Assistant: you can accuse now: " + a.accusation.join(", ") + ".");
    if (a.mode === "probabilities") return E("p", {class: "nb-assist"}, "Assistant: likeliest envelope " + a.best_accusation.join(", ") + " (" + pct(a.accuse_chance) + ").");
    return E("p", {class: "nb-assist"}, "Assistant: what is certain is shown on each card.");
  }

  // The assistant's word on one card: where it certainly is, or its chances.
  function assistantHint(a, card) {
    if (!a || a.error) return null;
    const where = a.certain[card];
    if (where === "envelope") return "assistant: in the envelope!";
    if (where) return null;  // already in the card's "why"
    if (a.mode === "probabilities" && a.cards && a.cards[card]) {
      const parts = Object.entries(a.cards[card]).filter(([, p]) => p > 0).sort((x, y) => y[1] - x[1]);
      return "assistant: " + parts.map(([place, p]) => place + " " + pct(p)).join(" · ");
    }
    const not = (a.impossible[card] || []).filter((place) => place !== ME);
    return not.length ? "assistant: not " + not.join(", ") : null;
  }

  function notebookRow(card, facts, others, assistant) {
    const fact = facts[card];
    const {mark, auto} = markOf(card, facts);
    const who = notebook.data.who[card] || (fact && fact.who) || "";
    const select = E("select", {class: "nb-who", "aria-label": "Who has " + card,
      onchange: (event) => { notebook.data.who[card] = event.target.value; notebook.save(); }},
    E("option", {value: ""}, "who?"), others.map((s) => E("option", {value: s}, s)));
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
      E("span", {class: "nb-name"}, card, fact ? E("small", {class: "nb-why"}, fact.why) : null,
        assistantHint(assistant, card) ? E("small", {class: "nb-why nb-hint"}, assistantHint(assistant, card)) : null),
      select,
      E("button", {type: "button", class: "nb-mark", onclick: cycle, "aria-label": card + ": " + MARK_WORDS[mark] + ". Tap to change."}, GLYPH[mark]));
  }

  // ---- board --------------------------------------------------------------------------------

  const board = {drawn: null, loading: false, edition: null, failed: false};

  function renderBoard(v) {
    $("board-sec").classList.toggle("hidden", !v.edition);
    const here = (v.position || {})[ME];
    if (changed("board-hint", here, ui.wordsReady)) Clue.replace($("board-hint"), here ? ["you are ", whereIs(here)] : []);
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
      Clue.replace($("board"), E("p", {class: "muted"}, "The board drawing is not available."));
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
      Clue.replace($("board"), E("p", {class: "muted"}, "The board could not be drawn: " + err.message));
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
    $("board-zoom").textContent = on ? "Whole board" : "Zoom in";
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
    window.scrollBy({top: centre - (top + bottom) / 2, behavior: "smooth"});
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
      btn.textContent = "Tap again to clear";
      clearArmed = setTimeout(() => { clearArmed = null; btn.textContent = "Clear my marks"; }, 3000);
      return;
    }
    clearTimeout(clearArmed);
    clearArmed = null;
    btn.textContent = "Clear my marks";
    notebook.data.marks = {};
    notebook.data.who = {};
    notebook.save();
    if (ui.view) render(ui.view, true);
  });

  // Keep the page's last lines clear of the dock, whatever its height.
  if (typeof ResizeObserver !== "undefined") {
    new ResizeObserver(() => document.documentElement.style.setProperty("--dock-h", $("dock").offsetHeight + "px")).observe($("dock"));
  }

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
