// serveStdio sends console.log / info / debug to stderr while serving (docs/runtime.md "stdio and
// console"): a tool that writes with console mid-call still answers over the official client, and
// its text (util.format output plus a newline) appears on the child's stderr.
import { expect, it } from "vitest";
import { connectServerRequestsStdio } from "./server-requests-stdio.ts";

it("console.log('x') mid-call: the call is answered, 'x' is on stderr", async () => {
  const { client, stderr } = await connectServerRequestsStdio();
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
