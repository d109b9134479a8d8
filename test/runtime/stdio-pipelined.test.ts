// Issue 25 row 9: N pings pipelined in one stdio write, then one more, are all answered at once
// (JSON-RPC 2.0 §4: every request gets its response; MCP ping: "The receiver MUST respond
// promptly"). The SDK 2.4.0 StdioServerTransport#send cleaned up one listener per waiting answer
// (O(N²)): the extra ping after 50,000 waited 50 s. Patch 6 (sdk-patches-stdio.ts) makes it linear.
// The child-process case runs 50,000 pings in the full tier and 5,000 in the fast one; it is
// bounded by a generous timeout only (speed is measured by scripts/bench/stdio-pings.mjs).
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { linearStdioSend } from "../../packages/typed-mcp/dist/protocol/sdk-patches-stdio.js";
import { until } from "./helpers.js";
import { RawSession } from "./stdio-session.js";

// The SDK typed-mcp's dist imports (the workspace root does not depend on it).
const SDK_DIR = new URL("../../packages/typed-mcp/node_modules/@modelcontextprotocol/server/", import.meta.url);
const { StdioServerTransport } = (await import(
  new URL("dist/stdio.mjs", SDK_DIR).href
)) as typeof import("@modelcontextprotocol/server/stdio");

// The full tier (`npm run test:all` sets TYPED_MCP_TIER=full; test/helpers/tier.ts on the tiers branch) sends 50,000.
const FULL = process.env.TYPED_MCP_TIER === "full";
const PINGS = FULL ? 50_000 : 5_000;

/** A stdout that is "full" after any one message (16-byte highWaterMark), read only when the test says so. */
function slowStdout(): PassThrough {
  return new PassThrough({ highWaterMark: 16 });
}

const ping = (id: number) => ({ jsonrpc: "2.0" as const, id, result: {} });

describe("stdio sending is linear (patch 6)", () => {
  it("the SDK's own send (the version guard): still one drain listener per waiting answer, so the patch is still needed", async () => {
    const stdout = slowStdout();
    const transport = new StdioServerTransport(new PassThrough(), stdout as never);
    await transport.start();
    const sent = Array.from({ length: 100 }, (_, i) => transport.send(ping(i)));
    // When this fails the SDK changed its send: re-measure with scripts/bench/stdio-pings.mjs and drop
    // or rewrite sdk-patches-stdio.ts (written for @modelcontextprotocol/server 2.4.0).
    expect(
      stdout.listenerCount("drain"),
      "@modelcontextprotocol/server changed StdioServerTransport#send (sdk-patches-stdio.ts, written for 2.4.0)",
    ).toBe(100);
    stdout.resume();
    await Promise.all(sent);
  });

  it("1,000 answers waiting for one drain share one drain and one error listener, and are written in order", async () => {
    const stdout = slowStdout();
    const transport = new StdioServerTransport(new PassThrough(), stdout as never);
    linearStdioSend(transport, stdout);
    await transport.start();
    const errorListenersAtStart = stdout.listenerCount("error");
    const sent = Array.from({ length: 1000 }, (_, i) => transport.send(ping(i)));
    expect(stdout.listenerCount("drain")).toBe(1);
    expect(stdout.listenerCount("error")).toBe(errorListenersAtStart + 1);
    let written = "";
    stdout.on("data", (chunk: Buffer) => (written += chunk.toString("utf8")));
    await Promise.all(sent);
    expect(written).toBe(Array.from({ length: 1000 }, (_, i) => `{"jsonrpc":"2.0","id":${i},"result":{}}\n`).join(""));
    expect(stdout.listenerCount("drain")).toBe(0);
    expect(stdout.listenerCount("error")).toBe(errorListenersAtStart);
  });

  it("a stdout error rejects every waiting send with that error; a send after close() rejects", async () => {
    const stdout = slowStdout();
    const transport = new StdioServerTransport(new PassThrough(), stdout as never);
    linearStdioSend(transport, stdout);
    await transport.start();
    const waiting = [transport.send(ping(1)), transport.send(ping(2))].map((p) =>
      p.then(
        () => "sent",
        (e: Error) => e.message,
      ),
    );
    stdout.emit("error", new Error("EPIPE"));
    expect(await Promise.all(waiting)).toEqual(["EPIPE", "EPIPE"]);
    await transport.close();
    await expect(transport.send(ping(3))).rejects.toThrow("StdioServerTransport is closed");
  });

  it("the SDK's own close on stdin end reaches the patch: a send after it rejects", async () => {
    const stdin = new PassThrough();
    const stdout = slowStdout();
    const transport = new StdioServerTransport(stdin, stdout as never);
    linearStdioSend(transport, stdout);
    let closed = false;
    transport.onclose = () => (closed = true);
    await transport.start();
    stdin.end();
    await until(() => closed, 5_000);
    await expect(transport.send(ping(4))).rejects.toThrow("StdioServerTransport is closed");
  });

  it(`${PINGS.toLocaleString("en")} pings pipelined in one write, then one more: all answered (real child process)`, {
    timeout: 90_000,
  }, async () => {
    const session = new RawSession();
    try {
      await session.initialize("2025-11-25");
      const before = session.lines.length;
      let batch = "";
      for (let i = 1; i <= PINGS; i++) batch += `{"jsonrpc":"2.0","id":${i},"method":"ping"}\n`;
      session.child.stdin.write(batch);
      await until(() => session.lines.length >= before + PINGS, 60_000);
      // The extra ping is the one the quadratic cleanup held back (50 s at 50,000 on the SDK's send).
      session.send({ jsonrpc: "2.0", id: PINGS + 1, method: "ping" });
      await until(() => session.lines.length >= before + PINGS + 1, 20_000);
      const answers = session.lines.slice(before).map((l) => JSON.parse(l));
      expect(answers.length).toBe(PINGS + 1);
      expect(answers.every((a, i) => a.jsonrpc === "2.0" && a.id === i + 1 && JSON.stringify(a.result) === "{}")).toBe(
        true,
      );
    } finally {
      session.close();
    }
  });
});
