// The public table page (/): the board, whose turn, the dice, the suggestion, the public log,
// the board link and the "put it back" corrections. It only ever shows the public view.
// Every name (players, cards, places, log lines) goes in with textContent (Clue.el), never markup.
// Words are in the page's language (Clue._); names are the view's (Clue.cardName). Without ?lang= the
// page follows the table: when the host picks another language, it loads itself again (followTable).
"use strict";
(() => {
  const {el, replace, _} = Clue;
  const $ = (id) => document.getElementById(id);
  const LOG_LINES = 12;
  const NOTICE_MS = 9000;
  const RELOADED = "clue-table-reloaded-for";  // sessionStorage: {locale, tries} of this tab's last reload for the table
  const RELOAD_TRIES = 4;
  const RELOAD_WAIT_MS = 2000;  // more than the server's second of trusting the table's locale (web/context.py)

  let board = null;          // the ClueBoard drawn
  let boardLoading = null;   // the edition being loaded
  let boardFailedAt = 0;     // when the board last could not be had (tried again a few seconds later)
  let lastView = null;
  let lastNoticeId = null;
  let seenFirstView = false;
  let noticeTimer = null;
  let lastDice = "";
  let reloadTimer = null;

  // ---- words ------------------------------------------------------------------------------------

  const english = Clue.i18n.language === "en";

  // A room's name for "In {room}": English says "the Lounge", the translations carry their own article.
  function theRoom(view, room) {
    const name = Clue.cardName(view, room);
    return english && !/^the /i.test(name) ? "the " + name : name;
  }

  function named(view, identity) {
    return Clue.cardName(view, identity);
  }

  // A sentence from the companion: a plain string, or {template, args, text} (translated here,
  // card names in its args spelled as the view writes them).
  function said(view, item) {
    return Clue.sentence(item, (identity) => named(view, identity));
  }

  // The drawn edition's places in words ("in the corridor by the Lounge door"), once it is drawn.
  function words() {
    return (board && board.data.words) || {};
  }

  function isRoom(view, place) {
    const rooms = (view.edition_cards && view.edition_cards.rooms) || (board && board.data.rooms) || [];
    return rooms.includes(place);
  }

  function total(dice) {
    return (dice || []).reduce((a, b) => a + b, 0);
  }

  // The phase in words, for the player on turn.
  function phaseWords(view) {
    const who = view.turn;
    const here = view.position ? view.position[who] : null;
    switch (view.phase) {
      case "start":
        return view.snoop_at ? _("May snoop, then roll the dice.") : _("About to roll the dice.");
      case "moving": {
        const n = view.moves_left != null ? view.moves_left : total(view.dice);
        return n === 1 ? _("Rolled {total}: moving up to 1 square.", {total: total(view.dice)})
          : _("Rolled {total}: moving up to {count} squares.", {total: total(view.dice), count: n});
      }
      case "moved":
        // Translators: {room} is a room's name (in English with its "the": "In the Lounge").
        if (here && isRoom(view, here)) return _("In {room}: may make a suggestion, accuse, or end the turn.", {room: theRoom(view, here)});
        if (here && english && words()[here]) return ["Now ", ...Clue.where(here, words()), ": may accuse or end the turn."];
        return here ? _("Now on square {square}: may accuse or end the turn.", {square: here})
          : _("Has moved: may accuse or end the turn.");
      case "refuting": {
        const asked = view.suggestion && view.suggestion.asked;
        return asked ? _("Made a suggestion: {name} is being asked.", {name: named(view, asked)})
          : _("Made a suggestion: asking the table.");
      }
      case "suggested":
        return _("The suggestion is settled: may accuse or end the turn.");
      case "out":
        return _("Accused wrongly and is out: ending the turn.");
      case "over":
        return _("The game is over.");
      default:
        return view.phase ? String(view.phase).replace(/_/g, " ") + "." : "";
    }
  }

  // ---- small pieces of page ---------------------------------------------------------------------

  // A suspect's disc: its colour and the same two letters as its mover on the board.
  function disc(view, name, big) {
    const colour = ClueBoard.colourOf(name);
    const letters = board ? board.initials(view) : {};
    const node = el("span", {class: "tp-disc" + (big ? " big" : ""), "aria-hidden": "true"},
      letters[name] || ClueBoard.initials(named(view, name)));
    node.style.background = colour;
    node.style.color = ClueBoard.inkOn(colour);
    return node;
  }

  function card(view, kind, name) {
    const label = {suspect: _("Suspect"), weapon: _("Weapon"), room: _("Room")}[kind] || _("Card");
    return el("div", {class: "tp-card tp-card-" + kind},
      kind === "suspect" ? disc(view, name) : el("span", {class: "tp-card-icon", "aria-hidden": "true"}, kind === "weapon" ? "\u2694" : "\u2302"),
      el("span", {class: "tp-card-text"}, el("span", {class: "tp-card-kind"}, label), el("span", {class: "tp-card-name"}, named(view, name))));
  }

  function cardKind(view, name) {
    const cards = view.edition_cards || {};
    if ((cards.suspects || []).includes(name)) return "suspect";
    if ((cards.weapons || []).includes(name)) return "weapon";
    if ((cards.rooms || []).includes(name)) return "room";
    return "other";
  }

  const PIPS = {1: [[50, 50]], 2: [[28, 28], [72, 72]], 3: [[26, 26], [50, 50], [74, 74]],
    4: [[28, 28], [72, 28], [28, 72], [72, 72]], 5: [[27, 27], [73, 27], [50, 50], [27, 73], [73, 73]],
    6: [[28, 24], [72, 24], [28, 50], [72, 50], [28, 76], [72, 76]]};

  function die(value) {
    const ns = "http://www.w3.org/2000/svg";
    const svg = document.createElementNS(ns, "svg");
    svg.setAttribute("viewBox", "0 0 100 100");
    svg.setAttribute("class", "tp-die" + (value ? "" : " blank"));
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", value ? _("a die showing {value}", {value}) : _("a die not rolled yet"));
    const face = document.createElementNS(ns, "rect");
    for (const [k, v] of Object.entries({x: 4, y: 4, width: 92, height: 92, rx: 18, class: "tp-die-face"})) face.setAttribute(k, v);
    svg.append(face);
    const pips = PIPS[value];
    if (pips) {
      for (const [cx, cy] of pips) {
        const pip = document.createElementNS(ns, "circle");
        pip.setAttribute("cx", cx); pip.setAttribute("cy", cy); pip.setAttribute("r", 9.5);
        pip.setAttribute("class", "tp-pip");
        svg.append(pip);
      }
    } else if (value) {  // not a six-sided value: the number itself
      const text = document.createElementNS(ns, "text");
      for (const [k, v] of Object.entries({x: 50, y: 54, class: "tp-die-number"})) text.setAttribute(k, v);
      text.textContent = String(value);
      svg.append(text);
    }
    return svg;
  }

  function show(id, visible) {
    $(id).classList.toggle("hidden", !visible);
  }

  // ---- the status bar and banners ------------------------------------------------------------

  const LINK_WORDS = {up: _("Board connected"), down: _("Board disconnected — searching"), none: _("No board")};

  function renderLink(view) {
    const link = LINK_WORDS[view.link] ? view.link : "none";
    const pill = $("link-status");
    pill.className = "tp-pill link-" + link;
    pill.querySelector(".status-dot").className = "status-dot " + (link === "up" ? "up" : link === "down" ? "down" : "");
    pill.querySelector(".tp-pill-text").textContent = LINK_WORDS[link];
  }

  function onStatus(status) {
    const pill = $("stream-status");
    const words = {live: _("Live"), reconnecting: _("Reconnecting…"), closed: _("Disconnected"), connecting: _("Connecting…")};
    pill.className = "tp-pill " + status;
    pill.querySelector(".status-dot").className = "status-dot " + (status === "live" ? "up" : status === "closed" ? "down" : "");
    pill.querySelector(".tp-pill-text").textContent = words[status] || status;
    show("reconnecting", status === "reconnecting" || status === "closed");
    $("reconnecting").textContent = status === "closed"
      ? _("Lost the companion. Reload the page to try again.")
      : _("Lost the companion — reconnecting…");
  }

  function renderCorrections(view) {
    const fixes = (view.board && view.board.corrections) || [];
    replace($("corrections-list"), fixes.map((fix) => el("li", {}, english ? Clue.placeText(said(view, fix), words()) : said(view, fix))));
    show("corrections", fixes.length > 0);
    document.body.classList.toggle("tp-has-corrections", fixes.length > 0);
    $("corrections").querySelector(".tp-corrections-wait").classList.toggle("hidden", !(view.board && view.board.waiting));

    const differences = (view.board && view.board.differences) || [];
    replace($("differences"), differences.map((text) => el("li", {}, said(view, text))));
    show("differences-panel", differences.length > 0 && fixes.length === 0);
  }

  function renderNotice(view) {
    const notice = view.notice;
    const box = $("notice");
    const first = !seenFirstView;
    seenFirstView = true;
    // A computer player's move waits for a person: it stays up until the move is sensed.
    const sticky = Boolean(notice && notice.code === "bot_move");
    if (!sticky && box.classList.contains("sticky")) box.classList.remove("show", "sticky");
    if (sticky) {
      clearTimeout(noticeTimer);
      lastNoticeId = notice.id;
      box.textContent = said(view, notice);
      box.classList.add("show", "sticky");
      return;
    }
    if (!notice || !notice.text || notice.id === lastNoticeId) return;
    lastNoticeId = notice.id;
    if (first) return;  // what was said before this page opened is old news
    const fixes = (view.board && view.board.corrections) || [];
    if (notice.code === "put_back" && fixes.length) return;  // the big banner says it already
    box.textContent = said(view, notice);
    box.classList.add("show");
    clearTimeout(noticeTimer);
    noticeTimer = setTimeout(() => box.classList.remove("show"), NOTICE_MS);
  }

  // ---- stages ---------------------------------------------------------------------------------

  function renderIdle() {
    $("host-address").textContent = location.origin + "/host";
  }

  function renderSetup(view) {
    const physical = view.settings && view.settings.deal === "physical";
    $("setup-deal").textContent = physical
      ? _("Each player taps the cards of their hand on their pad; the leftover face-up cards go on the centre pad.")
      : _("The companion deals the cards when the game starts.");
    const problems = physical ? (view.problems || []) : [];
    replace($("problems"), problems.map((text) => el("li", {}, said(view, text))));
    const ready = view.ready !== false && problems.length === 0;
    $("setup-wait").textContent = ready
      ? _("Everything is ready: waiting for the host to start the game.")
      : _("Waiting for the host to start the game…");
    $("setup-wait").classList.toggle("ready", ready);
  }

  function renderOver(view) {
    $("winner").textContent = view.winner ? _("{name} wins!", {name: named(view, view.winner)}) : _("Nobody wins.");
    const winnerLine = $("winner");
    winnerLine.classList.toggle("nobody", !view.winner);
    const s = view.solution;
    if (s) {
      replace($("solution"), card(view, "suspect", s.suspect), card(view, "weapon", s.weapon), card(view, "room", s.room));
    } else {
      replace($("solution"), el("p", {class: "muted"}, _("The envelope has not been opened.")));
    }
    show("solution", true);
  }

  function renderTurn(view) {
    const who = view.turn;
    show("turn-panel", Boolean(who));
    if (!who) return;
    replace($("turn-disc"), disc(view, who, true));
    $("turn-name").textContent = named(view, who);
    replace($("phase"), phaseWords(view));
    const count = view.dice ? view.dice.length : (view.dice_count || 0);
    const diceKey = who + "|" + (view.dice ? view.dice.join(",") : "none " + count);
    if (diceKey !== lastDice) {  // only new dice are redrawn (and roll in)
      replace($("dice"), view.dice ? view.dice.map((n) => die(n)) : Array.from({length: count}, () => die(0)));
      $("dice").classList.toggle("rolled", Boolean(view.dice));
      lastDice = diceKey;
    }
    $("moves-left").textContent = view.phase === "moving" && view.moves_left != null
      ? (view.moves_left === 1 ? _("1 move") : _("{count} moves", {count: view.moves_left}))
      : view.dice ? _("Rolled {total}", {total: total(view.dice)}) : "";
  }

  function renderSuggestion(view) {
    const s = view.suggestion;
    show("suggestion-panel", Boolean(s));
    if (!s) return;
    $("suggestion-text").textContent = _("Suggestion by {name}", {name: named(view, s.suggester)});
    replace($("suggestion-cards"), card(view, "suspect", s.suspect), card(view, "weapon", s.weapon), card(view, "room", s.room));
    const asking = $("asking");
    if (s.asked && view.phase === "refuting") {
      replace(asking, el("span", {class: "tp-asking-dot", "aria-hidden": "true"}),
        _("Asking {name} to show a card", {name: named(view, s.asked)}));
    } else {
      replace(asking);
    }
  }

  function renderSeats(view) {
    const seats = view.seats || [];
    show("seats-panel", seats.length > 0);
    const setup = view.stage === "setup";
    const physical = view.settings && view.settings.deal === "physical";
    const eliminated = new Set(view.eliminated || []);
    const asked = view.suggestion && view.phase === "refuting" ? view.suggestion.asked : null;
    const powers = view.powers || {};
    replace($("seats"), seats.map((seat) => {
      const classes = ["tp-seat"];
      if (seat === view.turn) classes.push("on-turn");
      if (seat === asked) classes.push("asked");
      if (eliminated.has(seat)) classes.push("out");
      if (view.winner && seat === view.winner) classes.push("winner");
      let count = "";
      if (setup) {
        const scanned = (view.scanned || {})[seat] || 0;
        count = !physical ? "" : scanned === 1 ? _("1 card scanned") : _("{count} cards scanned", {count: scanned});
      } else if (view.hand_sizes && seat in view.hand_sizes) {
        count = cards(view.hand_sizes[seat]);
      }
      const badges = [];
      if (seat === view.winner) badges.push(el("span", {class: "tp-badge win"}, _("Winner")));
      else if (seat === view.turn) badges.push(el("span", {class: "tp-badge turn"}, _("On turn")));
      if (seat === asked) badges.push(el("span", {class: "tp-badge asked"}, _("Asked")));
      if (eliminated.has(seat)) badges.push(el("span", {class: "tp-badge out"}, _("Out")));
      const power = powers[seat];
      return el("li", {class: classes.join(" ")},
        disc(view, seat),
        el("span", {class: "tp-seat-main"},
          el("span", {class: "tp-seat-name"}, named(view, seat)),
          power ? el("span", {class: "tp-seat-power muted" + (power.used ? " used" : "")},
            power.used ? _("{power} (used)", {power: power.name}) : power.name) : null),
        el("span", {class: "tp-seat-badges"}, badges),
        el("span", {class: "tp-seat-count"}, count));
    }));
    const faceUp = view.face_up || [];
    show("face-up-box", faceUp.length > 0);
    replace($("face-up"), faceUp.map((name) => card(view, cardKind(view, name), name)));
    const bonus = view.bonus;
    show("bonus", Boolean(bonus));
    if (bonus) {
      const name = bonus.name || _("Bonus cards");
      $("bonus").textContent = bonus.pile === 1 ? _("{name}: 1 card left in the pile.", {name})
        : _("{name}: {count} cards left in the pile.", {name, count: bonus.pile});
    }
  }

  function cards(n) {
    return n === 1 ? _("1 card") : _("{count} cards", {count: n});
  }

  function renderLog(view) {
    const lines = (view.log || []).slice(-LOG_LINES).reverse();
    show("log-panel", view.stage !== "idle" && view.stage !== "setup");
    replace($("log"), lines.length
      ? lines.map((line, i) => el("li", {class: i === 0 ? "newest" : ""}, line))
      : [el("li", {class: "muted"}, _("Nothing yet."))]);
  }

  // ---- the board ------------------------------------------------------------------------------

  function ensureBoard(edition) {
    if (!edition) return;
    if (board && board.edition === edition) return;
    if (boardLoading === edition) return;
    boardLoading = edition;
    const container = $("board");
    ClueBoard.load(container, {edition}).then((drawn) => {
      board = drawn;
      boardFailedAt = 0;
      document.documentElement.style.setProperty("--board-w", String(drawn.data.width));
      document.documentElement.style.setProperty("--board-h", String(drawn.data.height));
      $("edition-name").textContent = drawn.data.name || "";
    }).catch((err) => {
      boardFailedAt = Date.now();
      setTimeout(() => { if (lastView) render(lastView); }, 5100);
      replace(container, el("p", {class: "tp-board-msg"}, _("The board could not be drawn: {problem}", {problem: err.message})));
    }).finally(() => {
      if (boardLoading === edition) boardLoading = null;
      if (lastView) render(lastView);
    });
  }

  function renderBoard(view) {
    if (!view.edition) return;
    if (!board || board.edition !== view.edition) {
      if (Date.now() - boardFailedAt > 5000) ensureBoard(view.edition);
      return;
    }
    const playing = view.stage === "playing";
    board.update(view, {highlight: playing ? (view.legal_destinations || []) : [], pickable: false});
  }

  // ---- one view -------------------------------------------------------------------------------

  // The shared screen speaks the table's language: when the host picks another, the page loads itself
  // again in it (the server chooses the page's words). Not when its address asks for a language (?lang=).
  // The server may still answer in the old language for a moment (it asks the table at most once a
  // second), so a reload that did not take is tried again a little later, a few times at most.
  function followTable(view) {
    const wanted = view.house && view.house.locale;
    if (!wanted || new URLSearchParams(location.search).has("lang")) return false;
    let last = null;
    try { last = JSON.parse(sessionStorage.getItem(RELOADED) || "null"); } catch (err) { /* no storage */ }
    if (wanted === Clue.i18n.locale) {
      if (last) try { sessionStorage.removeItem(RELOADED); } catch (err) { /* nothing kept */ }
      return false;
    }
    if (reloadTimer || !Clue.i18n.locales.includes(wanted)) return false;
    const tries = last && last.locale === wanted ? last.tries : 0;
    if (tries >= RELOAD_TRIES) return false;
    const reload = () => {
      try { sessionStorage.setItem(RELOADED, JSON.stringify({locale: wanted, tries: tries + 1})); } catch (err) { /* once */ }
      location.reload();
    };
    if (tries === 0) { reload(); return true; }
    reloadTimer = setTimeout(reload, RELOAD_WAIT_MS);
    return false;
  }

  function render(view) {
    if (followTable(view)) return;
    lastView = view;
    const stage = view.stage === "error" ? "error" : (view.stage || "idle");
    const main = $("table");
    main.className = "tp-main stage-" + stage;
    document.body.dataset.stage = stage;

    renderLink(view);
    renderCorrections(view);
    renderNotice(view);
    if (stage === "error") {
      const box = $("notice");
      const problem = view.error || _("unknown");
      box.textContent = _("The companion hit a problem: {problem}.", {problem});
      box.classList.add("show");
    }

    show("idle", stage === "idle");
    if (stage === "idle") { renderIdle(); $("edition-name").textContent = ""; }

    show("setup-panel", stage === "setup");
    if (stage === "setup") renderSetup(view);

    show("over-panel", stage === "over");
    if (stage === "over") renderOver(view);

    if (stage === "playing") renderTurn(view); else show("turn-panel", false);
    if (stage === "playing") renderSuggestion(view); else show("suggestion-panel", false);
    if (stage === "setup" || stage === "playing" || stage === "over") renderSeats(view); else show("seats-panel", false);
    renderLog(view);
    renderBoard(view);
  }

  // ---- start ----------------------------------------------------------------------------------

  function setUpFullscreen() {
    const button = $("fullscreen");
    if (!document.fullscreenEnabled) return;
    button.classList.remove("hidden");
    const label = () => {
      button.textContent = document.fullscreenElement ? _("Leave full screen") : _("Full screen");
      button.setAttribute("aria-label", button.textContent);
    };
    button.addEventListener("click", () => {
      const done = document.fullscreenElement ? document.exitFullscreen() : document.documentElement.requestFullscreen();
      Promise.resolve(done).catch(() => Clue.toast(_("Full screen is not allowed here."), "error"));
    });
    document.addEventListener("fullscreenchange", label);
    label();
  }

  // Keep a tablet's screen on while the page is shown (where the browser allows it).
  async function keepAwake() {
    try {
      if ("wakeLock" in navigator && document.visibilityState === "visible") await navigator.wakeLock.request("screen");
    } catch (err) { /* not allowed (plain http, battery saver): the screen may sleep */ }
  }

  setUpFullscreen();
  keepAwake();
  document.addEventListener("visibilitychange", keepAwake);
  onStatus("connecting");
  Clue.stream("/events/table", (view) => {
    try {
      render(view);
    } catch (err) {
      console.error(err);
      Clue.toast(_("Could not show the table: {problem}", {problem: err.message}), "error");
    }
  }, onStatus);
})();
