/**
 * Spec §8 at run time, with the official client: string parameters read per type (valid values
 * and values that must not parse → JSON-RPC -32602), unknown resource URIs per revision (-32002
 * with data { uri } up to 2025-11-25, -32602 from 2026-07-28, checked in the raw response), every
 * return form of resources and prompts. Expected values are written from the spec.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/client";
import { buildApp, connect, errorOf, messagesOf, MODERN } from "./helpers.ts";

let app: Awaited<ReturnType<typeof buildApp>>;
let client: Client;
let modern: Client;
const bodies: string[] = [];
const modernBodies: string[] = [];
beforeAll(async () => {
  app = await buildApp(["classes"]);
  client = await connect(app.modules.classes!.classServer(), {}, bodies);
  modern = await connect(app.modules.classes!.classServer(), MODERN, modernBodies);
});
afterAll(async () => {
  await client?.close();
  await modern?.close();
  await app?.cleanup();
});

/** The text of the only contents of `uri`. */
async function text(uri: string, c = client): Promise<string> {
  const r = await c.readResource({ uri });
  expect(r.contents).toHaveLength(1);
  return (r.contents[0] as { text: string }).text;
}

describe("template variables read from strings (spec §8)", () => {
  const cases: [string, string[], string[], string][] = [
    // [template prefix, valid value → expected text suffix pairs as "in=>out", invalid values, their §5 text]
    [
      "typed://number/",
      ["1.5=>number:1.5", "-2.5e3=>number:-2500", "0=>number:0", "1E2=>number:100"],
      ["01", "%2B1", "0x10", "1.", ".5", "%201", "1%20", "abc", "1e999", "NaN", "Infinity"],
      "Argument 'n' is not valid. Expected a number.",
    ],
    [
      "typed://int/",
      ["42=>number:42", "-7=>number:-7"],
      ["4.2", "1e2", "007", "%2B3", "-", "0x1f", "%205"],
      "Argument 'i' is not valid. Expected an integer.",
    ],
    [
      "typed://bigint/",
      ["9007199254740993=>bigint:9007199254740993", "-12=>bigint:-12"],
      ["1.0", "1e3", "01", "0x10", "%201"],
      "Argument 'b' is not valid. Expected an integer.",
    ],
    [
      "typed://boolean/",
      ["true=>boolean:true", "false=>boolean:false"],
      ["TRUE", "True", "1", "0", "yes", "%20true"],
      "Argument 'f' is not valid. Expected true or false.",
    ],
    [
      "typed://date/",
      [
        "2026-01-02T03:04:05Z=>date:2026-01-02T03:04:05.000Z",
        "2026-01-02T03:04:05.5%2B01:00=>date:2026-01-02T02:04:05.500Z",
      ],
      ["2026-01-02", "2026-02-30T00:00:00Z", "2026-01-02%2003:04:05Z", "1767322800000", "2026-01-02T03:04:05"],
      "Argument 'd' is not valid. Expected an RFC 3339 date-time.",
    ],
    [
      "typed://enum/",
      ["red=>enum:red", "green=>enum:green"],
      ["Red", "blue", "%20red"],
      'Argument \'c\' is not valid. Expected one of "red", "green".',
    ],
    [
      "typed://union/",
      ["a=>union:a", "b=>union:b"],
      ["c", "A", "a%20"],
      'Argument \'u\' is not valid. Expected one of "a", "b".',
    ],
    [
      "typed://mixed/",
      ["42=>mixed:number:42", "-1=>mixed:number:-1", "latest=>mixed:string:latest"],
      ["4.2", "Latest", "latest%20", "0x1"],
      "Argument 'm' is not valid. Expected an integer or one of \"latest\".",
    ],
    // Date | "now" | boolean | string: string last takes what the others do not.
    [
      "typed://when/",
      [
        "2026-01-02T03:04:05Z=>when:2026-01-02T03:04:05.000Z:",
        "now=>when:string:now",
        "true=>when:boolean:true",
        "soon=>when:string:soon",
      ],
      ["%ZZ"],
      "Argument 'w' is not valid. Expected percent-encoded UTF-8.",
    ],
    [
      "typed://string/",
      ["hello%20world=>string:hello world", "x%2Fy=>string:x/y", "caf%C3%A9=>string:café"],
      ["%E0%A4%A", "%ZZ"],
      "Argument 's' is not valid. Expected percent-encoded UTF-8.",
    ],
  ];
  for (const [prefix, valid, invalid, message] of cases) {
    it(`${prefix}{…}: valid values`, async () => {
      for (const v of valid) {
        const [input, expected] = v.split("=>") as [string, string];
        expect(await text(prefix + input)).toBe(expected);
      }
    });
    it(`${prefix}{…}: values that do not parse → -32602`, async () => {
      for (const v of invalid) {
        const e = await errorOf(client.readResource({ uri: prefix + v }));
        expect({ value: v, code: e.code }).toEqual({ value: v, code: -32602 });
        expect(e.message, v).toContain(message);
      }
    });
  }
});

