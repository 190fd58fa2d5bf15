package demo

// paletteHTML is the palette tool's MCP App: one self-contained page whose
// inline script speaks the app side of the ext-apps protocol by hand
// (JSON-RPC over postMessage with its parent, the host), so the demo needs
// no bundle: ui/initialize, then ui/notifications/initialized; it shows
// the tool input and result the host sends, reports its height, and each
// button calls the app-only pick_colour through the host (tools/call).
// Server text is untrusted on the host's side too: it is set with
// textContent only.
const paletteHTML = `<!doctype html>
<html><head><meta charset="utf-8"><title>palette</title>
<style>
body{font-family:sans-serif;margin:12px}
button{margin-right:6px;padding:6px 12px;border:1px solid #666;border-radius:4px;cursor:pointer}
#pick-red{background:#f5b5b5}#pick-teal{background:#a8dcd9}#pick-amber{background:#f7d79a}
#out{margin-top:10px;font-weight:bold}
#result,#input{color:#555;font-size:13px}
</style></head>
<body>
<h1 id="title">Pick a colour</h1>
<div>
<button id="pick-red" data-colour="red">red</button>
<button id="pick-teal" data-colour="teal">teal</button>
<button id="pick-amber" data-colour="amber">amber</button>
</div>
<div id="out">nothing picked yet</div>
<div id="result">no result</div>
<div id="input">no input</div>
<script>
"use strict";
const host = window.parent;
const pending = new Map();
let nextId = 1;
const $ = (id) => document.getElementById(id);
function send(m) { host.postMessage(Object.assign({jsonrpc: "2.0"}, m), "*"); }
function request(method, params) {
  const id = nextId++;
  send({id, method, params});
  return new Promise((resolve, reject) => pending.set(id, {resolve, reject}));
}
function firstText(r) {
  const c = (r && r.content) || [];
  for (const b of c) if (b && b.type === "text") return b.text;
  return JSON.stringify(r);
}
window.addEventListener("message", (ev) => {
  if (ev.source !== host) return;
  const m = ev.data;
  if (!m || typeof m !== "object" || m.jsonrpc !== "2.0") return;
  if (m.method === undefined && m.id !== undefined) {
    const p = pending.get(m.id);
    if (!p) return;
    pending.delete(m.id);
    if (m.error) p.reject(new Error(m.error.message)); else p.resolve(m.result);
    return;
  }
  switch (m.method) {
  case "ui/notifications/tool-input":
    $("input").textContent = "input " + JSON.stringify((m.params && m.params.arguments) || {});
    break;
  case "ui/notifications/tool-result":
    $("result").textContent = "result " + firstText(m.params);
    break;
  case "ui/notifications/tool-cancelled":
    $("result").textContent = "cancelled " + ((m.params && m.params.reason) || "");
    break;
  default:
    // A host request this app does not serve (ping, teardown): answer it.
    if (m.id !== undefined) send({id: m.id, result: {}});
  }
});
for (const b of document.querySelectorAll("button[data-colour]")) {
  b.addEventListener("click", async () => {
    $("out").textContent = "asking…";
    try {
      const r = await request("tools/call", {name: "pick_colour", arguments: {colour: b.dataset.colour}});
      $("out").textContent = (r.isError ? "error " : "") + firstText(r);
      document.body.style.borderLeft = r.isError ? "" : "12px solid " + b.dataset.colour;
    } catch (e) {
      $("out").textContent = "error " + e.message;
    }
  });
}
(async () => {
  await request("ui/initialize", {
    appInfo: {name: "elicit-demo-palette", version: "1.0.0"},
    appCapabilities: {},
    protocolVersion: "2026-01-26",
  });
  send({method: "ui/notifications/initialized", params: {}});
  send({method: "ui/notifications/size-changed", params: {height: document.documentElement.scrollHeight}});
  $("title").dataset.connected = "yes";
})().catch((e) => { $("title").textContent = "not connected: " + e.message; });
</script>
</body></html>
`
