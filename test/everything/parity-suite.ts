/**
 * The side-by-side parity block of the everything port against the original (parity.test.ts
 * says what it compares), for one transport: parity.test.ts runs it over stdio and
 * parity-http.test.ts over Streamable HTTP, so the two run in separate files (each waits about
 * 5 s in the original's simulate-research-query stages, now side by side on two workers).
 * The caller builds the port first (`buildPort` in a beforeAll).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SAMPLED, connect, until, type Session, type Via, type Which } from "./servers.ts";
import { DIFFERENCES, type DifferenceId } from "./differences.ts";
import { answer, normalise } from "./normalise.ts";
import { researchTaskParity } from "./tasks.ts";

/** The differences both transports must show. */
const ON_BOTH: DifferenceId[] = [
  "sdk-empty-meta",
  "protocol-error-message",
  "tool-title",
  "schema-dialect",
  "session-template",
  "argument-error",
  "template-variable-error",
  "task-created-message",
  "task-cancel-message",
  "sdk-repeated-status",
  "task-error-message",
];
/** The differences each transport must show (all of differences.ts between them): ON_BOTH and its own. */
const EXPECTED: Record<Via, DifferenceId[]> = {
  stdio: [
    ...ON_BOTH,
    "sdk-elicit-mode",
    "sdk-result-key-order",
    "task-cancel-notification",
    "roots-on-initialize",
    "subscribe-log",
  ],
  http: [...ON_BOTH, "http-no-back-channel", "http-no-session"],
};

type Json = Record<string, any>;

/** The raw result of the last response that carried `key` (listings as sent, not as the client re-parsed them). */
export function rawResult(s: Session, key: string): Json[] {
  const found = [...s.raw].reverse().find((m) => m.result && key in m.result);
  return structuredClone(found!.result![key] as Json[]);
}

/**
 * The parity block over `via`: every test compares both servers' answers, and its last afterAll
 * checks that exactly `EXPECTED[via]`'s differences showed.
 */
