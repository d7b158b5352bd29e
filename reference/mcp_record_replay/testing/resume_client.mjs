// A client that resumes an event stream (MCP Streamable HTTP, "Resumability and Redelivery"), for
// the HTTP round trip (errata MRR-E53, "Sent again"): over plain fetch, so that each request is
// exactly what the test says. It sends initialize (its answer an event stream whose event id it
// keeps), notifications/initialized and prompts/list, then a GET with Last-Event-ID set to the id
// of initialize's answer, and reads that stream until prompts/list's answer comes again.
// server-everything's event store sends a resuming client every event of the session after the
// id, answers already delivered included: the recording proxy must relay them and record none
// twice. Exits 0 once the answer came again, 1 when the server did not send it within the time
// (then there is nothing to test), 2 on any other failure.
//
// usage: node resume_client.mjs URL
const url = process.argv[2];
const timeout = AbortSignal.timeout(30_000);
const headers = {
  Accept: 'application/json, text/event-stream',
  'Content-Type': 'application/json',
  'MCP-Protocol-Version': '2025-06-18',
};

async function post(message) {
  const response = await fetch(url, {
    method: 'POST', headers, body: JSON.stringify(message), signal: timeout,
  });
  if (!response.ok) throw new Error(`${message.method}: HTTP ${response.status}`);
  return response;
}

try {
  const initialize = await post({
    jsonrpc: '2.0', id: 1, method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'resume', version: '1' } },
  });
  headers['Mcp-Session-Id'] = initialize.headers.get('mcp-session-id');
  const id = /^id: ?([^\r\n]+)/m.exec(await initialize.text())?.[1];  // \r\n, \r or \n
  if (!headers['Mcp-Session-Id'] || !id) throw new Error('initialize: no session id or event id');
  await (await post({ jsonrpc: '2.0', method: 'notifications/initialized' })).text();
  await (await post({ jsonrpc: '2.0', id: 2, method: 'prompts/list' })).text();

  const resumed = await fetch(url, {
    headers: { ...headers, Accept: 'text/event-stream', 'Last-Event-ID': id }, signal: timeout,
  });
  if (!resumed.ok) throw new Error(`GET: HTTP ${resumed.status}`);
  const decoder = new TextDecoder();
  let text = '';
  for await (const chunk of resumed.body) {
    text += decoder.decode(chunk, { stream: true });
    if (text.includes('"prompts":[')) {
      console.log('prompts/list answered again on the resumed stream');
      process.exit(0);
    }
  }
  console.error(`the resumed stream ended without prompts/list's answer:\n${text}`);
  process.exit(1);
} catch (error) {
  console.error(String(error));
  process.exit(timeout.aborted ? 1 : 2);
}
