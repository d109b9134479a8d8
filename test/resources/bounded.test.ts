/**
 * One bounded pipeline for tools, resources and prompts (docs/runtime.md "Timeout",
 * "Cancellation", "What counts as a failure"), with the official client over HTTP (`server.fetch`)
 * and stdio, and raw JSON-RPC for the exact answers:
 * - `requestTimeoutMs` times out `resources/read` with `-32603` `The resource read timed out.` and
 *   `prompts/get` with `-32603` `The prompt timed out.`, aborting the function's signal with a
 *   `TimeoutError`;
 * - a client's cancellation reaches the resource's / prompt's signal;
 * - `onError` gets `{ kind, name, error }` for a throwing tool, resource and prompt, and the
 *   deprecated `onToolError` still gets `(error, { tool: name })`.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/client";
import { buildApp, connect, connectStdio, errorOf, MODERN, rawRequest, until } from "./helpers.ts";

let app: Awaited<ReturnType<typeof buildApp>>;
let stdio: Client;
beforeAll(async () => {
  app = await buildApp(["bounded", "stdio-main"]);
  stdio = await connectStdio(app.outDir, "bounded");
});
afterAll(async () => {
  await stdio?.close();
  await app?.cleanup();
});

const bounded = () => app.modules.bounded!;
/** The abort reasons the stdio child's functions saw so far. */
async function seenOverStdio(): Promise<string[]> {
  const { contents } = await stdio.readResource({ uri: "aborts://seen" });
  const text = (contents[0] as { text: string }).text;
  return text === "" ? [] : text.split(",");
}
/** The abort reasons seen so far by the in-process servers. */
const aborts = (): string[] => bounded().aborts;

describe("requestTimeoutMs bounds resources and prompts", () => {
  it("resources/read answers -32603 'The resource read timed out.' and aborts the signal (HTTP)", async () => {
    const server = bounded().boundedServer({ requestTimeoutMs: 150 });
    const count = aborts().length;
    const { message } = await rawRequest(server, "resources/read", { uri: "slow://resource" });
    expect(message).toEqual({
      jsonrpc: "2.0",
      id: 7,
      error: { code: -32603, message: "The resource read timed out." },
    });
    await until(() => aborts().length > count);
    expect(aborts().slice(count)).toEqual(["TimeoutError"]);
  });

  it("prompts/get answers -32603 'The prompt timed out.' and aborts the signal (HTTP)", async () => {
    const server = bounded().boundedServer({ requestTimeoutMs: 150 });
    const count = aborts().length;
    const { message } = await rawRequest(server, "prompts/get", { name: "slow_prompt" });
    expect(message).toEqual({ jsonrpc: "2.0", id: 7, error: { code: -32603, message: "The prompt timed out." } });
    await until(() => aborts().length > count);
    expect(aborts().slice(count)).toEqual(["TimeoutError"]);
  });

  it("the same answers over stdio, the signal aborted with a TimeoutError", async () => {
    const read = await errorOf(stdio.readResource({ uri: "slow://resource" }));
    expect(read.code).toBe(-32603);
    expect(read.message).toContain("The resource read timed out.");
    const get = await errorOf(stdio.getPrompt({ name: "slow_prompt" }));
    expect(get.code).toBe(-32603);
    expect(get.message).toContain("The prompt timed out.");
    expect(await seenOverStdio()).toEqual(["TimeoutError", "TimeoutError"]);
  });
});

describe("cancellation reaches the resource's and the prompt's signal", () => {
  it("stdio: notifications/cancelled aborts the signal before the timeout", async () => {
    for (const request of [
      (signal: AbortSignal) => stdio.readResource({ uri: "slow://resource" }, { signal }),
      (signal: AbortSignal) => stdio.getPrompt({ name: "slow_prompt" }, { signal }),
    ]) {
      const before = await seenOverStdio();
      const controller = new AbortController();
      const pending = request(controller.signal).catch((e: unknown) => e);
      await new Promise((r) => setTimeout(r, 100));
      controller.abort("user cancelled");
      await pending;
      let now = await seenOverStdio();
      for (let i = 0; i < 100 && now.length === before.length; i++) {
        await new Promise((r) => setTimeout(r, 20));
        now = await seenOverStdio();
      }
      expect(now.length).toBe(before.length + 1);
      expect(now.at(-1)).not.toBe("TimeoutError");
    }
  });

  it("HTTP: a 2026-07-28 client that abandons the request aborts the signal (no timeout set)", async () => {
    const client = await connect(bounded().boundedServer(), MODERN);
    try {
      for (const request of [
        (signal: AbortSignal) => client.readResource({ uri: "slow://resource" }, { signal }),
        (signal: AbortSignal) => client.getPrompt({ name: "slow_prompt" }, { signal }),
      ]) {
        const count = aborts().length;
        const controller = new AbortController();
        const pending = request(controller.signal).catch((e: unknown) => e);
        await new Promise((r) => setTimeout(r, 100));
        expect(aborts().length).toBe(count);
        controller.abort("user cancelled");
        await pending;
        await until(() => aborts().length > count);
        expect(aborts().slice(count)).toHaveLength(1);
        expect(aborts().at(-1)).not.toBe("TimeoutError");
      }
    } finally {
      await client.close();
    }
  });
});

describe("onError gets { kind, name, error } for tools, resources and prompts", () => {
  it("a throwing tool, resource and prompt; onToolError still called as (error, { tool })", async () => {
    const failures: Array<{ kind: string; name: string; error: unknown }> = [];
    const legacy: Array<{ tool: string; error: unknown }> = [];
    const client = await connect(bounded().boundedServer({ failures, legacy }));
    try {
      const result = await client.callTool({ name: "explode_tool" });
      expect(result.content).toEqual([{ type: "text", text: "The tool failed." }]);
      const read = await errorOf(client.readResource({ uri: "explode://7" }));
      expect([read.code, read.message.includes("The resource failed.")]).toEqual([-32603, true]);
      const get = await errorOf(client.getPrompt({ name: "explode_prompt" }));
      expect([get.code, get.message.includes("The prompt failed.")]).toEqual([-32603, true]);
    } finally {
      await client.close();
    }
    const shown = (f: { error: unknown }) => (f.error as Error).message;
    expect(failures.map((f) => [f.kind, f.name, shown(f)])).toEqual([
      ["tool", "explode_tool", "tool detail"],
      ["resource", "explode://{id}", "resource detail 7"],
      ["prompt", "explode_prompt", "prompt detail"],
    ]);
    expect(legacy.map((f) => [f.tool, shown(f)])).toEqual([
      ["explode_tool", "tool detail"],
      ["explode://{id}", "resource detail 7"],
      ["explode_prompt", "prompt detail"],
    ]);
  });
});
