// An MCP server with an MCP App (SEP-1865), built on the TypeScript SDK and
// @modelcontextprotocol/ext-apps' server helpers (registerAppTool,
// registerAppResource), for elicit's apps tests, over stdio:
//
//   node apps-server.mjs SDK_DIR EXT_APPS_DIR
//
// SDK_DIR is node_modules/@modelcontextprotocol/sdk, EXT_APPS_DIR
// node_modules/@modelcontextprotocol/ext-apps. Tools:
//   counter    opens the app (ui://counter/app.html), visible to model and app
//   increment  app-only (visibility ["app"]): "count is N" after adding "by"
// The app is ext-apps' own App class (its app-with-deps bundle, inlined):
// a button "inc" calls increment through the host and writes the result's
// text into #out; the tool result the host hands it goes into #result.
import { pathToFileURL } from "node:url";
import { readFileSync } from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";

const [sdkDir, appsDir] = process.argv.slice(2);
if (!sdkDir || !appsDir) {
  console.error("usage: node apps-server.mjs SDK_DIR EXT_APPS_DIR");
  process.exit(2);
}
const imp = (dir, p) => import(pathToFileURL(path.join(dir, p)).href);
const { z } = createRequire(path.join(sdkDir, "package.json"))("zod");
const { McpServer } = await imp(sdkDir, "dist/esm/server/mcp.js");
const { StdioServerTransport } = await imp(sdkDir, "dist/esm/server/stdio.js");
const { registerAppTool, registerAppResource, RESOURCE_MIME_TYPE } = await imp(appsDir, "dist/src/server/index.js");

// The bundle is an ES module ending in export{a as B,…}: inlined, its
// exports become a local object instead.
let bundle = readFileSync(path.join(appsDir, "dist/src/app-with-deps.js"), "utf8");
bundle = bundle.replace(/export\s*\{([^}]*)\};?\s*$/, (_, list) =>
  "const ExtApps={" + list.split(",").map((p) => { const [a, b] = p.trim().split(/\s+as\s+/); return `${b ?? a}:${a}`; }).join(",") + "};");

const html = `<!doctype html>
<html><head><meta charset="utf-8"><title>counter</title></head>
<body>
<h1 id="title">Counter app</h1>
<button id="inc">increment</button>
<div id="out">not yet</div>
<div id="result">no result</div>
<div id="input">no input</div>
<script type="module">
${bundle}
const app = new ExtApps.App({ name: "counter-app", version: "1.0.0" });
app.ontoolinput = (p) => { document.getElementById("input").textContent = "input " + JSON.stringify(p.arguments ?? {}); };
app.ontoolresult = (r) => { document.getElementById("result").textContent = "result " + (r.content?.[0]?.text ?? ""); };
document.getElementById("inc").addEventListener("click", async () => {
  try {
    const r = await app.callServerTool({ name: "increment", arguments: { by: 2 } });
    document.getElementById("out").textContent = r.content?.[0]?.text ?? JSON.stringify(r);
  } catch (e) {
    document.getElementById("out").textContent = "error " + e.message;
  }
});
await app.connect();
document.getElementById("title").dataset.connected = "yes";
</script>
</body></html>`;

const server = new McpServer({ name: "apps-server", version: "1.0.0" });
const uri = "ui://counter/app.html";
let count = 0;

registerAppTool(server, "counter", {
  description: "Opens the counter app",
  inputSchema: {},
  _meta: { ui: { resourceUri: uri } },
}, async () => ({ content: [{ type: "text", text: `counter at ${count}` }] }));

registerAppTool(server, "increment", {
  description: "Adds to the counter (the app calls it)",
  inputSchema: { by: z.number().optional() },
  _meta: { ui: { resourceUri: uri, visibility: ["app"] } },
}, async (args) => {
  count += Number(args?.by ?? 1);
  return { content: [{ type: "text", text: `count is ${count}` }] };
});

registerAppResource(server, "counter app", uri, { description: "The counter's UI" }, async () => ({
  contents: [{ uri, mimeType: RESOURCE_MIME_TYPE, text: html, _meta: { ui: { csp: { connectDomains: [], resourceDomains: [] } } } }],
}));

await server.connect(new StdioServerTransport());
