// Completion hooks (docs/resources.md "Completion hooks"; MCP 2025-11-25 server utilities /
// completion: `context.arguments` holds previously-resolved arguments, a result carries at most
// 100 values with `total` and `hasMore`). fixtures/app/completion-hooks.ts is built with the
// real plugin and driven with the official client over HTTP on both revisions; the hook typing
// is checked with the real TypeScript checker on fixtures/types/completion-hooks.ts.
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/client";
import { complete } from "typed-mcp";
import { FIXTURES, MODERN, buildApp, connect, errorOf, rawRequest } from "./helpers.js";

let app: Awaited<ReturnType<typeof buildApp>>;
const calls: unknown[] = [];
let client: Client;
let modern: Client;
beforeAll(async () => {
  app = await buildApp(["completion-hooks"]);
  client = await connect(app.modules["completion-hooks"]!.hookServer(calls));
  modern = await connect(app.modules["completion-hooks"]!.hookServer(calls), MODERN);
}, 120_000);
afterAll(async () => {
  await client?.close();
  await modern?.close();
  await app?.cleanup();
});

const BOOK = { type: "ref/resource" as const, uri: "books://{genre}/{id}" };
const REVIEW = { type: "ref/prompt" as const, name: "review" };

describe("a hook on a resource-template variable", () => {
  it("receives the other variables already given and answers from them (both revisions)", async () => {
    for (const c of [client, modern]) {
      calls.length = 0;
      const r = await c.complete({
        ref: BOOK,
        argument: { name: "id", value: "d" },
        context: { arguments: { genre: "fiction" } },
      });
      expect(r.completion).toEqual({ values: ["dune", "dracula"], total: 2, hasMore: false });
      expect(calls).toEqual([{ genre: "fiction" }]);
    }
  });

  it("without context.arguments `given` is empty; names that are not variables and non-strings are not passed", async () => {
    calls.length = 0;
    const none = await client.complete({ ref: BOOK, argument: { name: "id", value: "d" } });
    expect(none.completion).toEqual({ values: ["dune", "dracula", "dubliners-verse"], total: 3, hasMore: false });
    const { message } = await rawRequest(app.modules["completion-hooks"]!.hookServer(calls), "completion/complete", {
      ref: BOOK,
      argument: { name: "id", value: "o" },
      context: { arguments: { id: "x", shelf: "top", genre: "poetry" } },
    });
    expect(message.result).toEqual({ completion: { values: ["odes"], total: 1, hasMore: false } });
    expect(calls).toEqual([{}, { genre: "poetry" }]);
  });

  it("a variable without a hook keeps the built-in literal-union completion", async () => {
    const r = await client.complete({ ref: BOOK, argument: { name: "genre", value: "p" } });
    expect(r.completion).toEqual({ values: ["poetry"], total: 1, hasMore: false });
  });
});

describe("a hook on a prompt argument", () => {
  it("receives the other arguments already given", async () => {
    calls.length = 0;
    const r = await modern.complete({
      ref: REVIEW,
      argument: { name: "title", value: "o" },
      context: { arguments: { genre: "poetry", chapter: "2" } },
    });
    expect(r.completion).toEqual({ values: ["odes"], total: 1, hasMore: false });
    expect(calls).toEqual([{ genre: "poetry", chapter: "2" }]);
  });

  it("more than 100 values: the first 100, total, hasMore", async () => {
    const r = await client.complete({ ref: REVIEW, argument: { name: "title", value: "many" } });
    expect(r.completion).toEqual({ values: Array.from({ length: 100 }, (_, i) => `t${i}`), total: 150, hasMore: true });
  });

  it("ToolError → -32603 with its message; ProtocolError as is; anything else -32603 'The completion failed.', reported", async () => {
    const server = app.modules["completion-hooks"]!.hookServer(calls);
    const ask = (value: string, name = "title") =>
      rawRequest(server, "completion/complete", { ref: REVIEW, argument: { name, value } });
    expect((await ask("!")).message.error).toEqual({ code: -32603, message: "Type a letter first." });
    expect((await ask("?")).message.error).toEqual({ code: -32602, message: "No titles start with ?." });
    calls.length = 0;
    const boom = await ask("boom");
    expect(boom.message.error).toEqual({ code: -32603, message: "The completion failed." });
    expect(boom.body).not.toContain("secret");
    expect((await ask("", "chapter")).message.error).toEqual({ code: -32603, message: "The completion failed." });
    expect(calls.filter((c) => (c as { failure?: string }).failure !== undefined)).toEqual([
      { failure: "secret detail" },
      { failure: "a completion hook returned an array with a non-string value, not an array of strings" },
    ]);
  });

  it("an unknown prompt is still -32602", async () => {
    expect(
      (
        await errorOf(
          client.complete({ ref: { type: "ref/prompt", name: "nope" }, argument: { name: "title", value: "" } }),
        )
      ).code,
    ).toBe(-32602);
  });
});

