// A real MCP client for the record/replay round trip: the official TypeScript SDK's Client (pinned
// in tools/node) runs a fixed session against a server started by a shell command, and writes what
// it got back as JSON. Recording the session (`arcs mcp record --upstream SERVER -o rec.jsonl` as
// the --server) and replaying it (`arcs mcp replay -r rec.jsonl`) must give the same results file.
//
// usage: node mcp_client.mjs (--server "<shell command>" | --url URL | --sse-url URL) [--shuffle]
//                            [--rich] [--skip NAME]... [--out results.json]
//
// --server starts the server and talks to it on stdio; --url talks to one at URL over MCP's
// Streamable HTTP transport (the SDK's StreamableHTTPClientTransport), --sse-url over the legacy
// HTTP+SSE transport (SSEClientTransport: the GET stream at URL, POSTs where it says).
//
// The session: initialize (connect() sends it, then the notification notifications/initialized),
// tools/list, resources/list, prompts/list, then tools/call (echo x3, get-sum x2,
// get-structured-content, get-tiny-image: base64 content, EC-REC-006), resources/read x2 (static
// documents), prompts/get x2, and a prompts/get of an unknown prompt (answered with a JSON-RPC
// error). --shuffle makes the calls after the three lists in the reverse order (a by-request
// replay must still answer each); the results file is the same either way. Requests are sent one
// at a time, each awaited.
//
// --rich declares the roots and sampling capabilities and adds what makes the server talk on its
// own: server-everything asks for the client's roots 350 ms after notifications/initialized and
// logs what it got, registers the sampling tool (notifications/tools/list_changed), sends a
// sampling/createMessage request during trigger-sampling-request (the client answers it with a
// fixed message), and progress notifications during trigger-long-running-operation. The results
// then also hold each call's progress, and what the server said and asked of its own accord (the
// distinct notifications and requests, sorted: a replay that also passes a call through to a
// live server may hear them twice); the client waits for the roots request and the roots' log
// line before it ends. Both: a replay sends each where it was recorded (errata MRR-E39), and a
// recording made under load may put the request after the first call's response, which a
// reversed replay answers last, the log line having gone out earlier.
// --skip NAME leaves a call out (a recording without it, for passthrough to answer).
//
// Without --rich, replayable under every reading of errata MRR-E39: the client declares no
// capabilities, so server-everything asks it nothing (it sends roots/list only to a client with
// `roots`; sampling and elicitation only from tools this session does not call), and no tool is
// called that makes the server talk on its own (simulated logging, resource subscriptions,
// progress). What server-everything 2026.8.31 still sends of its own accord in this session is
// notifications/tools/list_changed right after notifications/initialized (it registers its task
// tool then), which this client ignores.
//
// The results are deterministic: only the static parts of server-everything are read (its dynamic
// resources carry the time), and nothing of the transport (pids, timings) is written. Exit
// status: 0 when the session ran (a JSON-RPC error answer is a result, not a failure), 1 when the
// server could not be reached, closed the connection or left a request unanswered for 10 s, 2 on
// a usage error.
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const sdk = join(here, '../../../tools/node/node_modules/@modelcontextprotocol/sdk/dist/esm');
const { Client } = await import(pathToFileURL(join(sdk, 'client/index.js')).href);
const { StdioClientTransport } = await import(pathToFileURL(join(sdk, 'client/stdio.js')).href);
const { StreamableHTTPClientTransport } =
  await import(pathToFileURL(join(sdk, 'client/streamableHttp.js')).href);
const { SSEClientTransport } = await import(pathToFileURL(join(sdk, 'client/sse.js')).href);
const { CreateMessageRequestSchema, ListRootsRequestSchema, ProgressNotificationSchema } =
  await import(pathToFileURL(join(sdk, 'types.js')).href);

function usage(message) {
  process.stderr.write(`mcp_client.mjs: ${message}\n` +
    'usage: node mcp_client.mjs (--server "<shell command>" | --url URL | --sse-url URL) ' +
    '[--shuffle] [--rich] ' +
    '[--skip NAME]... [--out results.json]\n');
  process.exit(2);
}

