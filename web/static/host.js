// The host page (/host): login, new game, start/end, seat pairing QR codes, tag enrolment, resume, settings.
// Also drives the PIN form of host/login.html (shown on /host and /sim until the host logs in).
// Data goes into the page with Clue.el()/textContent only; the server's QR SVG is rebuilt from a whitelist.
"use strict";
(() => {
  const {el, replace, toast, busy, post, getJSON, _} = Clue;
  const botSeats = new Set();  // seats the host gave to computer players
  const $ = (id) => document.getElementById(id);

  // ---- shared bits --------------------------------------------------------------------------

  // A promise-based confirm dialog that matches the page (window.confirm is tiny on a TV).
  function confirmBox(title, text, okLabel, danger) {
    return new Promise((resolve) => {
      const previous = document.activeElement;
      const close = (answer) => {
        overlay.remove();
        document.removeEventListener("keydown", onKey, true);
        if (previous && previous.focus) previous.focus();
        resolve(answer);
      };
      const onKey = (event) => {
        if (event.key === "Escape") { event.preventDefault(); close(false); }
      };
      const ok = el("button", {type: "button", class: danger ? "danger" : "primary", onclick: () => close(true)}, okLabel || _("OK"));
      const overlay = el("div", {class: "confirm-overlay", role: "alertdialog", "aria-modal": "true", "aria-labelledby": "confirm-title"},
        el("div", {class: "confirm-box panel"},
          el("h2", {id: "confirm-title"}, title),
          text ? el("p", {}, text) : null,
          el("div", {class: "actions"},
            el("button", {type: "button", onclick: () => close(false)}, _("Cancel")),
            ok)));
      overlay.addEventListener("click", (event) => { if (event.target === overlay) close(false); });
      document.addEventListener("keydown", onKey, true);
      document.body.append(overlay);
      ok.focus();
    });
  }


  // ---- login --------------------------------------------------------------------------------

  function startLogin(form) {
    const input = $("pin");
    const button = $("login-button");
    const error = $("login-error");
    let timer = null;

    const showError = (message) => {
      error.textContent = message;
      error.classList.toggle("hidden", !message);
    };
    const wait = (seconds) => {
      clearInterval(timer);
      let left = Math.max(1, Math.ceil(seconds));
      button.disabled = true;
      const tick = () => {
        if (left <= 0) {
          clearInterval(timer);
          button.disabled = false;
          button.textContent = _("Log in");
          return;
        }
        button.textContent = _("Wait {seconds} s", {seconds: left});
        left -= 1;
      };
      tick();
      timer = setInterval(tick, 1000);
    };

    const retry = Number(error.dataset.retryAfter || 0);
    if (retry > 0) wait(retry);

    input.addEventListener("input", () => {
      const digits = input.value.replace(/\D+/g, "");
      if (digits !== input.value) input.value = digits;
    });
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const pin = input.value.trim();
      if (!/^\d{6,12}$/.test(pin)) {
        showError(_("The PIN is 6 to 12 digits."));
        input.focus();
        return;
      }
      button.disabled = true;
      showError("");
      try {
        await post("/host/login", {pin});
        button.textContent = _("Opening…");
        location.reload();
      } catch (err) {
        showError(err.message);
        toast(err.message, "error");
        input.value = "";
        input.focus();
        const match = err.code === "rate_limited" && /(\d+)\s*second/.exec(err.message);
        if (match) wait(Number(match[1]));
        else button.disabled = false;
      }
    });
  }

  // ---- the QR code: the server's SVG, rebuilt element by element from a whitelist ------------

  const SVG_NS = "http://www.w3.org/2000/svg";
  const SVG_TAGS = new Set(["svg", "g", "path", "rect"]);
  const SVG_ATTRS = new Set(["viewbox", "d", "fill", "stroke", "stroke-width", "width", "height", "x", "y", "transform", "class"]);

  function copySvg(source) {
    const tag = source.localName.toLowerCase();
    if (!SVG_TAGS.has(tag)) return null;
    const node = document.createElementNS(SVG_NS, tag);
    for (const attr of Array.from(source.attributes)) {
      const name = attr.name.toLowerCase();
      if (!SVG_ATTRS.has(name)) continue;
      if (/url\s*\(|javascript:/i.test(attr.value)) continue;
      node.setAttribute(name === "viewbox" ? "viewBox" : name, attr.value);
    }
    for (const child of Array.from(source.children)) {
      const copy = copySvg(child);
      if (copy) node.append(copy);
    }
    return node;
  }

  function qrNode(svgText, label) {
    const doc = new DOMParser().parseFromString(String(svgText || ""), "text/html");  // inert: no scripts run
    const source = doc.querySelector("svg");
    const svg = source ? copySvg(source) : null;
    if (!svg) return el("div", {class: "qr-missing"}, _("No QR code"));
    svg.removeAttribute("width");
    svg.removeAttribute("height");
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", label);
    svg.setAttribute("shape-rendering", "crispEdges");
    svg.setAttribute("preserveAspectRatio", "xMidYMid meet");
    return svg;
  }

  // ---- the host page ------------------------------------------------------------------------

  const STAGES = {
    idle: _("No game open"),
    setup: _("Setting up: waiting to start"),
    playing: _("Playing"),
    over: _("Game over"),
  };
  const PHASES = {
    start: _("about to roll"), moving: _("moving"), moved: _("moved"), refuting: _("waiting for a card to be shown"),
    suggested: _("after a suggestion"), out: _("out (wrong accusation)"), over: _("over"), setup: _("setting up"),
  };
  const LINKS = {up: _("Board connected"), down: _("Board disconnected — searching"), none: _("No board"),
    connecting: _("Board found — saying hello")};
  const BOARD_LINES = 5;  // the board's last log lines shown (the server keeps a few more)
  const SOURCES = {yours: _("yours"), correction: _("your correction")};  // an edition's source, when not bundled

  const state = {
    host: null,       // the last GET /api/host
    view: null,       // the last public view from /events/table
    editionsKey: "",
    seatsKey: "",
    viewKey: "",
    localesKey: "",
    namesKey: "",
    boxesKey: "",
    loading: null,
    again: false,
    newOpen: null,    // the host unfolded (true) the new-game form; null: fold it while a game is on
  };

  // A card or suspect (its identity) as the table writes it: the live view's names carry the house names.
  function cardName(identity) {
    return Clue.cardName(state.view, identity);
  }

  // A problem or notice: its template in the page's language when it has one (card names spelled), else its text.
  function said(item) {
    return Clue.sentence(item, cardName);
  }

  function editionName(id) {
    const editions = (state.host && state.host.editions) || [];
    const found = editions.find((e) => e.id === id);
    return found ? found.name : (id || "—");
  }

  async function refresh() {
    if (state.loading) { state.again = true; return state.loading; }
    state.loading = (async () => {
      try {
        const data = await getJSON("/api/host");
        state.host = data;
        render();
      } catch (err) {
        if (err.code === "host_login") { location.reload(); return; }
        toast(err.message, "error");
      } finally {
        state.loading = null;
        if (state.again) { state.again = false; refresh(); }
      }
    })();
    return state.loading;
  }

  function render() {
    renderGame();
    renderHouse();
    renderBoard();
    renderEditions();
    renderSeats();
    renderEnrolment();
    renderGames();
  }

  function fact(term, ...value) {
    return [el("dt", {}, term), el("dd", {}, ...value)];
  }

  function renderGame() {
    const host = state.host;
    const view = state.view || {};
    const stage = host.stage || view.stage || "idle";
    const facts = [fact(_("Stage"), el("span", {class: "stage stage-" + stage}, STAGES[stage] || stage))];
    if (host.edition) facts.push(fact(_("Edition"), editionName(host.edition)));
    if (host.game_id !== null && host.game_id !== undefined) facts.push(fact(_("Game"), "#" + host.game_id));
    const settings = host.settings || {};
    if (stage !== "idle" && settings.deal) {
      facts.push(fact(_("Cards"), settings.deal === "physical" ? _("real cards, scanned") : _("dealt by the companion")));
      facts.push(fact(_("Dice"), settings.dice === "physical" ? _("real dice") : _("rolled by the companion")));
      facts.push(fact(_("Assistant"), {certain: _("certain facts"), probabilities: _("with probabilities")}[settings.assistant] || _("off")));
    }
    if (stage === "playing" && host.turn) {
      facts.push(fact(_("Turn"), cardName(host.turn) + (PHASES[host.phase] ? " — " + PHASES[host.phase] : "")));
    }
    if (stage === "over" && view.winner) facts.push(fact(_("Winner"), cardName(view.winner)));
    const board = host.board || {};
    const link = board.state || host.link || view.link || "none";
    facts.push(fact(_("Board"), el("span", {id: "board-state"},
      el("span", {class: "status-dot " + (link === "up" ? "up" : link === "down" ? "down" : "")}), LINKS[link] || link)));
    replace($("game-facts"), facts.flat());

    // Setup: who has scanned how many cards, and what still stops the start.
    const box = $("game-problems");
    const parts = [];
    if (stage === "setup") {
      const problems = (view.stage === "setup" && Array.isArray(view.problems)) ? view.problems : (host.problems || []);
      const scanned = view.stage === "setup" ? view.scanned : null;
      if (settings.deal === "physical" && scanned) {
        parts.push(el("p", {class: "muted"}, _("Cards scanned:") + " ",
          (view.seats || []).flatMap((seat, i) => [i ? ", " : "", el("strong", {}, cardName(seat)), " " + (scanned[seat] || 0)])));
      }
      if (problems.length) {
        parts.push(el("div", {class: "problems", role: "status"},
          el("h3", {}, _("Before the start")),
          el("ul", {}, problems.map((p) => el("li", {}, said(p))))));
      } else {
        parts.push(el("p", {class: "ready"}, settings.deal === "physical" ? _("Every card is scanned: ready to start.") : _("Ready: the companion deals when you start.")));
      }
    }
    replace(box, parts);

    const start = $("start-game");
    start.classList.toggle("hidden", stage !== "setup");
    const blocked = stage === "setup" && settings.deal === "physical" &&
      ((view.stage === "setup" && Array.isArray(view.problems)) ? view.problems : (host.problems || [])).length > 0;
    start.disabled = blocked;
    start.title = blocked ? _("Scan every card first") : "";
    const end = $("end-game");
    end.classList.toggle("hidden", stage === "idle");
    end.textContent = stage === "over" ? _("Close game") : _("End game");
    renderNewToggle(stage);
  }

  // While a game is on the table the new-game form folds away (the seat codes matter more then).
  function renderNewToggle(stage) {
    const busyTable = stage === "playing" || stage === "setup";
    const collapsed = busyTable && state.newOpen !== true;
    const toggle = $("new-toggle");
    toggle.classList.toggle("hidden", !busyTable);
    toggle.textContent = collapsed ? _("Set up the next game") : _("Hide");
    toggle.setAttribute("aria-expanded", String(!collapsed));
    $("new-game").classList.toggle("hidden", collapsed);
    $("new-collapsed").classList.toggle("hidden", !collapsed);
    document.querySelector(".host-new").classList.toggle("collapsed", collapsed);

  }

  // ---- the table's language, house names and speech -----------------------------------------

  function renderHouse() {
    const host = state.host;
    const house = host.house || {locale: "en-US", house_names: {}, speech: false};
    const select = $("house-locale");
    const locales = host.locales || [];
    const key = JSON.stringify(locales);
    if (key !== state.localesKey) {
      state.localesKey = key;
      replace(select, locales.map((l) => el("option", {value: l.tag, lang: l.tag}, l.name)));
    }
    if (document.activeElement !== select) select.value = house.locale;
    renderBoxes(host.boxes || [], host.names_variant || null);
    const speech = $("house-speech");
    if (document.activeElement !== speech) speech.checked = Boolean(house.speech);
    renderHouseNames(host.deck, house.house_names || {}, host.house_name_most || 40);
  }

  // The boxes of names the table's locale offers (German 1986, from the 1990s on...): a choice only when there are two.
  function renderBoxes(boxes, chosen) {
    const select = $("house-boxes");
    const key = JSON.stringify(boxes);
    if (key !== state.boxesKey) {
      state.boxesKey = key;
      replace(select, boxes.map((b) => el("option", {value: b.id}, b.label)));
    }
    $("house-boxes-field").classList.toggle("hidden", boxes.length < 2);
    const current = boxes.find((b) => b.id === chosen) || boxes.find((b) => b.default);
    if (current && document.activeElement !== select) select.value = current.id;
  }

  // One row per card: the locale's spelling, and the house name that replaces it (empty: none).
  function renderHouseNames(cards, names, most) {
    const box = $("house-names");
    const key = JSON.stringify([cards, names]);
    if (key === state.namesKey || box.contains(document.activeElement)) return;
    state.namesKey = key;
    $("house-names-save").classList.toggle("hidden", !cards);
    if (!cards) {
      replace(box, el("p", {class: "muted"}, _("Open a game to name its cards.")));
      return;
    }
    const kinds = [["suspects", _("Suspects")], ["weapons", _("Weapons")], ["rooms", _("Rooms")]];
    replace(box, el("table", {class: "house-table"},
      el("thead", {}, el("tr", {}, el("th", {scope: "col"}, _("Card")), el("th", {scope: "col"}, _("House name")))),
      kinds.map(([kind, title]) => el("tbody", {},
        el("tr", {}, el("th", {scope: "colgroup", colspan: "2", class: "house-kind"}, title)),
        (cards[kind] || []).map((card) => el("tr", {},
          el("th", {scope: "row"}, card.spelled),
          el("td", {}, el("input", {type: "text", maxlength: String(most), "data-card": card.identity, value: names[card.identity] || "",
            placeholder: card.spelled, "aria-label": _("House name for {card}", {card: card.spelled})}))))))));
  }

  async function saveHouse(body, button) {
    const before = state.host && state.host.house ? state.host.house.locale : null;
    const done = await busy(button || null, () => post("/api/host/house", body));
    if (!done) { refresh(); return false; }
    // A host page that follows the table (no language of its own) changes language with it.
    if (body.locale && body.locale !== before && state.host && !state.host.own_locale) {
      location.reload();
      return true;
    }
    await refresh();
    return true;
  }

  async function saveHouseNames(event) {
    event.preventDefault();
    const names = {};
    for (const input of $("house-names").querySelectorAll("input[data-card]")) names[input.dataset.card] = input.value.trim();
    state.namesKey = "";  // drawn again from the saved names
    if (await saveHouse({house_names: names}, $("house-names-save"))) toast(_("House names saved."));
  }

  // ---- new game form ------------------------------------------------------------------------

  function currentEdition() {
    const editions = (state.host && state.host.editions) || [];
    return editions.find((e) => e.id === $("new-edition").value) || editions[0] || null;
  }

  function renderEditions() {
    const editions = state.host.editions || [];
    const key = JSON.stringify(editions);
    if (key === state.editionsKey) return;
    state.editionsKey = key;
    const select = $("new-edition");
    const previous = select.value || state.host.edition || (editions[0] && editions[0].id);
    replace(select, editions.map((e) => el("option", {value: e.id}, SOURCES[e.source] ? _("{edition} ({source})", {edition: e.name, source: SOURCES[e.source]}) : e.name)));
    if (editions.some((e) => e.id === previous)) select.value = previous;
    renderSeatPicker(true);
  }

  function renderSeatPicker(preselect) {
    const edition = currentEdition();
    const box = $("new-seats");
    if (!edition) { replace(box, el("p", {class: "muted"}, _("No editions."))); return; }
    const playing = new Set((state.host && state.host.edition === edition.id && state.host.seats || []).map((s) => s.seat));
    const chips = edition.suspects.map((suspect, index) => {
      const checked = preselect ? (playing.size ? playing.has(suspect) : index < Math.min(edition.max_players, Math.max(edition.min_players, 3))) : false;
      return el("label", {class: "chip"},
        el("input", {type: "checkbox", name: "seat", value: suspect, checked, onchange: updateSeatCount}),
        el("span", {}, cardName(suspect)));
    });
    replace(box, chips);
    const variants = edition.variants || [];
    $("variant-box").classList.toggle("hidden", variants.length === 0);
    replace($("new-variant"), el("option", {value: ""}, _("Standard rules")), variants.map((v) => el("option", {value: v}, v)));
    $("bonus-box").classList.toggle("hidden", !edition.bonus_cards);
    $("bonus-label").textContent = edition.bonus_cards
      ? _("Leave the {cards} in the box (original CLUE)", {cards: edition.bonus_cards + "s"})  // the edition's own name, plural
      : _("Leave the bonus cards in the box (original CLUE)");
    $("new-no-bonus").checked = false;
    updateSeatCount();
  }

  function chosenSeats() {
    return Array.from($("new-seats").querySelectorAll("input[name=seat]:checked")).map((input) => input.value);
  }

  function updateSeatCount() {
    const edition = currentEdition();
    if (!edition) return;
    const seats = chosenSeats();
    const ok = seats.length >= edition.min_players && seats.length <= edition.max_players;
    const count = $("seat-count");
    count.textContent = _("{count} chosen ({least} to {most})", {count: seats.length, least: edition.min_players, most: edition.max_players});
    count.classList.toggle("bad", !ok);
    $("seat-order").textContent = seats.length ? _("Clockwise: {seats}", {seats: seats.map(cardName).join(" → ")}) : "";
    renderBotSeats(seats);
    for (const input of $("new-seats").querySelectorAll("input[name=seat]")) {
      input.closest(".chip").classList.toggle("on", input.checked);
    }
  }

  // Seats a computer player takes: chosen among the ticked suspects.
  function renderBotSeats(seats) {
    for (const seat of Array.from(botSeats)) if (!seats.includes(seat)) botSeats.delete(seat);
    replace($("bot-seats"), seats.map((seat) => el("button", {type: "button", class: "chip" + (botSeats.has(seat) ? " on" : ""),
      "aria-pressed": String(botSeats.has(seat)),
      onclick: () => { if (botSeats.has(seat)) botSeats.delete(seat); else botSeats.add(seat); renderBotSeats(chosenSeats()); }},
    (botSeats.has(seat) ? "🤖 " : "") + cardName(seat))));
  }

  async function openGame(event) {
    event.preventDefault();
    const edition = currentEdition();
    if (!edition) return;
    const seats = chosenSeats();
    if (seats.length < edition.min_players || seats.length > edition.max_players) {
      toast(_("{edition} needs {least} to {most} players; {count} chosen.", {edition: edition.name, least: edition.min_players,
        most: edition.max_players, count: seats.length}), "error");
      return;
    }
    const form = $("new-game");
    const body = {
      edition: edition.id, seats,
      deal: form.querySelector("input[name=deal]:checked").value,
      dice: form.querySelector("input[name=dice]:checked").value,
      assistant: form.querySelector("input[name=assistant]:checked").value,
      bots: Object.fromEntries(seats.filter((seat) => botSeats.has(seat)).map((seat) => [seat, $("bot-level").value])),
    };
    const seedText = $("new-seed").value.trim();
    if (seedText) {
      if (!/^\d{1,18}$/.test(seedText)) { toast(_("The seed is a whole number (or leave it empty)."), "error"); return; }
      body.seed = Number(seedText);
    }
    const variant = $("new-variant").value;
    if (variant && (edition.variants || []).length) body.variant = variant;
    if (edition.bonus_cards && $("new-no-bonus").checked) body.bonus_cards = false;
    if ($("new-speech").checked) body.speech = true;
    const stage = state.host && state.host.stage;
    if (stage === "playing") {
      const ok = await confirmBox(_("End the game under way?"), _("A game is being played. End it for good (it cannot be resumed) and open the new one? Every phone must join again with the new codes."), _("End it and open new"), true);
      if (!ok) return;
    } else if (stage === "setup" || stage === "over") {
      const ok = await confirmBox(_("Open a new game?"), _("The game on the table is replaced and every phone must join again with the new codes."), _("Open new game"));
      if (!ok) return;
    }
    const done = await busy($("new-submit"), async () => {
      if (stage === "playing") await post("/api/host/end", {});
      return post("/api/host/new", body);
    });
    if (done) {
      toast(_("New game opened. Pair the phones, then start."));
      state.newOpen = null;
      await refresh();
      $("seats-title").scrollIntoView({behavior: "smooth", block: "start"});
    }
  }

  // ---- seat pairing -------------------------------------------------------------------------

  function renderSeats() {
    const seats = state.host.seats || [];
    const key = JSON.stringify([seats.map((s) => [s.seat, s.join_url, (s.phones || []).map((p) => p.phone)]),
      state.view && state.view.names]);  // house names change how the seats are written
    if (key === state.seatsKey) return;
    state.seatsKey = key;
    const box = $("seat-cards");
    if (!seats.length) {
      replace(box, el("p", {class: "muted"}, _("No seats yet: open a new game first.")));
      return;
    }
    replace(box, seats.map((seat) => el("article", {class: "seat-card" + (seat.joined ? " joined" : "")},
      el("header", {},
        el("h3", {class: "seat-name"}, cardName(seat.seat)),
        el("span", {class: "badge " + (seat.joined ? "good" : "")}, phonesLabel(seat.phones || []))),
      el("button", {type: "button", class: "qr-button", title: _("Show this code big"), "aria-label": _("Show the code for {seat} big", {seat: cardName(seat.seat)}),
        onclick: () => showBigQr(seat)}, qrNode(seat.qr_svg, _("QR code to join as {seat}", {seat: cardName(seat.seat)}))),
      el("p", {class: "join-url"}, el("a", {href: seat.join_url, target: "_blank", rel: "noopener noreferrer"}, seat.join_url)),
      el("div", {class: "actions"},
        el("button", {type: "button", onclick: () => showBigQr(seat)}, _("Show big")),
        el("button", {type: "button", onclick: (event) => copyUrl(event.currentTarget, seat.join_url)}, _("Copy")),
        el("button", {type: "button", class: "subtle-danger", onclick: (event) => revoke(event.currentTarget, seat.seat)}, _("Revoke and re-issue"))),
      phoneList(seat))));
  }

  function phonesLabel(phones) {
    if (!phones.length) return _("Not joined");
    return phones.length === 1 ? _("1 phone joined") : _("{count} phones joined", {count: phones.length});
  }

  // Each phone holding the seat, with a button to turn it away (one code may be scanned by several phones).
  function phoneList(seat) {
    const phones = seat.phones || [];
    if (!phones.length) return null;
    return el("ul", {class: "phones", "aria-label": _("Phones holding {seat}", {seat: cardName(seat.seat)})}, phones.map((phone, i) =>
      el("li", {},
        el("span", {}, _("Phone {number}, joined {time}", {number: i + 1, time: new Date(phone.joined * 1000).toLocaleTimeString(Clue.i18n.locale)})),
        el("button", {type: "button", class: "subtle-danger", "aria-label": _("Turn phone {number} away from {seat}", {number: i + 1, seat: cardName(seat.seat)}),
          onclick: (event) => kick(event.currentTarget, seat.seat, phone.phone, i + 1)}, _("Turn away")))));
  }

  async function kick(button, seat, phone, number) {
    const shown = cardName(seat);
    const ok = await confirmBox(_("Turn phone {number} away from {seat}?", {number, seat: shown}), _("That phone is logged out of {seat}; the seat's other phones stay. To join again it must scan the code.", {seat: shown}), _("Turn away"), true);
    if (!ok) return;
    if (await busy(button, () => post("/api/host/kick", {seat, phone}))) {
      toast(_("Phone {number} turned away from {seat}.", {number, seat: shown}));
      await refresh();
    }
  }

  async function copyUrl(button, url) {
    try {
      await navigator.clipboard.writeText(url);
      toast(_("Address copied."));
    } catch (err) {
      toast(_("Copying is not allowed here: select the address and copy it by hand."), "error");
    }
  }

  async function revoke(button, seat) {
    const shown = cardName(seat);
    const ok = await confirmBox(_("Revoke {seat}'s code?", {seat: shown}), _("The phone joined as {seat} is logged out and a new code is made. The player scans the new one.", {seat: shown}), _("Revoke and re-issue"), true);
    if (!ok) return;
    const done = await busy(button, () => post("/api/host/revoke", {seat}));
    if (done) {
      toast(_("New code for {seat}.", {seat: shown}));
      await refresh();
      const fresh = (state.host.seats || []).find((s) => s.seat === seat);
      if (fresh && !$("qr-overlay").classList.contains("hidden")) showBigQr(fresh);
    }
  }

  let overlayReturn = null;
  function showBigQr(seat) {
    const overlay = $("qr-overlay");
    if (overlay.classList.contains("hidden")) overlayReturn = document.activeElement;
    $("qr-overlay-title").textContent = _("Join as {seat}", {seat: cardName(seat.seat)});
    replace($("qr-overlay-code"), qrNode(seat.qr_svg, _("QR code to join as {seat}", {seat: cardName(seat.seat)})));
    $("qr-overlay-url").textContent = seat.join_url;
    overlay.classList.remove("hidden");
    $("qr-overlay-close").focus();
  }
  function hideBigQr() {
    $("qr-overlay").classList.add("hidden");
    if (overlayReturn && overlayReturn.focus) overlayReturn.focus();
  }

  // ---- enrolment, resume --------------------------------------------------------------------

  const KINDS = {suspect: _("Movers"), mover: _("Movers"), weapon: _("Weapons"), card: _("Cards")};

  function renderEnrolment() {
    const enrol = state.host.enrolment;
    const box = $("enrolment");
    if (!enrol) { replace(box, el("p", {class: "muted"}, _("No enrolment data."))); return; }
    const needed = enrol.needed || 0;
    const done = enrol.enrolled || 0;
    const percent = needed ? Math.round(100 * done / needed) : 100;
    const missing = enrol.missing || [];
    const groups = new Map();
    for (const piece of missing) {
      const kind = KINDS[piece.kind] || (piece.kind ? piece.kind[0].toUpperCase() + piece.kind.slice(1) : _("Other"));
      if (!groups.has(kind)) groups.set(kind, []);
      groups.get(kind).push(cardName(piece.name));
    }
    replace(box,
      el("p", {}, _("{done} of {needed} tags enrolled for {edition}", {done, needed, edition: editionName(enrol.edition)})),
      el("div", {class: "bar", role: "progressbar", "aria-valuemin": "0", "aria-valuemax": String(needed), "aria-valuenow": String(done),
        "aria-label": _("Tags enrolled")},
        el("div", {class: "bar-fill" + (percent >= 100 ? " full" : ""), style: `width: ${percent}%`})),
      missing.length
        ? [el("details", {class: "missing", open: missing.length <= 8},
            el("summary", {}, _("{count} still without a tag", {count: missing.length})),
            Array.from(groups, ([kind, names]) => el("div", {class: "missing-group"},
              el("h3", {}, kind),
              el("ul", {class: "name-list"}, names.map((name) => el("li", {}, name)))))),
          el("p", {class: "hint"}, _("To enrol them, stop the companion and run {command} on the Pi, then tap each piece on a reader as it asks.",
            {command: "clue-companion enroll"}))]
        : el("p", {class: "ready"}, _("Every piece and card has its tag.")));
  }

  function when(value) {
    if (value === null || value === undefined || value === "") return "";
    const date = typeof value === "number" ? new Date(value * (value < 1e12 ? 1000 : 1)) : new Date(value);
    if (Number.isNaN(date.getTime())) return String(value);
    return date.toLocaleString(Clue.i18n.locale, {weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit"});
  }

  function renderGames() {
    const games = state.host.games || [];
    const box = $("games");
    if (state.host.store === false) { replace(box, el("p", {class: "muted"}, _("Games are not being stored (no database)."))); return; }
    if (!games.length) { replace(box, el("p", {class: "muted"}, _("No interrupted games."))); return; }
    const current = state.host.game_id;
    replace(box, el("ul", {class: "game-list"}, games.map((game) => {
      const isCurrent = game.id === current && state.host.stage !== "idle";
      return el("li", {class: "game-row" + (isCurrent ? " current" : "")},
        el("div", {class: "game-info"},
          el("strong", {}, `#${game.id} ${editionName(game.edition)}`),
          el("span", {class: "muted"}, (game.seats || []).map(cardName).join(", ")),
          el("span", {class: "muted small"}, [_("{count} moves", {count: game.actions || 0}), when(game.updated), game.status].filter(Boolean).join(" · "))),
        isCurrent
          ? el("span", {class: "badge good"}, _("On the table"))
          : el("button", {type: "button", onclick: (event) => resume(event.currentTarget, game)}, _("Resume")));
    })));
  }

  async function resume(button, game) {
    const stage = state.host.stage;
    if (stage === "playing") {
      toast(_("A game is under way: end it before resuming another."), "error");
      return;
    }
    const done = await busy(button, () => post("/api/host/resume", {game_id: game.id}));
    if (done) {
      toast(_("Game #{game} resumed.", {game: game.id}));
      refresh();
    }
  }

  // ---- start, end, settings -----------------------------------------------------------------

  async function startGame(event) {
    const done = await busy(event.currentTarget, () => post("/api/host/start", {}));
    if (done) { toast(_("The game starts.")); refresh(); }
  }

  async function endGame(event) {
    const button = event.currentTarget;
    const over = state.host && state.host.stage === "over";
    const ok = await confirmBox(over ? _("Close this game?") : _("End the game?"),
      over ? _("The table goes back to “no game”.") : _("The game stops for everyone and is closed for good: it cannot be resumed."),
      over ? _("Close game") : _("End game"), true);
    if (!ok) return;
    const done = await busy(button, () => post("/api/host/end", {}));
    if (done) { toast(_("The game has ended.")); refresh(); }
  }

  async function changePin(event) {
    event.preventDefault();
    const pin = $("pin-new").value.trim();
    const again = $("pin-again").value.trim();
    const error = $("pin-error");
    const fail = (message) => { error.textContent = message; error.classList.remove("hidden"); };
    if (!/^\d{6,12}$/.test(pin)) return fail(_("The PIN must be 6 to 12 digits."));
    if (pin !== again) return fail(_("The two PINs are not the same."));
    error.classList.add("hidden");
    const done = await busy(event.submitter || null, () => post("/api/host/settings", {pin}));
    if (done) {
      $("pin-new").value = "";
      $("pin-again").value = "";
      toast(_("PIN changed. Other host browsers must log in again."));
    }
    return undefined;
  }

  // ---- the board link: why it is down, since when, and what the board last logged -------------

  function clock(seconds) {
    return new Date(seconds * 1000).toLocaleTimeString(Clue.i18n.locale, {hour: "2-digit", minute: "2-digit", second: "2-digit"});
  }

  function ago(seconds) {
    const gone = Math.max(0, Math.round(Date.now() / 1000 - seconds));
    if (gone < 60) return _("{seconds} s ago", {seconds: gone});
    if (gone < 3600) return _("{minutes} min ago", {minutes: Math.floor(gone / 60)});
    return _("{hours} h {minutes} min ago", {hours: Math.floor(gone / 3600), minutes: Math.floor((gone % 3600) / 60)});
  }

  function renderBoard() {
    const board = (state.host && state.host.board) || {};
    const parts = [];
    if (board.state === "up") {
      const bits = [board.port, board.firmware && _("firmware {version}", {version: board.firmware}), board.readers && _("{count} readers", {count: board.readers})];
      parts.push(el("p", {class: "muted"}, bits.filter(Boolean).join(" · ")));
      if (board.failed && board.failed.length) {
        parts.push(el("p", {class: "link-reason"}, _("Readers not answering: {readers} (see the board log).", {readers: board.failed.join(", ")})));
      }
    } else if (board.reason) {
      parts.push(el("p", {class: "link-reason", id: "board-reason", role: "status"}, board.reason));
    } else if (board.state === "connecting") {
      parts.push(el("p", {class: "muted"}, board.port ? _("Waiting for the board on {port} to answer.", {port: board.port}) : _("Waiting for the board to answer.")));
    }
    if (board.since && board.state !== "connecting") {
      parts.push(el("p", {class: "muted", id: "board-since"},
        board.state === "up" ? _("Up since {time} ({ago})", {time: clock(board.since), ago: ago(board.since)})
          : _("Down since {time} ({ago})", {time: clock(board.since), ago: ago(board.since)})));
    }
    const lines = (board.log || []).slice(-BOARD_LINES);
    if (lines.length) {
      const trouble = board.state !== "up" || lines.some((line) => line.level === "error");
      parts.push(el("details", {class: "board-log", open: trouble},
        el("summary", {}, _("The board's last log lines")),
        el("ol", {id: "board-log"}, lines.map((line) => el("li", {class: "log-" + line.level},
          el("span", {class: "muted"}, clock(line.t) + " "), el("span", {class: "badge"}, line.level), " " + line.text)))));
    }
    replace($("board-status"), parts);
  }

  async function logout(event) {
    const done = await busy(event.currentTarget, () => post("/host/logout", {}));
    if (done) location.reload();
  }

  // ---- live updates -------------------------------------------------------------------------

  function onView(view) {
    state.view = view;
    // The host data changes with the stage, the game and the seats; the problems come from the view itself.
    const key = JSON.stringify([view.stage, view.game_id, view.edition, view.seats, view.winner, view.turn, view.phase, view.link,
      view.house]);
    const changed = key !== state.viewKey;
    state.viewKey = key;
    if (changed) refresh();
    else if (state.host) renderGame();
  }

  function onStatus(status) {
    const box = $("stream-status");
    const words = {live: _("Live"), reconnecting: _("Reconnecting…"), closed: _("Disconnected")};
    replace(box, el("span", {class: "status-dot " + (status === "live" ? "up" : "down")}), words[status] || status);
  }

  function startHost() {
    $("new-edition").addEventListener("change", () => renderSeatPicker(true));
    $("new-toggle").addEventListener("click", () => {
      state.newOpen = $("new-game").classList.contains("hidden");
      renderNewToggle(state.host ? state.host.stage : "idle");
      if (state.newOpen) $("new-edition").focus();
    });
    $("new-game").addEventListener("submit", openGame);
    $("house-locale").addEventListener("change", (event) => saveHouse({locale: event.target.value}));
    $("house-boxes").addEventListener("change", (event) => saveHouse({names_variant: event.target.value}));
    $("house-speech").addEventListener("change", (event) => saveHouse({speech: event.target.checked}));
    $("house-names-form").addEventListener("submit", saveHouseNames);
    $("start-game").addEventListener("click", startGame);
    $("end-game").addEventListener("click", endGame);
    $("pin-form").addEventListener("submit", changePin);
    $("logout").addEventListener("click", logout);
    for (const input of [$("pin-new"), $("pin-again"), $("new-seed")]) {
      input.addEventListener("input", () => {
        const digits = input.value.replace(/\D+/g, "");
        if (digits !== input.value) input.value = digits;
      });
    }
    $("qr-overlay-close").addEventListener("click", hideBigQr);
    $("qr-overlay").addEventListener("click", (event) => { if (event.target.id === "qr-overlay") hideBigQr(); });
    document.addEventListener("keydown", (event) => {
      if (event.key === "Escape" && !$("qr-overlay").classList.contains("hidden")) hideBigQr();
    });
    refresh();
    Clue.stream("/events/table", onView, onStatus);
    // Phones joining do not change the table's view: look again now and then while the page is shown.
    setInterval(() => { if (document.visibilityState === "visible") refresh(); }, 3000);
    document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible") refresh(); });
  }

  const loginForm = $("login-form");
  if (loginForm) startLogin(loginForm);
  else if ($("host")) startHost();
})();