export function describeParity(via: Via): void {
  describe(`everything over ${via}`, () => {
    let original: Session;
    let port: Session;
    const seen = new Set<DifferenceId>();
    const mark = (id: DifferenceId): void => void seen.add(id);
    const both = <T>(run: (s: Session, which: Which) => Promise<T>): Promise<[T, T]> =>
      Promise.all([run(original, "original"), run(port, "port")]);

    beforeAll(async () => {
      [original, port] = await Promise.all([connect("original", via), connect("port", via)]);
    });
    afterAll(async () => {
      await Promise.all([original?.close(), port?.close()]);
    });

    it("lists the same tools, resources, templates and prompts, with the same capabilities and server info", async () => {
      await both((s) => s.client.listTools());
      const tools = (s: Session, which: Which): Json[] =>
        rawResult(s, "tools").flatMap((t) => {
          if (which === "original") {
            if (t.title !== undefined)
              (t.annotations = { title: t.title, ...t.annotations }), delete t.title, mark("tool-title");
            for (const schema of [t.inputSchema, t.outputSchema])
              if (schema?.$schema) delete schema.$schema, mark("schema-dialect");
            if (t.outputSchema?.additionalProperties === false)
              delete t.outputSchema.additionalProperties, mark("schema-dialect");
          } else if (t.inputSchema.additionalProperties === false) {
            delete t.inputSchema.additionalProperties, mark("schema-dialect");
          }
          return [t];
        });
      const [origTools, portTools] = [tools(original, "original"), tools(port, "port")];
      expect(portTools.map((t) => t.name).sort()).toEqual(origTools.map((t) => t.name).sort());
      for (const t of origTools)
        expect(
          portTools.find((p) => p.name === t.name),
          t.name,
        ).toEqual(t);

      await both((s) => s.client.listResources());
      const byUri = (xs: Json[]) => [...xs].sort((a, b) => String(a.uri).localeCompare(String(b.uri)));
      expect(byUri(rawResult(port, "resources"))).toEqual(byUri(rawResult(original, "resources")));

      await both((s) => s.client.listResourceTemplates());
      const portTemplates = rawResult(port, "resourceTemplates").filter((t) =>
        t.uriTemplate === "demo://resource/session/{name}" ? (mark("session-template"), false) : true,
      );
      expect(portTemplates).toEqual(rawResult(original, "resourceTemplates"));

      await both((s) => s.client.listPrompts());
      expect(rawResult(port, "prompts")).toEqual(rawResult(original, "prompts"));

      // MCP 2025-11-25 "Tasks": the same task-augmented tools/call, tasks/list and tasks/cancel.
      expect(port.client.getServerCapabilities()).toEqual(original.client.getServerCapabilities());
      expect(port.client.getServerCapabilities()!.tasks).toEqual({
        list: {},
        cancel: {},
        requests: { tools: { call: {} } },
      });
      expect(
        portTools.filter((t) => t.execution.taskSupport !== "forbidden").map((t) => [t.name, t.execution]),
      ).toEqual([["simulate-research-query", { taskSupport: "required" }]]);
      expect(port.client.getServerVersion()).toEqual(original.client.getServerVersion());
      expect(port.client.getInstructions()).toEqual(original.client.getInstructions());
    });

    /** Calls `name` with `args` on both; the answers must be equal. @returns the port's answer. */
    const same = async (name: string, args: Json = {}): Promise<Json> => {
      const [a, b] = await both((s) => answer(() => s.client.callTool({ name, arguments: args })));
      expect(b, `${name} ${JSON.stringify(args)}`).toEqual(a);
      return b;
    };

    it("answers every tool call that needs no client request alike", async () => {
      expect((await same("echo", { message: "Hello, world" })).result.content).toEqual([
        { type: "text", text: "Echo: Hello, world" },
      ]);
      for (const messageType of ["error", "success", "debug"]) await same("get-annotated-message", { messageType });
      await same("get-annotated-message", { messageType: "success", includeImage: true });
      // The servers' environments are equal but for PORT over HTTP (a free port picked at random): normalised.
      const env = await both((s) => answer(() => s.client.callTool({ name: "get-env", arguments: {} })));
      const unport = (a: Json) =>
        JSON.parse(JSON.stringify(a).replace(/\\"PORT\\": \\"\d+\\"/, '\\"PORT\\": \\"<port>\\"'));
      expect(unport(env[1])).toEqual(unport(env[0]));
      expect(JSON.parse(env[1].result.content[0].text).EVERYTHING_TEST).toBe("1");
      await same("get-resource-links");
      await same("get-resource-links", { count: 10 });
      await same("get-resource-reference");
      await same("get-resource-reference", { resourceType: "Blob", resourceId: 3 });
      // The original's own check of a number it lists as `number`: the same text from both.
      await same("get-resource-reference", { resourceId: 1.5 });
      for (const location of ["New York", "Chicago", "Los Angeles"]) await same("get-structured-content", { location });
      expect((await same("get-sum", { a: 2, b: 3.5 })).result.content).toEqual([
        { type: "text", text: "The sum of 2 and 3.5 is 5.5." },
      ]);
      await same("get-tiny-image");
      await same("gzip-file-as-resource", {
        name: "hello.txt.gz",
        data: "data:text/plain;base64,SGVsbG8sIHdvcmxkIQ==",
        outputType: "resource",
      });
      await same("gzip-file-as-resource", {
        name: "hello.txt.gz",
        data: "data:text/plain;base64,SGVsbG8sIHdvcmxkIQ==",
      });
      await same("gzip-file-as-resource", { data: "ftp://example.com/file.txt" });
      // The session resource the call made reads alike.
      const [a, b] = await both((s) =>
        answer(() => s.client.readResource({ uri: "demo://resource/session/hello.txt.gz" })),
      );
      expect(b).toEqual(a);
      // The original lists it and announces resources/list_changed; the port serves it from its template (§8).
      await both((s) => s.client.listResources());
      expect(rawResult(original, "resources").some((r) => r.uri === "demo://resource/session/hello.txt.gz")).toBe(true);
      if (!rawResult(port, "resources").some((r) => r.uri === "demo://resource/session/hello.txt.gz"))
        mark("session-template");
    });

    it("answers a bad argument as the contract says (§5), not as zod does", async () => {
      const [a, b] = await both((s) =>
        answer(() => s.client.callTool({ name: "get-sum", arguments: { a: "2", b: 3 } })),
      );
      expect(b).toEqual({
        result: {
          content: [{ type: "text", text: "Argument 'a' is not valid. Expected a number, got a string." }],
          isError: true,
        },
      });
      expect(a.result.isError).toBe(true);
      if (JSON.stringify(a) !== JSON.stringify(b)) mark("argument-error");
    });

    it("reads the same resources", async () => {
      const uris = [
        "architecture.md",
        "extension.md",
        "features.md",
        "how-it-works.md",
        "instructions.md",
        "startup.md",
        "structure.md",
      ].map((f) => `demo://resource/static/document/${f}`);
      for (const uri of [
        ...uris,
        "demo://resource/dynamic/text/2",
        "demo://resource/dynamic/blob/3",
        "demo://resource/dynamic/text/12345",
      ]) {
        const [a, b] = await both((s) => answer(() => s.client.readResource({ uri })));
        expect(b, uri).toEqual(a);
        expect(b.result.contents).toHaveLength(1);
      }
      // §8: a variable that does not parse is -32602 with the §5 text.
      const [a, b] = await both((s) => answer(() => s.client.readResource({ uri: "demo://resource/dynamic/text/0" })));
      expect(b).toEqual({
        error: { code: -32602, message: "Argument 'resourceId' is not valid. Expected an integer of at least 1." },
      });
      if (JSON.stringify(a) !== JSON.stringify(b)) mark("template-variable-error");
    });

    it("gets the same prompts", async () => {
      for (const [name, args] of [
        ["simple-prompt", undefined],
        ["args-prompt", { city: "Oslo" }],
        ["args-prompt", { city: "Portland", state: "Oregon" }],
        ["completable-prompt", { department: "Sales", name: "Eve" }],
        ["resource-prompt", { resourceType: "Text", resourceId: "2" }],
        ["resource-prompt", { resourceType: "Blob", resourceId: "5" }],
      ] as const) {
        const [a, b] = await both((s) => answer(() => s.client.getPrompt({ name, ...(args && { arguments: args }) })));
        expect(b, `${name} ${JSON.stringify(args)}`).toEqual(a);
      }
    });

    it("completes prompt arguments and template variables alike, the other arguments narrowing the values", async () => {
      const cases: Array<[Json, string, string, Json?]> = [
        [{ type: "ref/prompt", name: "completable-prompt" }, "department", ""],
        [{ type: "ref/prompt", name: "completable-prompt" }, "department", "S"],
        [{ type: "ref/prompt", name: "completable-prompt" }, "name", "", { department: "Sales" }],
        [{ type: "ref/prompt", name: "completable-prompt" }, "name", "G", { department: "Marketing" }],
        [{ type: "ref/prompt", name: "completable-prompt" }, "name", "A"],
        [{ type: "ref/prompt", name: "resource-prompt" }, "resourceType", "B"],
        [{ type: "ref/prompt", name: "resource-prompt" }, "resourceId", "12"],
        [{ type: "ref/prompt", name: "resource-prompt" }, "resourceId", "x"],
        [{ type: "ref/resource", uri: "demo://resource/dynamic/text/{resourceId}" }, "resourceId", "7"],
        [{ type: "ref/resource", uri: "demo://resource/dynamic/blob/{resourceId}" }, "resourceId", "-1"],
      ];
      for (const [ref, name, value, given] of cases) {
        const [a, b] = await both((s) =>
          answer(() =>
            s.client.complete({
              ref: ref as never,
              argument: { name, value },
              ...(given && { context: { arguments: given } }),
            }),
          ),
        );
        expect(b, `${JSON.stringify(ref)} ${name}=${value}`).toEqual(a);
      }
      const names = await port.client.complete({
        ref: { type: "ref/prompt", name: "completable-prompt" },
        argument: { name: "name", value: "" },
        context: { arguments: { department: "Support" } },
      });
      expect(names.completion.values).toEqual(["John", "Kim", "Lee"]);
    });

    it("sends progress notifications for a long running operation", async () => {
      const from = { original: original.raw.length, port: port.raw.length };
      const [a, b] = await both((s) =>
        answer(() =>
          s.client.callTool(
            { name: "trigger-long-running-operation", arguments: { duration: 0.2, steps: 4 } },
            { onprogress: () => {} },
          ),
        ),
      );
      expect(b).toEqual(a);
      // On the wire (the official client drops a progress notification that arrives with its response, docs/runtime.md).
      const sent = (s: Session, which: Which) =>
        s.raw
          .slice(from[which])
          .flatMap((m) =>
            m.method === "notifications/progress"
              ? [{ ...(m as { params: Json }).params, progressToken: "<token>" }]
              : [],
          );
      expect(sent(port, "port")).toEqual(
        [1, 2, 3, 4].map((n) => ({ progress: n, total: 4, progressToken: "<token>" })),
      );
      expect(sent(port, "port")).toEqual(sent(original, "original"));
    });

    it("asks the client for roots, a sampled message and elicitations, and answers alike", async () => {
      const calls: Array<[string, Json]> = [
        ["get-roots-list", {}],
        ["trigger-sampling-request", { prompt: "Say hello", maxTokens: 20 }],
        ["trigger-elicitation-request", {}],
        ["trigger-url-elicitation", { url: "https://example.com/consent", elicitationId: "consent-1" }],
        // Asked with params.task (a client-side task invited); the client answers at once (MCP 2025-11-25 "Tasks").
        ["trigger-sampling-request-async", { prompt: "Say hello", maxTokens: 20 }],
        ["trigger-elicitation-request-async", {}],
      ];
      for (const [name, args] of calls) {
        const [a, b] = await both((s) => answer(() => s.client.callTool({ name, arguments: args })));
        if (via === "http") {
          // Stateless 2025-era HTTP cannot carry the request: the port says so at once (docs/runtime.md).
          const method =
            name === "get-roots-list"
              ? "roots/list"
              : name.startsWith("trigger-sampling-request")
                ? "sampling/createMessage"
                : "elicitation/create";
          expect(b).toEqual({
            result: {
              content: [
                {
                  type: "text",
                  text: `This transport cannot carry the server's ${method} request to the client; connect over stdio (or a 2026-07-28 client) to use this tool.`,
                },
              ],
              isError: true,
            },
          });
          expect(a.result.isError).toBeUndefined();
          mark("http-no-back-channel");
          continue;
        }
        if (name === "trigger-sampling-request-async") {
          // The same CreateMessageResult, printed in the key order each SDK parsed it into.
          const [orig, ported] = [a, b].map(
            (x) => x.result.content[0].text.match(/^(\[SYNC\] Client executed synchronously:)\n(.*)$/s)!,
          );
          expect(ported![1]).toBe(orig![1]);
          expect(JSON.parse(ported![2]!)).toEqual(JSON.parse(orig![2]!));
          expect(JSON.parse(ported![2]!)).toEqual(SAMPLED);
          if (a.result.content[0].text !== b.result.content[0].text) mark("sdk-result-key-order");
          continue;
        }
        expect(b, name).toEqual(a);
      }
      if (via === "stdio") {
        // Both ask the same sampling and elicitation requests; the SDK under the port writes the
        // form elicitation's optional `mode: "form"` out (MCP 2025-11-25 ElicitRequestFormParams).
        const pick = (s: Session, method: string) => normalise(s.requests.filter((r) => r.method === method));
        expect(pick(port, "sampling/createMessage")).toEqual(pick(original, "sampling/createMessage"));
        const [form, url, asyncForm] = pick(port, "elicitation/create") as Json[];
        const [origForm, origUrl, origAsyncForm] = pick(original, "elicitation/create") as Json[];
        expect(url).toEqual(origUrl);
        expect(asyncForm!.params.task).toEqual({ ttl: 600_000 });
        for (const [p, o] of [
          [form, origForm],
          [asyncForm, origAsyncForm],
        ]) {
          expect(p!.params.mode).toBe("form");
          expect(o!.params.mode).toBeUndefined();
          delete p!.params.mode;
          expect(p).toEqual(o);
        }
        mark("sdk-elicit-mode");
      }
    });

    it("answers the URL elicitation error path with -32042, and the retry with the elicitation", async () => {
      const args = { url: "https://example.com/authorize", errorPath: true };
      const [a, b] = await both((s) =>
        answer(() => s.client.callTool({ name: "trigger-url-elicitation", arguments: args })),
      );
      // §7: the error as the SDK v2 sends it; the original's SDK v1 prefixes "MCP error -32042: " to the message.
      expect(b.error.message).toBe("This request requires browser-based authorization.");
      expect(a.error.message).toBe("MCP error -32042: This request requires browser-based authorization.");
      mark("protocol-error-message");
      expect({ ...b.error, message: undefined }).toEqual({ ...a.error, message: undefined });
      expect(b.error).toMatchObject({
        code: -32042,
        data: { elicitations: [{ mode: "url", url: "https://modelcontextprotocol.io", elicitationId: "<uuid>" }] },
      });
      // The retry skips the error path and asks the elicitation (over stdio; stateless HTTP cannot carry it, above).
      const [c, d] = await both((s) =>
        answer(() => s.client.callTool({ name: "trigger-url-elicitation", arguments: args })),
      );
      expect(c.result.content[0].text).toBe(
        "✅ User completed the URL elicitation flow.\nElicitation ID: <uuid>\nURL: https://example.com/authorize",
      );
      if (via === "stdio") expect(d).toEqual(c);
      else expect(d.result.isError).toBe(true);
    });

    it("sends simulated log messages, at the client's level, and resource updates for subscribed URIs", async () => {
      const levels = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"];
      const isSimulated = (n: Session["notifications"][number]) =>
        n.method === "notifications/message" && /^(\w+)[- ]level[- ]message/i.test(String(n.params?.data));
      if (via === "stdio") {
        // The original asks for roots right after initialize and logs the answer; the port has no such hook.
        await until(
          () => original.notifications.some((n) => n.params?.data === "Roots updated: 2 root(s) received from client"),
          "the original's roots log",
        );
        expect(port.notifications.filter((n) => n.method === "notifications/message")).toEqual([]);
        mark("roots-on-initialize");
      }
      for (const s of [original, port]) s.notifications.length = 0;
      const on = await both((s) =>
        answer(() => s.client.callTool({ name: "toggle-simulated-logging", arguments: {} })),
      );
      const uuidless = (a: Json) => JSON.parse(JSON.stringify(a).replace(/session <uuid>/g, "session undefined"));
      if (via === "http") {
        // The original reports its session; typed-mcp's 2025-era HTTP has none, and no stream to log on (docs/runtime.md).
        expect(JSON.stringify(on[0])).toContain("session <uuid>");
        expect(on[1]).toEqual(uuidless(on[0]));
        await until(() => original.notifications.some(isSimulated), "the original's log message");
        expect(port.notifications.filter(isSimulated)).toEqual([]);
        mark("http-no-session");
      } else {
        expect(on[1]).toEqual(on[0]);
        await until(
          () => original.notifications.some(isSimulated) && port.notifications.some(isSimulated),
          "a log message from both",
        );
        for (const s of [original, port]) {
          const [first] = s.notifications.filter(isSimulated);
          const level = String(first!.params.level);
          expect(levels).toContain(level);
          expect(String(first!.params.data).toLowerCase()).toMatch(new RegExp(`^${level}[- ]level[- ]message$`));
        }
      }
      const off = await both((s) =>
        answer(() => s.client.callTool({ name: "toggle-simulated-logging", arguments: {} })),
      );
      expect(off[1]).toEqual(via === "http" ? uuidless(off[0]) : off[0]);

      // Subscriptions: the original logs each subscribe request; both announce updates of the subscribed URI.
      const uri = "demo://resource/static/document/features.md";
      for (const s of [original, port]) s.notifications.length = 0;
      const sub = await both((s) => answer(() => s.client.subscribeResource({ uri })));
      expect(sub[1]).toEqual(sub[0]);
      if (via === "stdio") {
        await until(
          () =>
            original.notifications.some((n) =>
              String(n.params?.data).startsWith(`Received Subscribe Resource request for URI: ${uri}`),
            ),
          "the original's subscribe log",
        );
        expect(port.notifications).toEqual([]);
        mark("subscribe-log");
      }
      const updates = await both((s) =>
        answer(() => s.client.callTool({ name: "toggle-subscriber-updates", arguments: {} })),
      );
      expect(updates[1]).toEqual(via === "http" ? uuidless(updates[0]) : updates[0]);
      const updated = (s: Session) =>
        s.notifications.some((n) => n.method === "notifications/resources/updated" && n.params?.uri === uri);
      if (via === "stdio") await until(() => updated(original) && updated(port), "resources/updated from both");
      else await until(() => updated(original), "the original's resources/updated");
      await both((s) => s.client.callTool({ name: "toggle-subscriber-updates", arguments: {} }));
      await both((s) => s.client.unsubscribeResource({ uri }));
    });

    it(
      "runs simulate-research-query as a task alike: CreateTaskResult, tasks/get, status notifications, the clarification, tasks/result, tasks/list, tasks/cancel",
      () => researchTaskParity({ original, port, via, both, mark }),
      30_000,
    );

    // biome-ignore lint/suspicious/noDuplicateTestHooks: the first afterAll closes the sessions; this one checks what every test of the block saw
    afterAll(() => {
      // Every listed difference of this transport showed, and no other.
      expect([...seen].sort()).toEqual([...EXPECTED[via]].sort());
      for (const id of seen) expect(DIFFERENCES[id]).toBeTypeOf("string");
    });
  });
}
