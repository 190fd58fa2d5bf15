// An ACP agent on the official TypeScript SDK (@agentclientprotocol/sdk,
// stable v1 entrypoint), for elicit's terminal-path tests: an independent
// peer whose JSON-RPC, cancellation and schema checks are the SDK's.
//
//   node acp-ts-agent.mjs SDK_DIR
//
// SDK_DIR is the package's folder (node_modules/@agentclientprotocol/sdk).
// It plays one scene per prompt, chosen by a word in the prompt, as
// elicit's demo agent does (cmd/elicit/demo/acpagent): permission,
// withdrawperm, question, withdraw, url, long, deaf, write, read, foreign,
// notice, compact, named, blocks, commands; "/echo REST" is its one
// command; anything else is echoed. It uses no model.
//
// It declares every session method of stable v1 (load, list, resume,
// close, delete, additionalDirectories, logout), modes ("ask", "code")
// and two config options ("model", a select; "verbose", a boolean), and
// keeps each session's turns as history, which session/load replays.
// Sessions "ts_old_1".."ts_old_3" exist from the start (listed two to a
// page), so that load, resume and list have something to find.
import { Readable, Writable } from "node:stream";
import { pathToFileURL } from "node:url";
import path from "node:path";

const sdkDir = process.argv[2];
if (!sdkDir) {
  console.error("usage: node acp-ts-agent.mjs SDK_DIR");
  process.exit(2);
}
// ELICIT_TS_AUTH_DIR makes it require sign-in: authenticate with
// "agent-login", or the terminal method "term-login" (offered when the
// client declares auth.terminal), which runs this script again with
// --login and ELICIT_TS_LOGIN=yes: it leaves a mark in that folder and
// exits 0, as a real agent's interactive login stores its credentials.
// On a terminal (stdin and stdout both) it asks the person first, and
// the mark says "tty": a client that suspends its UI for it must hand it
// the terminal itself, not pipes.
const authDir = process.env.ELICIT_TS_AUTH_DIR;
const fs = await import("node:fs");
if (process.argv.includes("--login")) {
  if (process.env.ELICIT_TS_LOGIN !== "yes" || !authDir) process.exit(1);
  let mark = "yes\n";
  if (process.stdin.isTTY && process.stdout.isTTY) {
    const rl = (await import("node:readline/promises")).createInterface({ input: process.stdin, output: process.stdout });
    const answer = await rl.question("TS agent sign-in: type yes to sign in: ");
    rl.close();
    if (answer.trim() !== "yes") process.exit(1);
    mark = "tty\n";
  }
  fs.writeFileSync(path.join(authDir, "signed-in"), mark);
  process.exit(0);
}
let authed = false;
const signedIn = () => authed || (authDir && fs.existsSync(path.join(authDir, "signed-in")));

const acp = await import(pathToFileURL(path.join(sdkDir, "dist/v1/stable/acp.js")).href);
const { RequestError } = acp;

