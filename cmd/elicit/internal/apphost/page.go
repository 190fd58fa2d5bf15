package apphost

// pageCSP is the host page's own policy: its script and the app's frame
// come from here, and it talks to nothing else.
const pageCSP = "default-src 'none'; script-src 'self'; connect-src 'self'; frame-src 'self'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'"

// hostPage renders the app in a sandboxed iframe (scripts only: an
// opaque origin, no reach into this page), with a panel for what the app
// asked of the person.
const hostPage = `<!doctype html>
<html><head><meta charset="utf-8"><title>elicit app host</title>
<style>
body{font-family:sans-serif;margin:0;padding:8px;background:#f4f4f4}
#app{width:100%;height:400px;border:1px solid #999;background:#fff}
#notices{font-size:13px;margin-top:8px}
#notices div{padding:4px;border-bottom:1px solid #ddd}
</style></head>
<body>
<div id="status">elicit: loading the app…</div>
<iframe id="app" sandbox="allow-scripts" src="app" title="MCP App"></iframe>
<div id="notices"></div>
<script src="host.js"></script>
</body></html>
`

// hostScript is the page's half of the host: it relays every JSON-RPC
// message between the app (postMessage) and elicit (POST rpc), resizes
// the frame, shows links the app asks to open (the person follows them
// or not), and once the app is initialized runs the tool and hands the
// app its input and result.
const hostScript = `"use strict";
const frame = document.getElementById("app");
const status = document.getElementById("status");
const notices = document.getElementById("notices");
async function relay(from, message) {
  const r = await fetch("rpc", {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify({from, message})});
  if (!r.ok) throw new Error("elicit answered " + r.status);
  return r.json();
}
function toApp(m) { frame.contentWindow.postMessage(m, "*"); }
function notice(text, link) {
  const d = document.createElement("div");
  d.textContent = text;
  if (link) {
    const a = document.createElement("a");
    a.textContent = " " + link;
    a.href = link;
    a.target = "_blank";
    a.rel = "noopener noreferrer";
    d.appendChild(a);
  }
  notices.appendChild(d);
}
async function hostSends(m) { await relay("host", m); toApp(m); }
let started = false;
async function start() {
  if (started) return;
  started = true;
  status.textContent = "elicit: calling the tool…";
  const r = await relay("opener", null);
  const m = r.message || {};
  await hostSends({jsonrpc: "2.0", method: "ui/notifications/tool-input", params: {arguments: m.arguments || {}}});
  if (m.error) {
    status.textContent = "elicit: the tool failed: " + m.error.message;
    await hostSends({jsonrpc: "2.0", method: "ui/notifications/tool-cancelled", params: {reason: m.error.message}});
    return;
  }
  await hostSends({jsonrpc: "2.0", method: "ui/notifications/tool-result", params: m.result});
  status.textContent = "elicit: the app is running";
}
window.addEventListener("message", async (ev) => {
  if (ev.source !== frame.contentWindow) return;
  const m = ev.data;
  if (!m || typeof m !== "object" || m.jsonrpc !== "2.0") return;
  if (m.method === "ui/notifications/size-changed" && m.params && typeof m.params.height === "number") {
    frame.style.height = Math.max(50, Math.min(m.params.height, 5000)) + "px";
  }
  let r;
  try { r = await relay("app", m); } catch (e) { status.textContent = "elicit: " + e.message; return; }
  if (r.link) notice("The app asks to open this link (not opened):", r.link);
  if (r.message) toApp(r.message);
  if (m.method === "ui/notifications/initialized") start().catch((e) => { status.textContent = "elicit: " + e.message; });
});
`
