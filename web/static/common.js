// Shared by every page: POST with the CSRF token, live views over SSE, small DOM helpers.
// Never put data into innerHTML: player and card names go in with textContent (el()).
"use strict";
const Clue = (() => {
  const csrf = () => document.querySelector('meta[name="csrf-token"]').content;
  // The page's locale and its translated messages: /i18n/TAG.js (web/language.py) sets CLUE_I18N.
  const i18n = window.CLUE_I18N || {locale: "en-US", language: "en", locales: ["en-US"], messages: {}};

  // _("Roll the dice ({count})", {count: 2}): the message in the page's language, its {names} filled in.
  // Messages are found by Babel in this file's calls (python -m companion.language update).
  function _(text, args) {
    const said = i18n.messages[text] || text;
    if (!args) return said;
    return said.replace(/\{(\w+)(?:![rs])?(?::([^{}]*))?\}/g, (all, key, spec) => {
      if (!(key in args)) return all;
      return spec ? nameForm(String(args[key]), spec) : String(args[key]);
    });
  }

  // A name as a message asks for it: {seat:the}, {room:de}, {seat:éliminé|éliminée}. The forms come worded
  // from the server (companion/language/grammar.py page_forms), for the names it knows and, with "%s" for
  // the name, for any other (a house name).
  function nameForm(text, spec) {
    const names = i18n.names || {forms: {}, unknown: {}};
    const known = names.forms[text];
    if (known && known[spec] !== undefined) return known[spec];
    const pattern = names.unknown[spec];
    return pattern === undefined ? text : pattern.replace("%s", () => text);
  }

  // A sentence from the companion: a plain string, or {template, args, text} worded in this page's
  // language. An argument is a card's identity (spelled by nameOf), a number, a nested
  // {template, args} message or a list of them said one after the other (companion/table/wording.py),
  // so "{opening} The board matches the game." never shows its opening as "[object Object]".
  function sentence(item, nameOf) {
    if (item === null || item === undefined) return "";
    if (typeof item !== "object") return String(item);
    if (!item.template) return String(item.text || item.message || "");
    const args = {};
    for (const [key, value] of Object.entries(item.args || {})) args[key] = argument(value, nameOf);
    return _(item.template, args);
  }

  function argument(value, nameOf) {
    if (Array.isArray(value)) return value.map((part) => argument(part, nameOf)).filter((part) => part !== "").join(" ");
    if (value && typeof value === "object") return sentence(value, nameOf);
    if (typeof value === "string") return nameOf ? nameOf(value) : value;
    return value === null || value === undefined ? "" : String(value);
  }

  // A card or suspect (its identity, the US printed name) as this page's locale writes it: the view's
  // names (web/context.py with_log), which hold the table's house names too.
  function cardName(view, identity) {
    return (view && view.names && view.names[identity]) || identity;
  }

  // An address with the page's locale, so that the server streams in the page's language (an EventSource
  // cannot send the X-Clue-Locale header that post() and getJSON() send).
  function localized(url) {
    return url + (url.includes("?") ? "&" : "?") + "lang=" + encodeURIComponent(i18n.locale);
  }

  // POST a JSON body; resolves to the JSON answer, rejects with an Error whose
  // .code and .message are the server's (a refusal is shown to the user in plain words).
  async function post(url, body) {
    let response;
    try {
      response = await fetch(url, {
        method: "POST", credentials: "same-origin",
        headers: {"Content-Type": "application/json", "Accept": "application/json", "X-CSRF-Token": csrf(),
                  "X-Clue-Locale": i18n.locale},
        body: JSON.stringify(body || {}),
      });
    } catch (err) {
      throw Object.assign(new Error(_("The companion cannot be reached. Check the Wi-Fi.")), {code: "offline"});
    }
    let data = null;
    try { data = await response.json(); } catch (err) { /* not JSON: handled below */ }
    if (!response.ok || !data || data.ok === false) {
      const error = (data && data.error) || {code: "http_" + response.status, message: _("The companion said no ({status}).", {status: response.status})};
      throw Object.assign(new Error(error.message), {code: error.code});
    }
    return data;
  }

  async function getJSON(url) {
    // Accept: JSON even where the address is a page's (a browser's navigation gets an HTML error page).
    const response = await fetch(url, {credentials: "same-origin", cache: "no-store",
                                       headers: {"Accept": "application/json", "X-Clue-Locale": i18n.locale}});
    const data = await response.json();
    if (!response.ok) {
      const error = data.error || {code: "http_" + response.status, message: _("Error {status}", {status: response.status})};
      throw Object.assign(new Error(error.message), {code: error.code});
    }
    return data;
  }

  // Follow a view stream: onView(view) for every view, onStatus("live"|"reconnecting"|"closed").
  // EventSource reconnects by itself; the server sends the current view first on
  // every connection, so nothing is missed while away. If the stream is refused
  // (not joined any more), the page re-fetches once to show why.
  function stream(url, onView, onStatus) {
    const status = onStatus || (() => {});
    let source = null, timer = null, wait = 5000, last = null, stopped = false;
    function open() {
      source = new EventSource(localized(url));
      last = null;  // the view as this stream has built it: the whole view, then each delta applied
      source.addEventListener("view", (event) => {
        status("live");
        wait = 5000;
        last = JSON.parse(event.data);
        onView(last);
      });
      source.addEventListener("delta", (event) => {
        if (last === null) return;  // a stream always starts with the whole view; a delta before it has no base
        status("live");
        last = applyDelta(last, JSON.parse(event.data));
        onView(last);
      });
      source.addEventListener("error", () => {
        if (source.readyState !== EventSource.CLOSED) return status("reconnecting");
        status("closed");
        // Refused (503 busy: too many pages open; or the server restarting): EventSource gives up
        // for good, so try again later, less and less often.
        if (!stopped) timer = setTimeout(open, wait);
        wait = Math.min(wait * 2, 60000);
      });
    }
    open();
    return {close() { stopped = true; clearTimeout(timer); source.close(); }};
  }

  // A delta's operations (web/deltas.py): ["s", path, value], ["d", path], ["a", path, items].
  // Objects along each path are copied, so a view handed to a page is never changed under it.
  function applyDelta(view, ops) {
    const result = Object.assign({}, view);
    for (const [kind, path, value] of ops) {
      let parent = result;
      for (const key of path.slice(0, -1)) {
        parent[key] = Object.assign({}, parent[key]);
        parent = parent[key];
      }
      const key = path[path.length - 1];
      if (kind === "s") parent[key] = value;
      else if (kind === "d") delete parent[key];
      else if (kind === "a") parent[key] = parent[key].concat(value);
    }
    return result;
  }

  // el("li", {class: "card", onclick: f}, "text", child...): a DOM element with safe text.
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key.startsWith("on") && typeof value === "function") node.addEventListener(key.slice(2), value);
      else if (key === "class") node.className = value;
      else if (key === "dataset") Object.assign(node.dataset, value);
      else node.setAttribute(key, value === true ? "" : value);
    }
    for (const child of children.flat()) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  function replace(node, ...children) {
    node.replaceChildren(...children.flat().filter((c) => c !== null && c !== undefined && c !== false));
    return node;
  }

  // A short-lived message at the bottom of the screen (errors in plain words).
  function toast(message, kind) {
    let box = document.getElementById("toast");
    if (!box) {
      box = el("div", {id: "toast", role: "status", "aria-live": "polite"});
      document.body.append(box);
    }
    box.textContent = message;
    box.className = "toast show " + (kind || "");
    clearTimeout(box._timer);
    box._timer = setTimeout(() => { box.className = "toast"; }, kind === "error" ? 6000 : 3000);
  }

  // Run a host action with its button busy; errors become a toast in plain words (a lost login reloads the page).
  async function busy(button, work) {
    if (button) button.disabled = true;
    try {
      return await work();
    } catch (err) {
      if (err.code === "host_login") { location.reload(); return undefined; }
      toast(err.message, "error");
      return undefined;
    } finally {
      if (button) button.disabled = false;
    }
  }

  // Square names, as companion/rules/board.py makes them: column letters ("a" to "z", then "aa" to
  // "an" like a spreadsheet's, for maps of up to 40 columns) and the row number from 1: "h25", "an40".
  const COLUMNS = "abcdefghijklmnopqrstuvwxyz";
  const MAX_SIDE = 40;
  const SQUARE = /^[a-z]{1,2}[0-9]{1,2}$/;
  // The name of the square at row r, column c (from 0), or null off a map of MAX_SIDE columns.
  function squareName(r, c) {
    if (!(c >= 0 && c < MAX_SIDE)) return null;
    const n = COLUMNS.length;
    return (c < n ? COLUMNS[c] : COLUMNS[Math.floor(c / n) - 1] + COLUMNS[c % n]) + (r + 1);
  }
  // [row, column] from 0 of a square's name ("aa3" -> [2, 26]), or null if it names no square.
  function squarePosition(name) {
    const found = /^([a-z]{1,2})([0-9]{1,2})$/.exec(String(name || "").trim().toLowerCase());
    if (!found) return null;
    let c = 0;
    for (const letter of found[1]) c = c * COLUMNS.length + COLUMNS.indexOf(letter) + 1;
    const r = Number(found[2]);
    return c <= MAX_SIDE && r >= 1 && r <= MAX_SIDE ? [r - 1, c - 1] : null;
  }

  // Places in words (GET /api/board's "words": square or room -> "in the corridor by the Lounge door").
  // where(place, words): that phrase, the grid code after it in small type; a fallback without words.
  function where(place, words) {
    const said = words && words[place];
    if (said) return SQUARE.test(place) ? [said, " ", el("small", {class: "grid-code"}, "(" + place + ")")] : [said];
    if (!place) return [];
    return [SQUARE.test(place) ? "on square " + place : "in " + (/^the /i.test(place) ? place : "the " + place)];
  }

  // A sentence from the companion that says "on h25" ("Put Miss Scarlet back on h25."), with the
  // square in words: "Put Miss Scarlet back on Miss Scarlet's start square (h25)." As text nodes.
  function placeText(text, words) {
    const found = /\bon ([a-z]{1,2}[0-9]{1,2})\b/.exec(String(text));
    if (!found || !words || !words[found[1]]) return [String(text)];
    const rest = String(text).slice(found.index + found[0].length);
    return [String(text).slice(0, found.index), ...where(found[1], words), ...placeText(rest, words)];
  }

  return {_, nameForm, sentence, cardName, localized, i18n, post, getJSON, stream, applyDelta, el, replace, toast, busy, csrf, where, placeText, squareName, squarePosition};
})();