const sessions = new Map(); // sessionId -> { cwd, cancelled: AbortController, history, mode, model, verbose, active }
const newState = (cwd) => ({ cwd, cancelled: new AbortController(), history: [], mode: "ask", model: "small", verbose: false, active: true });
for (let i = 1; i <= 3; i++) {
  const s = newState("/");
  s.active = false;
  s.history.push({ user: `old prompt ${i}`, agent: `old answer ${i}` });
  sessions.set(`ts_old_${i}`, s);
}
const modes = (s) => ({
  currentModeId: s.mode,
  availableModes: [
    { id: "ask", name: "Ask", description: "asks before editing" },
    { id: "code", name: "Code" },
  ],
});
const configOptions = (s) => [
  { id: "model", name: "Model", category: "model", type: "select", currentValue: s.model,
    options: [{ value: "small", name: "Small" }, { value: "large", name: "Large" }] },
  { id: "verbose", name: "Verbose", type: "boolean", currentValue: s.verbose },
];
const setup = (s) => ({ modes: modes(s), configOptions: configOptions(s) });
// active finds a session open on this connection, or throws -32002.
const active = (id) => {
  const s = sessions.get(id);
  if (!s || !s.active) throw RequestError.sessionNotFound(id);
  return s;
};
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

  async notice() {
    await this.update({ sessionUpdate: "notice", severity: "warning", title: "Rate limit near" });
    await this.say("Noticed.");
    return "end_turn";
  }

  async compact() {
    await this.update({ sessionUpdate: "compaction_update", compactionId: "c1", status: "in_progress" });
    await this.update({ sessionUpdate: "compaction_summary_chunk", compactionId: "c1", content: { type: "text", text: "Summary so far." } });
    await this.update({ sessionUpdate: "compaction_update", compactionId: "c1", status: "completed" });
    await this.say("Compacted.");
    return "end_turn";
  }

  async named() {
    await this.update({ sessionUpdate: "tool_call", toolCallId: "call_n", title: "Read README", name: "read_file", kind: "read", status: "pending" });
    await this.update({ sessionUpdate: "tool_call_update", toolCallId: "call_n", status: "completed" });
    return "end_turn";
  }

  async commands() {
    await this.update({ sessionUpdate: "available_commands_update", availableCommands: [
      { name: "echo", description: "say it back", input: { hint: "what to say" } },
    ] });
    await this.say("Commands sent.");
    return "end_turn";
  }

  // term runs one command in a client terminal and reports what came of
  // it; wait false leaves it running (and unreleased) when the turn ends.
  async term(params, wait = true) {
    const client = this.ctx.client;
    let id;
    try {
      ({ terminalId: id } = await client.request("terminal/create", { sessionId: this.sessionId, ...params }));
    } catch (e) {
      return `create: ${errorText(e)}`;
    }
    if (!wait) return `started ${id}`;
    const ref = { sessionId: this.sessionId, terminalId: id };
    const exit = await client.request("terminal/wait_for_exit", ref);
    const out = await client.request("terminal/output", ref);
    await client.request("terminal/release", ref);
    return JSON.stringify({ output: out.output, truncated: out.truncated, exit });
  }

  async terminal() {
    if (!clientCaps.terminal) {
      await this.say("terminal: not offered by the client.");
      return "end_turn";
    }
    const env = await this.term({ command: "sh", args: ["-c", "echo $GREETING; pwd"], env: [{ name: "GREETING", value: "hi-env" }] });
    const cut = await this.term({ command: "printf", args: ["ab\u00e9cd"], outputByteLimit: 3 });
    const fail = await this.term({ command: "sh", args: ["-c", "exit 3"] });
    await this.say([env, cut, fail].join("\n"));
    return "end_turn";
  }

  async play(text, blocks) {
    const w = text.toLowerCase();
    if (text.startsWith("/echo")) {
      await this.say("command echo:" + text.slice("/echo".length));
      return "end_turn";
    }
    if (w.includes("blocks")) {
      await this.say(blocks.map((b) => b.type + (b.name ? ":" + b.name : "") + (b.mimeType ? ":" + b.mimeType : "")).join(","));
      return "end_turn";
    }
    if (w.includes("terminal")) return this.terminal();
    if (w.includes("sleeper")) {
      // Killed by the person: wait_for_exit ends with the signal.
      await this.say(await this.term({ command: "sleep", args: ["30"] }));
      return "end_turn";
    }
    if (w.includes("withdrawterm")) return this.withdraw("terminal/create", { command: "sleep", args: ["1"] });
    if (w.includes("waitcancel")) {
      // wait_for_exit withdrawn: the client still answers, -32800.
      const { terminalId } = await this.ctx.client.request("terminal/create", { sessionId: this.sessionId, command: "sleep", args: ["30"] });
      const ref = { sessionId: this.sessionId, terminalId };
      const ac = new AbortController();
      const p = this.ctx.client.request("terminal/wait_for_exit", ref, { cancellationSignal: ac.signal });
      setTimeout(() => ac.abort(), 300);
      let said;
      try {
        said = "wait: " + JSON.stringify(await p);
      } catch (e) {
        said = `wait: ${errorText(e)}`;
      }
      await this.ctx.client.request("terminal/release", ref);
      await this.say(said);
      return "end_turn";
    }
    if (w.includes("manyterms")) {
      // More terminals than a client holds at once, none released.
      let created = 0, refused = [];
      for (let i = 0; i < 40; i++) {
        try {
          await this.ctx.client.request("terminal/create", { sessionId: this.sessionId, command: "sleep", args: ["30"] });
          created++;
        } catch (e) {
          refused.push(errorText(e));
        }
      }
      await this.say(`created ${created}; refused ${refused.length} (${[...new Set(refused)].join(", ")})`);
      return "end_turn";
    }
    if (w.includes("orphan")) {
      // Left running: the client kills it when the turn ends.
      await this.say(await this.term({ command: "sleep", args: ["30"] }, false));
      return "end_turn";
    }
    if (w.includes("notice")) return this.notice();
    if (w.includes("compact")) return this.compact();
    if (w.includes("named")) return this.named();
    if (w.includes("commands")) return this.commands();
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
      agentCapabilities: {
        loadSession: true,
        promptCapabilities: { image: true },
        sessionCapabilities: { list: {}, resume: {}, close: {}, delete: {}, additionalDirectories: {} },
        auth: { logout: {} },
      },
      agentInfo: { name: "elicit-ts-test-agent", title: "ACP TypeScript SDK test agent", version: "1.0.0" },
      authMethods: !authDir ? [] : [
        { id: "agent-login", name: "Agent login" },
        ...(clientCaps.auth?.terminal ? [{ id: "term-login", name: "Log in in a terminal", type: "terminal", args: ["--login"], env: { ELICIT_TS_LOGIN: "yes" } }] : []),
      ],
    };
  })
  .onRequest("authenticate", ({ params }) => {
    if (params.methodId !== "agent-login") throw RequestError.invalidParams(undefined, "not an authenticate method: " + params.methodId);
    authed = true;
    return {};
  })
  .onRequest("session/new", ({ params }) => {
    if (authDir && !signedIn()) throw RequestError.authRequired();
    const sessionId = `ts_sess_${++nextSession}`;
    const s = newState(params.cwd);
    s.dirs = params.additionalDirectories ?? [];
    sessions.set(sessionId, s);
    return { sessionId, ...setup(s) };
  })
  .onRequest("session/load", async (ctx) => {
    // As codex-acp 0.16.0 does: every session method wants the sign-in.
    if (authDir && !signedIn()) throw RequestError.authRequired();
    const s = sessions.get(ctx.params.sessionId);
    if (!s) throw RequestError.sessionNotFound(ctx.params.sessionId);
    s.active = true;
    s.cwd = ctx.params.cwd;
    for (const h of s.history) {
      const text = (t) => ({ type: "text", text: t });
      await ctx.client.notify("session/update", { sessionId: ctx.params.sessionId, update: { sessionUpdate: "user_message_chunk", content: text(h.user) } });
      await ctx.client.notify("session/update", { sessionId: ctx.params.sessionId, update: { sessionUpdate: "agent_message_chunk", content: text(h.agent) } });
    }
    return setup(s);
  })
  .onRequest("session/resume", ({ params }) => {
    // As codex-acp 0.16.0 does: every session method wants the sign-in.
    if (authDir && !signedIn()) throw RequestError.authRequired();
    const s = sessions.get(params.sessionId);
    if (!s) throw RequestError.sessionNotFound(params.sessionId);
    s.active = true;
    s.cwd = params.cwd;
    return setup(s);
  })
  .onRequest("session/list", ({ params }) => {
    // As codex-acp 0.16.0 does: every session method wants the sign-in.
    if (authDir && !signedIn()) throw RequestError.authRequired();
    const all = [...sessions.entries()].filter(([, s]) => !params.cwd || s.cwd === params.cwd);
    const from = params.cursor ? Number(params.cursor) : 0;
    const page = all.slice(from, from + 2).map(([sessionId, s]) => ({ sessionId, cwd: s.cwd, title: s.history[0]?.user ?? "new" }));
    return from + 2 < all.length ? { sessions: page, nextCursor: String(from + 2) } : { sessions: page };
  })
  .onRequest("session/close", ({ params }) => {
    const s = active(params.sessionId);
    s.cancelled.abort();
    s.active = false;
    return {};
  })
  .onRequest("session/delete", ({ params }) => {
    // As codex-acp 0.16.0 does: every session method wants the sign-in.
    if (authDir && !signedIn()) throw RequestError.authRequired();
    if (!sessions.delete(params.sessionId)) throw RequestError.sessionNotFound(params.sessionId);
    return {};
  })
  .onRequest("session/set_mode", async (ctx) => {
    const s = active(ctx.params.sessionId);
    if (!modes(s).availableModes.some((m) => m.id === ctx.params.modeId)) throw RequestError.invalidParams(undefined, "no such mode");
    s.mode = ctx.params.modeId;
    await ctx.client.notify("session/update", { sessionId: ctx.params.sessionId, update: { sessionUpdate: "current_mode_update", currentModeId: s.mode } });
    return {};
  })
  .onRequest("session/set_config_option", async (ctx) => {
    const p = ctx.params;
    const s = active(p.sessionId);
    if (p.configId === "verbose" && p.type === "boolean" && typeof p.value === "boolean") s.verbose = p.value;
    else if (p.configId === "model" && p.type === undefined && ["small", "large"].includes(p.value)) s.model = p.value;
    else throw RequestError.invalidParams(undefined, `bad value for ${p.configId}`);
    await ctx.client.notify("session/update", { sessionId: p.sessionId, update: { sessionUpdate: "config_option_update", configOptions: configOptions(s) } });
    return { configOptions: configOptions(s) };
  })
  .onRequest("logout", () => ({}))
  .onRequest("session/prompt", async (ctx) => {
    const s = active(ctx.params.sessionId);
    s.cancelled = new AbortController();
    const text = ctx.params.prompt.map((b) => (b.type === "text" ? b.text : "")).join("");
    const turn = new Turn(ctx);
    const said = [];
    const say = turn.say.bind(turn);
    turn.say = (t) => { said.push(t); return say(t); };
    const stopReason = await turn.play(text, ctx.params.prompt);
    s.history.push({ user: text, agent: said.join("") });
    return { stopReason };
  })
  .onNotification("session/cancel", ({ params }) => {
    sessions.get(params.sessionId)?.cancelled.abort();
  });

const stream = acp.ndJsonStream(Writable.toWeb(process.stdout), Readable.toWeb(process.stdin));
const conn = app.connect(stream);
await conn.closed;