describe("@complete methods (hooks declared on the prompt's class, names checked at build time)", () => {
  const PROMOTE = { type: "ref/prompt" as const, name: "promote-someone" };
  let team: Client;
  let teamModern: Client;
  beforeAll(async () => {
    team = await connect(app.modules["completion-hooks"]!.teamServer());
    teamModern = await connect(app.modules["completion-hooks"]!.teamServer(), MODERN);
  });
  afterAll(async () => {
    await team?.close();
    await teamModern?.close();
  });
  const calls = () => app.modules["completion-hooks"]!.methodCalls as unknown[];

  it("the method gets the value and the other arguments by its parameter names, with this = the registered instance (both revisions)", async () => {
    for (const c of [team, teamModern]) {
      calls().length = 0;
      const r = await c.complete({
        ref: PROMOTE,
        argument: { name: "name", value: "K" },
        context: { arguments: { department: "Support", note: "well done", shelf: "x" } },
      });
      expect(r.completion).toEqual({ values: ["Kim", "Kai"], total: 2, hasMore: false });
      expect(calls()).toEqual([{ value: "K", note: "well done", department: "Support", self: true }]);
    }
  });

  it("arguments the client did not send are undefined", async () => {
    calls().length = 0;
    const r = await team.complete({ ref: PROMOTE, argument: { name: "name", value: "" } });
    expect(r.completion).toEqual({ values: ["Dana", "Eve", "Kim", "Kai"], total: 4, hasMore: false });
    expect(calls()).toEqual([{ value: "", note: undefined, department: undefined, self: true }]);
  });

  it("an argument without a hook keeps the built-in literal-union completion; a static prompt's static hook works", async () => {
    expect((await team.complete({ ref: PROMOTE, argument: { name: "department", value: "S" } })).completion).toEqual({
      values: ["Sales", "Support"],
      total: 2,
      hasMore: false,
    });
    expect(
      (await team.complete({ ref: { type: "ref/prompt", name: "audit" }, argument: { name: "year", value: "202" } }))
        .completion,
    ).toEqual({
      values: ["2024", "2025", "2026"],
      total: 3,
      hasMore: false,
    });
  });

  it("the hook goes with its prompt: server.complete on the same argument is refused, removePrompt removes it", async () => {
    const server = app.modules["completion-hooks"]!.teamServer();
    expect(() => server.complete(PROMOTE, "name", () => [])).toThrow(
      'prompt "promote-someone" already has a completion hook for "name".',
    );
    expect(server.removePrompt("promote-someone")).toBe(true);
    const c = await connect(server);
    expect((await errorOf(c.complete({ ref: PROMOTE, argument: { name: "name", value: "" } }))).code).toBe(-32602);
    await c.close();
  });
});

describe("registration errors", () => {
  const server = () => app.modules["completion-hooks"]!.hookServer();
  it("an unknown prompt or template, an unknown argument, a second hook, a non-function", () => {
    expect(() => server().complete({ type: "ref/prompt", name: "nope" }, "x", () => [])).toThrow(
      'typed-mcp: server.complete: no prompt "nope" is registered on this server; register it before its completion hooks.',
    );
    expect(() => server().complete({ type: "ref/resource", uri: "books://{id}" }, "id", () => [])).toThrow(
      /no resource template "books:\/\/\{id\}" is registered/,
    );
    expect(() => server().complete(REVIEW, "page", () => [])).toThrow(
      'typed-mcp: server.complete: prompt "review" has no argument "page"; its arguments are "genre", "title", "chapter".',
    );
    expect(() => server().complete(REVIEW, "title", () => [])).toThrow(
      'prompt "review" already has a completion hook for "title".',
    );
    expect(() => server().complete(REVIEW, "genre", "nope" as never)).toThrow(TypeError);
  });

  it("@complete evaluated at run time (no plugin) throws the add-the-plugin message", () => {
    expect(() => complete("promote", "name")).toThrow(
      /^@complete\("promote", "name"\) ran without the typed-mcp build plugin\..*@typed-mcp\/unplugin\/vite/s,
    );
  });
});

describe("typing (the real TypeScript checker)", () => {
  it("argument and `given` keys are typed from the template; the result must be strings", () => {
    const tsc = join(FIXTURES, "..", "..", "..", "node_modules", ".bin", "tsc");
    // Exits non-zero (and the test fails with its output) on any error or unused @ts-expect-error.
    execFileSync(tsc, ["-p", join(FIXTURES, "types")], { encoding: "utf8" });
  });
});
