// Hostile input over stdio (issue 13 item 7, and items 1 and 3 on this transport), on a real
// child process (fixtures/stdio-server.mjs). Expected answers: JSON-RPC 2.0 §5 (-32700 Parse
// error / -32600 Invalid Request, id null when it cannot be read) and the contract's §5 sentence.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { invalid, until } from "./helpers.js";
import { RawSession } from "./stdio-session.js";

let session: RawSession;
beforeAll(async () => {
  session = new RawSession();
  await session.initialize("2025-11-25");
});
afterAll(() => session?.close());

/** The lines answered after `before` lines had been seen, once `count` of them have arrived. */
async function nextLines(before: number, count: number): Promise<Array<Record<string, any>>> {
  await until(() => session.lines.length >= before + count, 15_000);
  return session.lines.slice(before, before + count).map((l) => JSON.parse(l));
}

const resultOf = (line: string) =>
  JSON.stringify({ content: JSON.parse(line).result.content, isError: JSON.parse(line).result.isError });

describe("stdio: every line gets its JSON-RPC answer, and the connection keeps serving", () => {
  it("garbage is -32700 with id null", async () => {
    const before = session.lines.length;
    session.child.stdin.write("this is not json\n");
    expect(await nextLines(before, 1)).toEqual([
      { jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } },
    ]);
  });

  it('"jsonrpc":"1.0" with an id is -32600 with that id; a batch array and an id-less object -32600 with id null', async () => {
    const before = session.lines.length;
    session.child.stdin.write('{"jsonrpc":"1.0","id":5,"method":"tools/list"}\n');
    session.child.stdin.write('[{"jsonrpc":"2.0","id":6,"method":"ping"}]\n');
    session.child.stdin.write('{"foo":"boo"}\n');
    expect(await nextLines(before, 3)).toEqual([
      { jsonrpc: "2.0", id: 5, error: { code: -32600, message: "Invalid Request" } },
      { jsonrpc: "2.0", id: null, error: { code: -32600, message: "Invalid Request" } },
      { jsonrpc: "2.0", id: null, error: { code: -32600, message: "Invalid Request" } },
    ]);
  });

  it("a line over maxRequestBodySize (4 MiB) is refused with -32600, and the next request is served", async () => {
    const before = session.lines.length;
    session.child.stdin.write(`${"x".repeat(11 * 1024 * 1024)}\n`);
    expect(await nextLines(before, 1)).toEqual([
      {
        jsonrpc: "2.0",
        id: null,
        error: { code: -32600, message: "Invalid Request: the message is longer than 4194304 bytes" },
      },
    ]);
    const line = await session.request(41, "tools/call", { name: "add", arguments: { a: 1, b: 2 } });
    expect(JSON.parse(line).result.content).toEqual([{ type: "text", text: "3" }]);
    expect(session.child.exitCode).toBeNull();
  });

  it("__proto__ and 3,000-deep arguments get the §5 argument error on stdio too", async () => {
    const before = session.lines.length;
    let deep = "1";
    for (let i = 0; i < 3000; i++) deep = `{"a":${deep}}`;
    session.child.stdin.write(
      `{"jsonrpc":"2.0","id":42,"method":"tools/call","params":{"name":"add","arguments":{"a":1,"b":2,"__proto__":{}}}}\n`,
    );
    session.child.stdin.write(
      `{"jsonrpc":"2.0","id":43,"method":"tools/call","params":{"name":"add","arguments":{"a":${deep},"b":2}}}\n`,
    );
    const lines = session.lines;
    await until(() => lines.length >= before + 2, 10_000);
    expect(resultOf(lines.find((l) => JSON.parse(l).id === 42)!)).toBe(
      invalid("__proto__", "It is not a parameter of this tool."),
    );
    expect(resultOf(lines.find((l) => JSON.parse(l).id === 43)!)).toBe(
      invalid("a", "Expected at most 64 levels of nesting."),
    );
  });

  it("a message nested 5,000 levels outside tools/call arguments is -32600 with its id, never a stack overflow; the next request is served", async () => {
    const before = session.lines.length;
    let deep = "{}";
    for (let i = 0; i < 5000; i++) deep = `{"a":${deep}}`;
    session.child.stdin.write(`{"jsonrpc":"2.0","id":44,"method":"ping","params":{"_meta":{"x":${deep}}}}\n`);
    await until(() => session.lines.length >= before + 1, 10_000);
    expect(JSON.parse(session.lines.find((l) => JSON.parse(l).id === 44)!)).toEqual({
      jsonrpc: "2.0",
      id: 44,
      error: { code: -32600, message: "Invalid Request: the message is nested deeper than 64 levels" },
    });
    const line = await session.request(45, "tools/call", { name: "add", arguments: { a: 1, b: 2 } });
    expect(JSON.parse(line).result.content).toEqual([{ type: "text", text: "3" }]);
  });

  it("every error answer is free of stacks, paths and internal messages", () => {
    const errors = session.lines.filter((l) => l.includes('"error"') || l.includes('"isError":true'));
    expect(errors.length).toBeGreaterThanOrEqual(7);
    for (const line of errors)
      expect(line).not.toMatch(/\n\s+at |file:\/\/|\/work\/|node_modules|Maximum call stack|TypeError|ReadBuffer/);
  });
});