function parseArgs(argv) {
  const args = {
    server: null, url: null, 'sse-url': null, shuffle: false, rich: false, skip: new Set(), out: null,
  };
  for (let i = 0; i < argv.length; ++i) {
    const a = argv[i];
    if (a === '--shuffle' || a === '--rich') {
      args[a.slice(2)] = true;
    } else if (a === '--skip') {
      if (i + 1 >= argv.length) usage('--skip needs a value');
      args.skip.add(argv[++i]);
    } else if (['--server', '--url', '--sse-url', '--out'].includes(a)) {
      if (i + 1 >= argv.length) usage(`${a} needs a value`);
      args[a.slice(2)] = argv[++i];
    } else {
      usage(`unknown argument ${JSON.stringify(a)}`);
    }
  }
  if ([args.server, args.url, args['sse-url']].filter(Boolean).length !== 1) {
    usage('give one of --server, --url and --sse-url');
  }
  return args;
}

// Every request gives up after this (the SDK's default is a minute): a replayer that does not
// answer fails the session quickly.
const OPTIONS = { timeout: 10000 };
const tool = (c, name, args) => c.callTool({ name, arguments: args }, undefined, OPTIONS);

// The calls after the lists, each a name (the key in the results) and what it sends. Static
// content only: the same answers on every run.
const CALLS = [
  ['echo-hello', (c) => tool(c, 'echo', { message: 'hello' })],
  ['echo-non-ascii', (c) => tool(c, 'echo', { message: 'héllo wörld ✓ 𝄞' })],
  ['echo-escapes', (c) => tool(c, 'echo', { message: 'tab\there "q" \\ ⏎\n' })],
  ['get-sum-integers', (c) => tool(c, 'get-sum', { a: 2, b: 3 })],
  ['get-sum-fractions', (c) => tool(c, 'get-sum', { a: 1.5, b: -0.25 })],
  ['get-structured-content',
    (c) => tool(c, 'get-structured-content', { location: 'Chicago' })],
  ['get-tiny-image', (c) => tool(c, 'get-tiny-image', {})],
  ['read-features',
    (c) => c.readResource({ uri: 'demo://resource/static/document/features.md' }, OPTIONS)],
  ['read-instructions',
    (c) => c.readResource({ uri: 'demo://resource/static/document/instructions.md' }, OPTIONS)],
  ['prompt-simple', (c) => c.getPrompt({ name: 'simple-prompt' }, OPTIONS)],
  ['prompt-args', (c) => c.getPrompt(
    { name: 'args-prompt', arguments: { city: 'Paris', state: 'Texas' } }, OPTIONS)],
  ['prompt-unknown', (c) => c.getPrompt({ name: 'no-such-prompt' }, OPTIONS)],
];

// The calls of --rich. The progress notifications a call gets are kept by a handler of our own:
// the SDK's drops one that comes in the same read as the response (it forgets the token first).
const RICH_CALLS = [
  ['long-running', (c) => c.callTool(
    { name: 'trigger-long-running-operation', arguments: { duration: 0.6, steps: 3 } }, undefined,
    { ...OPTIONS, onprogress: () => {} })],
  ['sampling', (c) => tool(c, 'trigger-sampling-request', { prompt: 'Say hi', maxTokens: 10 })],
];
const ROOTS = { roots: [{ uri: 'file:///tmp/arcs-roots', name: 'arcs test root' }] };
const SAMPLED = {
  role: 'assistant', content: { type: 'text', text: 'hi from the client' }, model: 'arcs-model',
  stopReason: 'endTurn',
};

// The codes the SDK gives its own failures: the connection closed (-32000), no answer in time
// (-32001). No answer at all means the session did not run.
const TRANSPORT_FAILURES = new Set([-32000, -32001]);

