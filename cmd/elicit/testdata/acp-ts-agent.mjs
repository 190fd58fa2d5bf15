// An ACP agent on the official TypeScript SDK (@agentclientprotocol/sdk,
// stable v1 entrypoint), for elicit's terminal-path tests: an independent
// peer whose JSON-RPC, cancellation and schema checks are the SDK's.
//
//   node acp-ts-agent.mjs SDK_DIR
//
// SDK_DIR is the package's folder (node_modules/@agentclientprotocol/sdk).
// It plays one scene per prompt, chosen by a word in the prompt, as
// elicit's demo agent does (cmd/elicit/demo/acpagent): permission,
// withdrawperm, question, withdraw, url, long, deaf, write, read, foreign; anything
// else is echoed. It uses no model.
import { Readable, Writable } from "node:stream";
import { pathToFileURL } from "node:url";
import path from "node:path";

const sdkDir = process.argv[2];
if (!sdkDir) {
  console.error("usage: node acp-ts-agent.mjs SDK_DIR");
  process.exit(2);
}
const acp = await import(pathToFileURL(path.join(sdkDir, "dist/v1/stable/acp.js")).href);
const { RequestError } = acp;

const sessions = new Map(); // sessionId -> { cwd, cancelled: AbortController }
let clientCaps = {};
let nextSession = 0;

const permissionOptions = [
  { optionId: "allow", name: "Allow once", kind: "allow_once" },
  { optionId: "always", name: "Always allow", kind: "allow_always" },
  { optionId: "reject", name: "Reject", kind: "reject_once" },
  { optionId: "never", name: "Always reject", kind: "reject_always" },
];

const formSchema = {
  type: "object",
  title: "Refactoring",
  properties: {
    strategy: {
      type: "string",
      title: "Strategy",
      oneOf: [
        { const: "safe", title: "Conservative" },
        { const: "bold", title: "Aggressive" },
      ],
      default: "safe",
    },
    files: { type: "integer", title: "Files at most", minimum: 1, maximum: 50, default: 5 },
  },
  required: ["strategy"],
};

const sleep = (ms, signal) =>
  new Promise((resolve) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => { clearTimeout(t); resolve(); }, { once: true });
  });

// settled lets notifications read before a response reach their
// handlers: the SDK settles a response at once but runs a notification
// (session/cancel) through its async handler chain, so without this a
// "cancel" answered after session/cancel is seen before the cancel.
const settled = () => new Promise((resolve) => setImmediate(resolve));

// errorText words a rejected request: its JSON-RPC code.
const errorText = (e) => (e && typeof e.code === "number" ? `error ${e.code}` : `failure ${e}`);

class Turn {
  constructor(ctx) {
    this.ctx = ctx;
    this.sessionId = ctx.params.sessionId;
    this.session = sessions.get(this.sessionId);
  }
  get cancelled() { return this.session.cancelled.signal.aborted; }
  update(u) { return this.ctx.client.notify("session/update", { sessionId: this.sessionId, update: u }); }
  say(text) { return this.update({ sessionUpdate: "agent_message_chunk", content: { type: "text", text } }); }
  tool(id, title, kind, status) { return this.update({ sessionUpdate: "tool_call", toolCallId: id, title, kind, status }); }
  toolStatus(id, status) { return this.update({ sessionUpdate: "tool_call_update", toolCallId: id, status }); }

  async permission() {
    await this.tool("call_1", "Edit config.json", "edit", "pending");
    let res;
    try {
      res = await this.ctx.client.request("session/request_permission", {
        sessionId: this.sessionId,
        toolCall: { toolCallId: "call_1", title: "Edit config.json", kind: "edit", status: "pending" },
        options: permissionOptions,
      });
    } catch (e) {
      // -32800 when the client's question timeout ran out.
      await settled();
      await this.toolStatus("call_1", "failed");
      await this.say(`The permission request failed: ${errorText(e)}.`);
      return this.cancelled ? "cancelled" : "end_turn";
    }
    await settled();
    const o = res.outcome;
    if (o.outcome === "cancelled" || this.cancelled) {
      await this.toolStatus("call_1", "failed");
      return "cancelled";
    }
    if (o.optionId === "allow" || o.optionId === "always") {
      await this.toolStatus("call_1", "completed");
      await this.say(`Edited config.json (${o.optionId}).`);
    } else {
      await this.toolStatus("call_1", "failed");
      await this.say(`Left config.json alone (${o.optionId}).`);
    }
    return "end_turn";
  }

