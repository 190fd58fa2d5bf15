// A stdio MCP server on the official TypeScript SDK's low-level Server
// (1.32.2 has no skills helper, so the extension's handlers are written
// here) declaring the skills extension (SEP-2640), for elicit's skills
// tests: an independent peer whose JSON-RPC and framing are the SDK's.
//
//   node ts-skills-server.mjs SDK_DIR [--no-extension] [--directory-read]
//
// Skills: pdf (SKILL.md, forms/FORMS.md, a nested sub/SKILL.md with
// another skill's frontmatter), tampered (data.txt whose declared digest
// is wrong), gen ("dynamic", its folder readable by
// resources/directory/read with --directory-read), and a second "pdf"
// under another URI (skills are keyed by URI, not by name). Every
// request's method goes to stderr as "method: NAME", for the tests to
// see what was asked.
import path from "node:path";
import { createHash } from "node:crypto";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";

const sdkDir = process.argv[2];
if (!sdkDir) {
  console.error("usage: node ts-skills-server.mjs SDK_DIR [--no-extension] [--directory-read]");
  process.exit(2);
}
const flags = new Set(process.argv.slice(3));
const imp = (p) => import(pathToFileURL(path.join(sdkDir, p)).href);
const { Server } = await imp("dist/esm/server/index.js");
const { StdioServerTransport } = await imp("dist/esm/server/stdio.js");
const { z } = createRequire(path.join(sdkDir, "package.json"))("zod/v4");

const files = {
  "skill://pdf/SKILL.md": "---\nname: pdf\ndescription: Extract text from PDFs\n---\n\nUse forms/FORMS.md for forms.\n",
  "skill://pdf/forms/FORMS.md": "Fill the form field by field.\n",
  "skill://pdf/sub/SKILL.md": "---\nname: nested\ndescription: a nested skill, not activated\n---\nnested body\n",
  "skill://tampered/SKILL.md": "---\nname: tampered\ndescription: Its data.txt is not what it declares\n---\n\nRead data.txt.\n",
  "skill://tampered/data.txt": "the bytes actually served\n",
  "skill://gen/SKILL.md": "---\nname: gen\ndescription: Generated files\n---\n\nGenerated.\n",
  "skill://gen/today.txt": "generated today\n",
  "skill://other/pdf/SKILL.md": "---\nname: pdf\ndescription: Another pdf skill\n---\n\nOther.\n",
};
const digest = (s) => "sha256:" + createHash("sha256").update(s, "utf8").digest("hex");
const declared = (uri, lie) => ({
  uri,
  digest: lie ? digest("the bytes declared\n") : digest(files[uri]),
  size: Buffer.byteLength(files[uri], "utf8"),
});
const entry = (uri, name, description, resources) => ({ uri, frontmatter: { name, description }, resources });
const skills = [
  entry("skill://pdf/SKILL.md", "pdf", "Extract text from PDFs",
    ["skill://pdf/SKILL.md", "skill://pdf/forms/FORMS.md", "skill://pdf/sub/SKILL.md"].map((u) => declared(u))),
  entry("skill://tampered/SKILL.md", "tampered", "Its data.txt is not what it declares",
    [declared("skill://tampered/SKILL.md"), declared("skill://tampered/data.txt", true)]),
  entry("skill://gen/SKILL.md", "gen", "Generated files", "dynamic"),
  entry("skill://other/pdf/SKILL.md", "pdf", "Another pdf skill", [declared("skill://other/pdf/SKILL.md")]),
];

const extensions = flags.has("--no-extension") ? {} : {
  extensions: { "io.modelcontextprotocol/skills": flags.has("--directory-read") ? { directoryRead: true } : {} },
};
const server = new Server({ name: "ts-skills", version: "1.0.0" }, { capabilities: { resources: {}, ...extensions } });
const request = (method, params) => z.object({ method: z.literal(method), params: params.optional() });
const log = (method) => process.stderr.write(`method: ${method}\n`);

server.setRequestHandler(request("skills/list", z.object({ cursor: z.string().optional() })), () => {
  log("skills/list");
  return { skills };
});
server.setRequestHandler(request("skills/get", z.object({ uri: z.string() })), (req) => {
  log("skills/get");
  const skill = skills.find((s) => s.uri === req.params?.uri);
  if (!skill) throw new Error(`no skill ${req.params?.uri}`);
  return { skill };
});
server.setRequestHandler(request("resources/directory/read", z.object({ uri: z.string(), cursor: z.string().optional() })), (req) => {
  log("resources/directory/read");
  const dir = req.params.uri;
  // Two pages, so a client that stops after the first is seen.
  const children = Object.keys(files).filter((u) => u.startsWith(dir) && !u.slice(dir.length).includes("/"));
  const page = req.params.cursor === "2" ? children.slice(1) : children.slice(0, 1);
  const res = { resources: page.map((u) => ({ uri: u, name: u.slice(dir.length) })) };
  if (req.params.cursor !== "2" && children.length > 1) res.nextCursor = "2";
  return res;
});
server.setRequestHandler(request("resources/list", z.object({ cursor: z.string().optional() })), () => {
  log("resources/list");
  return { resources: [] };
});
server.setRequestHandler(request("resources/read", z.object({ uri: z.string() })), (req) => {
  log("resources/read");
  const uri = req.params.uri;
  if (!(uri in files)) throw new Error(`no resource ${uri}`);
  return { contents: [{ uri, mimeType: "text/markdown", text: files[uri] }] };
});

await server.connect(new StdioServerTransport());
