// The host page's camera panel (web/camera.py): the live frame, the camera's state, what to do about a
// missing corner marker. Its words come from the template (data-*) and the server, in the page's language.
"use strict";
(() => {
  const {el, replace, getJSON} = Clue;
  const $ = (id) => document.getElementById(id);
  const panel = $("camera-panel");
  if (!panel) return;
  const texts = $("camera-texts").dataset;
  const fill = (text, args) => text.replace(/\{(\w+)\}/g, (whole, name) => (name in args ? args[name] : whole));
  const EVERY = 1000;  // ms: the server draws at most two frames a second anyway

  function show(data) {
    panel.classList.remove("hidden");
    const status = data.status || {};
    const words = {up: texts.up, down: texts.down, connecting: texts.connecting}[status.state] || status.state;
    const parts = [words];
    if (status.state === "up" && status.fps) parts.push(fill(texts.fps, {fps: status.fps}));
    if (status.state === "down" && status.reason) parts.push(status.reason);
    $("camera-state").textContent = parts.join(" · ");
    const frame = $("camera-frame");
    if (data.frame) {
      frame.src = "/api/host/camera/frame?t=" + Date.now();
      frame.classList.remove("hidden");
    } else {
      frame.classList.add("hidden");
      frame.removeAttribute("src");
    }
    replace($("camera-advice"), (data.advice || []).map((line) => el("li", {}, line)));
    const unseen = data.unseen || [];
    $("camera-unseen").textContent = !data.frame ? texts.waiting
      : unseen.length ? fill(texts.unseen, {pieces: unseen.join(", ")}) : "";
  }

  async function look() {
    if (document.visibilityState !== "visible") return true;
    try {
      show(await getJSON("/api/host/camera"));
    } catch (error) {
      if (error.code === "no_camera") { panel.classList.add("hidden"); return false; }
    }
    return true;
  }

  async function loop() {
    if (await look()) setTimeout(loop, EVERY);
  }
  loop();
})();