  async question(params) {
    let res;
    try {
      res = await this.ctx.client.request("elicitation/create", { sessionId: this.sessionId, ...params });
    } catch (e) {
      await settled();
      if (this.cancelled) return "cancelled";
      await this.say(`The question was refused: ${errorText(e)}.`);
      return "end_turn";
    }
    await settled();
    if (this.cancelled) {
      await this.say("Stopped.");
      return "cancelled";
    }
    if (res.action === "accept") {
      await this.say("Answer: " + JSON.stringify(res.content ?? null));
    } else {
      await this.say(`No answer (${res.action}).`);
    }
    return "end_turn";
  }

  // withdraw asks, then withdraws it: the SDK sends $/cancel_request when
  // the signal aborts, and the promise still settles with the answer the
  // client owes.
  async withdraw(method, params) {
    const ac = new AbortController();
    const p = this.ctx.client.request(method, { sessionId: this.sessionId, ...params }, { cancellationSignal: ac.signal });
    setTimeout(() => ac.abort(), 300);
    try {
      const r = await p;
      await this.say("Answered before it could be withdrawn: " + JSON.stringify(r));
    } catch (e) {
      await this.say(`Withdrawn; the client answered ${errorText(e)}.`);
    }
    return "end_turn";
  }

  async long() {
    await this.tool("call_l", "Long job", "execute", "in_progress");
    for (let i = 0; i < 100; i++) {
      await sleep(50, this.session.cancelled.signal);
      if (this.cancelled) {
        // An update after session/cancel, as agents may send.
        await this.toolStatus("call_l", "failed");
        await this.say(" …stopped.");
        return "cancelled";
      }
      await this.say(`step ${i + 1}. `);
    }
    await this.toolStatus("call_l", "completed");
    return "end_turn";
  }

  // deaf ignores session/cancel, but its handler's signal aborts on the
  // client's $/cancel_request for the prompt: answered -32800.
  async deaf() {
    await this.say("not listening…");
    await sleep(20000, this.ctx.signal);
    if (this.ctx.signal.aborted) throw RequestError.requestCancelled();
    return "end_turn";
  }

  async write() {
    if (!clientCaps.fs?.writeTextFile) {
      await this.say("fs/write_text_file: not offered by the client.");
      return "end_turn";
    }
    const file = path.join(this.session.cwd, "notes.txt");
    await this.tool("call_fs", "Write notes.txt", "edit", "in_progress");
    try {
      await this.ctx.client.request("fs/write_text_file", { sessionId: this.sessionId, path: file, content: "hello from the ts agent\n" });
    } catch (e) {
      await settled();
      if (this.cancelled) return "cancelled";
      await this.toolStatus("call_fs", "failed");
      await this.say(`fs/write_text_file: ${errorText(e)}.`);
      return "end_turn";
    }
    await this.toolStatus("call_fs", "completed");
    await this.say("Wrote notes.txt; " + (await this.read(file)));
    return "end_turn";
  }

  async read(file) {
    if (!clientCaps.fs?.readTextFile) return "fs/read_text_file: not offered by the client.";
    try {
      const r = await this.ctx.client.request("fs/read_text_file", { sessionId: this.sessionId, path: file });
      return "read back: " + r.content.trim();
    } catch (e) {
      return `fs/read_text_file: ${errorText(e)}`;
    }
  }