describe("unknown resource URI (spec §8)", () => {
  it("2025-11-25 (the client's default): -32002 with data { uri } on the wire", async () => {
    bodies.length = 0;
    await errorOf(client.readResource({ uri: "nothing://here" }));
    const error = bodies.flatMap(messagesOf).find((m) => m.error)!.error;
    expect(error.code).toBe(-32002);
    expect(error.data).toEqual({ uri: "nothing://here" });
  });

  it("2026-07-28: -32602 with data { uri } on the wire", async () => {
    modernBodies.length = 0;
    const e = await errorOf(modern.readResource({ uri: "nothing://here" }));
    expect(e.code).toBe(-32602);
    const error = modernBodies.flatMap(messagesOf).find((m) => m.error)!.error;
    expect(error.code).toBe(-32602);
    expect(error.data).toEqual({ uri: "nothing://here" });
  });

  it("a URI that only starts like a template is unknown, not invalid", async () => {
    bodies.length = 0;
    await errorOf(client.readResource({ uri: "typed://number/1/2" }));
    expect(bodies.flatMap(messagesOf).find((m) => m.error)!.error.code).toBe(-32002);
  });
});

describe("resource return forms (spec §8)", () => {
  it("string → one text contents, text/plain unless mimeType says otherwise", async () => {
    expect(await client.readResource({ uri: "library://books/42" })).toEqual({
      contents: [{ uri: "library://books/42", mimeType: "text/plain", text: "book 42" }],
    });
    expect(await client.readResource({ uri: "library://catalogue" })).toEqual({
      contents: [{ uri: "library://catalogue", mimeType: "application/json", text: '{"books":2}' }],
    });
  });

  it("Uint8Array → one blob contents (base64)", async () => {
    expect(await client.readResource({ uri: "library://covers/7" })).toEqual({
      contents: [{ uri: "library://covers/7", mimeType: "image/png", blob: "BwH/" }],
    });
  });

  it("ReadResourceResult, one resource contents, an array of contents → passed through", async () => {
    expect(await client.readResource({ uri: "forms://result" })).toEqual({
      contents: [{ uri: "forms://result", mimeType: "text/csv", text: "a,b" }],
    });
    expect(await client.readResource({ uri: "forms://one" })).toEqual({
      contents: [{ uri: "forms://one", mimeType: "text/markdown", text: "# one" }],
    });
    expect(await client.readResource({ uri: "forms://many" })).toEqual({
      contents: [
        { uri: "forms://many#1", text: "first" },
        { uri: "forms://many#2", blob: "AAE=" },
      ],
    });
  });

  it("a RequestContext parameter is filled in (per revision) and never a variable", async () => {
    expect(await text("forms://context")).toBe("revision 2025-11-25");
    expect(await text("forms://context", modern)).toBe("revision 2026-07-28");
  });

  it("an exception → -32603 'The resource failed.', nothing of it sent", async () => {
    bodies.length = 0;
    const e = await errorOf(client.readResource({ uri: "forms://broken" }));
    expect(e.code).toBe(-32603);
    expect(e.message).toMatch(/The resource failed\./);
    expect(bodies.join("")).not.toContain("secret");
  });
});

describe("prompts (spec §8)", () => {
  const user = (t: string) => ({ role: "user", content: { type: "text", text: t } });

  it("string → one user text message; defaults and optional parameters apply", async () => {
    expect(await client.getPrompt({ name: "summarise_book", arguments: { id: "9" } })).toEqual({
      messages: [user("Summarise book 9 in a short style.")],
    });
    expect(
      await client.getPrompt({ name: "summarise_book", arguments: { id: "9", style: "long", words: "50" } }),
    ).toEqual({
      messages: [user("Summarise book 9 in a long style in 50 words.")],
    });
  });

  it("arguments that do not parse, are missing or unknown → -32602 naming the argument", async () => {
    // The §5 text (spec §8: the -32602 message): the seed's sentence, then the §5 table's second sentence.
    const bad: [Record<string, string>, string, string][] = [
      [{ id: "9", style: "medium" }, "style", 'Expected one of "short", "long".'],
      [{ id: "9", words: "" }, "words", "Expected an integer."],
      [{ id: "9", words: " 5" }, "words", "Expected an integer."],
      [{ id: "9", words: "5.0" }, "words", "Expected an integer."],
      [{ style: "long" }, "id", "It is required."],
      [{ id: "9", extra: "x" }, "extra", "It is not an argument of this prompt."],
      // Refused before the SDK's parse, which would answer -32603 with its own text or drop the key (docs/security.md).
      [{ id: 9 } as unknown as Record<string, string>, "id", "Expected a string, got a number."],
      [
        JSON.parse('{"id":"9","__proto__":"x"}') as Record<string, string>,
        "__proto__",
        "It is not an argument of this prompt.",
      ],
    ];
    for (const [args, name, second] of bad) {
      const e = await errorOf(client.getPrompt({ name: "summarise_book", arguments: args }));
      expect({ args, code: e.code }).toEqual({ args, code: -32602 });
      expect(e.message).toContain(`Argument '${name}' is not valid. ${second}`);
    }
  });

  it("PromptMessage[] → the messages; a nullable argument is optional and absent means null", async () => {
    expect(await client.getPrompt({ name: "conversation", arguments: { topic: "cats" } })).toEqual({
      messages: [user("Talk about cats."), { role: "assistant", content: { type: "text", text: "late=null" } }],
    });
    const r = await client.getPrompt({ name: "conversation", arguments: { topic: "dogs", late: "false" } });
    expect(r.messages[1]).toEqual({ role: "assistant", content: { type: "text", text: "late=false" } });
  });

  it("GetPromptResult → passed through", async () => {
    expect(await client.getPrompt({ name: "whole" })).toEqual({ description: "All of it.", messages: [user("hi")] });
  });

  it("an unknown prompt → -32602", async () => {
    expect((await errorOf(client.getPrompt({ name: "nope" }))).code).toBe(-32602);
  });
});
