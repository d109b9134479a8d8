// Spec §7: an error that answers a request the server made (ctx.elicit / sample / listRoots: the
// client's JSON-RPC error, or a capability the client did not declare, before 2026-07-28) rejects
// that call with a typed-mcp error carrying method, code and message that is never a protocol
// error: uncaught, the tool answers isError "The tool failed." (and the error is published), never
// the client's error as the tools/call answer. On 2026-07-28 a missing capability stays -32021.
// With the official client, over real stdio (fixtures/server-requests.mjs in a child process) and
// over HTTP (server.fetch). docs/runtime.md "Server→client requests".
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { Client, ProtocolError, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { createServer } from "./fixtures/server-requests.mjs";
import { connectServerRequestsStdio } from "./server-requests-stdio.ts";

const FAILED = { content: [{ type: "text", text: "The tool failed." }], isError: true };
const METHODS = [
  ["roots", "roots/list"],
  ["sample", "sampling/createMessage"],
  ["elicit", "elicitation/create"],
] as const;

const open: Client[] = [];
afterEach(async () => {
  for (const client of open.splice(0)) await client.close();
});

/**
 * The child's stderr once it holds `text`, or after 10 s: stderr is its own pipe, so the tool's
 * answer on stdout may arrive before what the server published.
 */
async function stderrWith(stderr: string[], text: string): Promise<string> {
  for (const end = Date.now() + 10_000; !stderr.join("").includes(text) && Date.now() < end; )
    await new Promise((r) => setTimeout(r, 20));
  return stderr.join("");
}

/** The official client on a fresh stdio child; `stderr` collects its stderr. */
async function stdio(options: Record<string, unknown>) {
  const connected = await connectServerRequestsStdio(options);
  open.push(connected.client);
  return connected;
}

type StdioSession = Awaited<ReturnType<typeof connectServerRequestsStdio>>;

/**
 * One stdio child for every test of the enclosing `describe` (each test is its own tools/call;
 * what a test reads of stderr names its own tool and method): the session `connect` makes once.
 */
function sharedStdio(connect: () => Promise<StdioSession>): () => StdioSession {
  let session: StdioSession | undefined;
  beforeAll(async () => {
    session = await connect();
  });
  afterAll(async () => {
    await session?.client.close();
  });
  return () => session!;
}

/** The official client on `server.fetch` of a fresh server; `failures` is what onToolError got. */
async function http(options: Record<string, unknown>) {
  const failures: unknown[] = [];
  const server = createServer(failures);
  const client = new Client({ name: "vitest-client", version: "0.0.1" }, options);
  await client.connect(
    new StreamableHTTPClientTransport(new URL("http://127.0.0.1/mcp"), {
      fetch: (input, init) => server.fetch(new Request(input, init)),
    }),
  );
  open.push(client);
  return { client, failures };
}

/** What the catching tool saw, parsed from its text answer. */
async function caught(client: Client, what: string) {
  const result = await client.callTool({ name: "ask", arguments: { what } }, { timeout: 5000 });
  expect(result.isError).toBeFalsy();
  return JSON.parse((result.content as Array<{ text: string }>)[0]!.text);
}

describe("stdio 2025-11-25, a client without sampling / roots / elicitation", () => {
  const session = sharedStdio(() => connectServerRequestsStdio({ capabilities: {} }));

  it.each(METHODS)("ctx %s rejects with ServerRequestError naming %s and -32021", async (what, method) => {
    const { client } = session();
    expect(await caught(client, what)).toMatchObject({ name: "ServerRequestError", method, code: -32021 });
  });

  it.each(METHODS)("uncaught (%s): 'The tool failed.', published", async (what, method) => {
    const { client, stderr } = session();
    expect(await client.callTool({ name: "ask_uncaught", arguments: { what } }, { timeout: 5000 })).toEqual(FAILED);
    expect(await stderrWith(stderr, `published ask_uncaught: ServerRequestError ${method} -32021\n`)).toContain(
      `published ask_uncaught: ServerRequestError ${method} -32021\n`,
    );
  });
});

describe("stdio 2025-11-25, a client whose handlers answer a JSON-RPC error", () => {
  const refusing = sharedStdio(async () => {
    const session = await connectServerRequestsStdio({
      capabilities: { roots: {}, sampling: {}, elicitation: { form: {} } },
    });
    for (const [, method] of METHODS)
      session.client.setRequestHandler(method, async () => {
        throw new ProtocolError(-32050, `No ${method} here.`, { why: "test" });
      });
    return session;
  });

  it.each(METHODS)("ctx %s rejects with the client's code, message and data", async (what, method) => {
    const { client } = refusing();
    const seen = await caught(client, what);
    expect(seen).toMatchObject({ name: "ServerRequestError", method, code: -32050, data: { why: "test" } });
    expect(seen.message).toContain(`No ${method} here.`);
  });

  it.each(METHODS)(
    "uncaught (%s): 'The tool failed.', never the client's error as the answer",
    async (what, method) => {
      const { client, stderr } = refusing();
      expect(await client.callTool({ name: "ask_uncaught", arguments: { what } }, { timeout: 5000 })).toEqual(FAILED);
      expect(await stderrWith(stderr, `published ask_uncaught: ServerRequestError ${method} -32050\n`)).toContain(
        `published ask_uncaught: ServerRequestError ${method} -32050\n`,
      );
    },
  );

  it("a handler that answers is still a real request", async () => {
    const { client } = await stdio({ capabilities: { roots: {} } });
    client.setRequestHandler("roots/list", async () => ({ roots: [{ uri: "file:///tmp" }] }));
    expect(await client.callTool({ name: "ask", arguments: { what: "roots" } })).toEqual({
      content: [{ type: "text", text: "roots: 1" }],
    });
  });
});

describe("HTTP (server.fetch)", () => {
  it.each(METHODS)(
    "2025-11-25 without capabilities: ctx %s rejects with ServerRequestUnavailableError, a ServerRequestError (%s, -32603)",
    async (what, method) => {
      const { client } = await http({ capabilities: {} });
      expect(await caught(client, what)).toMatchObject({ name: "ServerRequestUnavailableError", method, code: -32603 });
    },
  );

  it("2025-11-25 uncaught: 'The tool failed.', the error passed to onToolError", async () => {
    const { client, failures } = await http({ capabilities: {} });
    expect(await client.callTool({ name: "ask_uncaught", arguments: { what: "sample" } })).toEqual(FAILED);
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({ method: "sampling/createMessage", code: -32603 });
  });

  it.each(METHODS)(
    "2026-07-28 without the capability: ctx %s stays -32021, even through a catching tool",
    async (what) => {
      const { client } = await http({ capabilities: {}, versionNegotiation: { mode: { pin: "2026-07-28" } } });
      const error = await client.callTool({ name: "ask", arguments: { what } }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(ProtocolError);
      expect((error as ProtocolError).code).toBe(-32021);
    },
  );
});