  // foreign sends, in the name of a session the client never opened, an
  // update and every request that names a session (a permission, a form
  // question, a read of notes.txt in the cwd, a write of foreign.txt
  // there), and says how each was answered: a client must refuse them all.
  async foreign() {
    const sessionId = "ts_sess_foreign";
    await this.ctx.client.notify("session/update", {
      sessionId, update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "FOREIGN-UPDATE" } },
    });
    const asks = [
      ["permission", "session/request_permission", { sessionId, toolCall: { toolCallId: "call_x", title: "Delete everything", kind: "delete", status: "pending" }, options: permissionOptions }],
      ["question", "elicitation/create", { sessionId, mode: "form", message: "Which strategy?", requestedSchema: formSchema }],
      ["read", "fs/read_text_file", { sessionId, path: path.join(this.session.cwd, "notes.txt") }],
      ["write", "fs/write_text_file", { sessionId, path: path.join(this.session.cwd, "foreign.txt"), content: "written for a foreign session\n" }],
    ];
    const said = [];
    for (const [what, method, params] of asks) {
      try {
        const r = await this.ctx.client.request(method, params);
        said.push(`${what}: answered ${JSON.stringify(r)}`);
      } catch (e) {
        said.push(`${what}: ${errorText(e)}`);
      }
    }
    await this.say(said.join("; ") + ".");
    return "end_turn";
  }

  async play(text) {
    const w = text.toLowerCase();
    if (w.includes("foreign")) return this.foreign();
    if (w.includes("withdrawperm")) {
      return this.withdraw("session/request_permission", {
        toolCall: { toolCallId: "call_w", title: "Delete build/", kind: "delete", status: "pending" },
        options: permissionOptions,
      });
    }
    if (w.includes("permission")) return this.permission();
    if (w.includes("withdraw")) {
      return this.withdraw("elicitation/create", { mode: "form", message: "Which branch? (withdrawn)", requestedSchema: formSchema });
    }
    if (w.includes("question")) return this.question({ mode: "form", message: "How should I approach this refactoring?", requestedSchema: formSchema });
    if (w.includes("url")) {
      return this.question({ mode: "url", elicitationId: "login-1", url: "https://example.com/login", message: "Log in to continue" });
    }
    if (w.includes("long")) return this.long();
    if (w.includes("deaf")) return this.deaf();
    if (w.includes("write")) return this.write();
    if (w.includes("read")) {
      await this.say(await this.read(path.join(this.session.cwd, "notes.txt")));
      return "end_turn";
    }
    await this.say("You said: " + text);
    return "end_turn";
  }
}

const app = acp
  .agent({ name: "elicit-ts-test-agent" })
  .onRequest("initialize", ({ params }) => {
    clientCaps = params.clientCapabilities ?? {};
    return {
      protocolVersion: acp.PROTOCOL_VERSION,
      agentCapabilities: { loadSession: false },
      agentInfo: { name: "elicit-ts-test-agent", title: "ACP TypeScript SDK test agent", version: "1.0.0" },
      authMethods: [],
    };
  })
  .onRequest("session/new", ({ params }) => {
    const sessionId = `ts_sess_${++nextSession}`;
    sessions.set(sessionId, { cwd: params.cwd, cancelled: new AbortController() });
    return { sessionId };
  })
  .onRequest("session/prompt", async (ctx) => {
    const s = sessions.get(ctx.params.sessionId);
    if (!s) throw RequestError.invalidParams(undefined, "no such session");
    s.cancelled = new AbortController();
    const text = ctx.params.prompt.map((b) => (b.type === "text" ? b.text : "")).join("");
    return { stopReason: await new Turn(ctx).play(text) };
  })
  .onNotification("session/cancel", ({ params }) => {
    sessions.get(params.sessionId)?.cancelled.abort();
  });

const stream = acp.ndJsonStream(Writable.toWeb(process.stdout), Readable.toWeb(process.stdin));
const conn = app.connect(stream);
await conn.closed;
