// serveStdio sends console.log / info / debug to stderr while serving (docs/runtime.md "stdio and
// console"): a tool that writes with console mid-call still answers over the official client, and
// its text (util.format output plus a newline) appears on the child's stderr.
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";

const FIXTURE = fileURLToPath(new URL("./fixtures/server-requests.mjs", import.meta.url));

it("console.log('x') mid-call: the call is answered, 'x' is on stderr", async () => {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [FIXTURE],
    env: { ...(process.env as Record<string, string>), TMCP_SERVE_STDIO: "1" },
    stderr: "pipe",
  });
  const stderr: string[] = [];
  transport.stderr?.on("data", (chunk: Buffer) => stderr.push(chunk.toString()));
  const client = new Client({ name: "vitest-client", version: "0.0.1" });
  await client.connect(transport);
  try {
    for (let round = 0; round < 2; round++)
      expect(await client.callTool({ name: "chatty", arguments: {} })).toEqual({
        content: [{ type: "text", text: "spoke" }],
      });
    // stderr is its own pipe: the answer on stdout may arrive first. Wait (at most 10 s) for its bytes.
    const expected = "x\ninfo 2\n{ a: 1 }\nx\ninfo 2\n{ a: 1 }\n";
    for (const end = Date.now() + 10_000; stderr.join("").length < expected.length && Date.now() < end; )
      await new Promise((r) => setTimeout(r, 20));
    expect(stderr.join("")).toBe(expected);
  } finally {
    await client.close();
  }
});
