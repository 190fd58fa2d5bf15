// The TypeScript SDK's client doing what elicit's headless commands do,
// for scripts/bench-peers (as ../gosdk does with go-sdk): connect with
// the SDK's defaults, list the tools or call one, accept any form
// elicitation with its schema's defaults, print the result as indented
// JSON, and close.
//
//   node client.mjs tools (--url URL | -- CMD ARGS...)
//   node client.mjs call TOOL [--args JSON] (--url URL | -- CMD ARGS...)
//
// ELICIT_TS_SDK: the @modelcontextprotocol/sdk folder (/work/peers.env).
import path from 'node:path';

const sdk = process.env.ELICIT_TS_SDK;
if (!sdk) {
  console.error('ts client: ELICIT_TS_SDK is not set');
  process.exit(2);
}
const esm = (p) => import(path.join(sdk, 'dist/esm', p));
const { Client } = await esm('client/index.js');
const { ElicitRequestSchema } = await esm('types.js');

const argv = process.argv.slice(2);
const dash = argv.indexOf('--');
const flags = dash < 0 ? argv : argv.slice(0, dash);
const command = dash < 0 ? [] : argv.slice(dash + 1);
const cmd = flags.shift();
let tool;
if (cmd === 'call') {
  tool = flags.shift();
} else if (cmd !== 'tools') {
  console.error(`ts client: want tools or call, got ${cmd}`);
  process.exit(2);
}
let url = '';
let args = {};
while (flags.length > 0) {
  const f = flags.shift();
  if (f === '--url') url = flags.shift();
  else if (f === '--args') args = JSON.parse(flags.shift());
  else {
    // No --protocol: the SDK offers its own latest version and the
    // rows that pin one are not run against this peer.
    console.error(`ts client: unknown flag ${f}`);
    process.exit(2);
  }
}

let transport;
if (url) {
  const { StreamableHTTPClientTransport } = await esm('client/streamableHttp.js');
  transport = new StreamableHTTPClientTransport(new URL(url));
} else if (command.length > 0) {
  const { StdioClientTransport } = await esm('client/stdio.js');
  transport = new StdioClientTransport({ command: command[0], args: command.slice(1), stderr: 'inherit' });
} else {
  console.error('ts client: want --url URL or -- CMD ARGS');
  process.exit(2);
}

const client = new Client({ name: 'ts-peer', version: '1' }, { capabilities: { elicitation: { form: {} } } });
client.setRequestHandler(ElicitRequestSchema, (req) => {
  const content = {};
  const props = req.params.requestedSchema?.properties ?? {};
  for (const [name, p] of Object.entries(props)) {
    if (p && 'default' in p) content[name] = p.default;
  }
  return { action: 'accept', content };
});
await client.connect(transport);
let out;
if (cmd === 'tools') {
  const tools = [];
  let cursor;
  do {
    const page = await client.listTools(cursor ? { cursor } : undefined);
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor);
  out = { tools };
} else {
  out = { result: await client.callTool({ name: tool, arguments: args }) };
}
process.stdout.write(JSON.stringify(out, null, 2) + '\n');
await client.close();