// A request's outcome as data: its result, or the JSON-RPC error it was answered with.
async function outcome(call) {
  try {
    return { result: await call() };
  } catch (error) {
    if (typeof error?.code === 'number' && !TRANSPORT_FAILURES.has(error.code)) {
      return { error: { code: error.code, message: error.message } };
    }
    throw error;
  }
}

// What the server says and asks of its own accord, as distinct sorted lines; `rootsLogged`
// resolves once its log line about the roots has come, `rootsAsked` once it has asked for them;
// `progress` gets the progress and total of each progress notification (the token is the live
// request's id, which a shuffled replay's recording does not know).
function listen(client) {
  const heard = new Set();
  const progress = { of: [] };
  client.setNotificationHandler(ProgressNotificationSchema, async (n) => {
    progress.of.push({ progress: n.params.progress, total: n.params.total });
  });
  let logged;
  const rootsLogged = new Promise((resolve) => { logged = resolve; });
  let asked;
  const rootsAsked = new Promise((resolve) => { asked = resolve; });
  client.fallbackNotificationHandler = async (n) => {
    const data = n.params?.data;
    heard.add(`notification ${n.method}${data === undefined ? '' : ' ' + JSON.stringify(data)}`);
    if (typeof data === 'string' && data.startsWith('Roots updated')) logged();
  };
  client.setRequestHandler(ListRootsRequestSchema, async () => {
    heard.add('request roots/list');
    asked();
    return ROOTS;
  });
  client.setRequestHandler(CreateMessageRequestSchema, async (request) => {
    heard.add(`request sampling/createMessage ${JSON.stringify(request.params.messages)}`);
    return SAMPLED;
  });
  return { heard, rootsLogged, rootsAsked, progress };
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const transport = args.url ? new StreamableHTTPClientTransport(new URL(args.url))
    : args['sse-url'] ? new SSEClientTransport(new URL(args['sse-url']))
      : new StdioClientTransport({ command: '/bin/sh', args: ['-c', args.server] });
  const capabilities = args.rich ? { roots: {}, sampling: {} } : {};
  const client = new Client({ name: 'arcs-mcp-client', version: '1.0.0' }, { capabilities });
  const listening = args.rich ? listen(client) : null;
  const results = {};
  try {
    await client.connect(transport, OPTIONS);
    results.server = client.getServerVersion();
    results.capabilities = client.getServerCapabilities();
    results.instructions = client.getInstructions() ?? null;
    results.tools = await outcome(() => client.listTools(undefined, OPTIONS));
    results.resources = await outcome(() => client.listResources(undefined, OPTIONS));
    results.prompts = await outcome(() => client.listPrompts(undefined, OPTIONS));
    const all = [...CALLS, ...(args.rich ? RICH_CALLS : [])].filter(([n]) => !args.skip.has(n));
    const calls = args.shuffle ? [...all].reverse() : all;
    results.calls = {};
    for (const [name, call] of calls) {
      const progress = [];
      if (listening) listening.progress.of = progress;
      results.calls[name] = await outcome(() => call(client));
      if (progress.length) results.calls[name].progress = progress;
    }
    // One key order whatever the call order, so that --shuffle writes the same file.
    results.calls = Object.fromEntries(all.map(([name]) => [name, results.calls[name]]));
    if (listening) {
      let timer;
      const waited = await Promise.race([
        Promise.all([listening.rootsLogged, listening.rootsAsked]).then(() => true),
        new Promise((resolve) => { timer = setTimeout(() => resolve(false), OPTIONS.timeout); }),
      ]);
      clearTimeout(timer);
      if (!waited) throw new Error('the server never asked for the roots and logged them');
      results.heard = [...listening.heard].sort();
    }
  } finally {
    await client.close();
  }
  const text = JSON.stringify(results, null, 2) + '\n';
  if (args.out) writeFileSync(args.out, text);
  else process.stdout.write(text);
}

main().catch((error) => {
  process.stderr.write(`mcp_client.mjs: ${error?.stack ?? error}\n`);
  process.exit(1);
});
