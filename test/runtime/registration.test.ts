// Registration rules (spec §0, §1): plugin-missing errors, duplicates, classes and instances,
// subclasses, and the decorator's typing in both decorator modes (checked with tsc).
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { McpServer, ToolError, tool } from "../../packages/typed-mcp/dist/index.js";
import * as internal from "../../packages/typed-mcp/dist/internal.js";
import { Orders, Weather, addDescriptor } from "./fixtures/tools.mjs";
import { messagesOf } from "./helpers.js";
import { rpcRequest } from "../helpers/raw-http.ts";

const PLUGIN_HINT = "plugins: [typedMcp()]";
const PLUGIN_IMPORT = "@typed-mcp/unplugin/vite";
/** The fix for Next.js (Turbopack and webpack) and for other webpack-loader hosts (issue 21). */
const NEXT_HINT = 'import { withTypedMcp } from "@typed-mcp/unplugin/next"; export default withTypedMcp(nextConfig)';
const LOADER_HINT = 'run the loader "@typed-mcp/unplugin/loader" on .ts files';

const emptyTool = (name: string, member?: string, isStatic?: boolean): internal.GeneratedTool => ({
  listing: { name, inputSchema: { type: "object", properties: {}, additionalProperties: false } },
  read: () => [],
  write: (v) => ({ content: [{ type: "text", text: String(v) }] }),
  ...(member !== undefined && { member }),
  ...(isStatic !== undefined && { static: isStatic }),
});

async function rpc(server: McpServer, body: unknown): Promise<Record<string, any>> {
  const response = await server.fetch(rpcRequest(body, { url: "http://localhost/mcp" }));
  return messagesOf(await response.text())[0]!;
}
const list = async (server: McpServer) =>
  (await rpc(server, { jsonrpc: "2.0", id: 1, method: "tools/list" })).result.tools.map(
    (t: { name: string }) => t.name,
  );
const call = async (server: McpServer, name: string, args?: unknown) =>
  (
    await rpc(server, {
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name, ...(args !== undefined && { arguments: args }) },
    })
  ).result;

describe("without the build plugin", () => {
  it("tool() throws at once, saying to add the plugin", () => {
    expect(() => tool()).toThrow(PLUGIN_HINT);
    expect(() => tool()).toThrow(PLUGIN_IMPORT);
    expect(() => tool()).toThrow("Next.js (Turbopack or webpack)");
    expect(() => tool()).toThrow(NEXT_HINT);
    expect(() => tool()).toThrow(LOADER_HINT);
    expect(() => tool()).toThrow('Babel: plugins: ["@typed-mcp/babel"]');
    expect(() => tool("search")).toThrow('@tool("search")');
    expect(() => tool({ name: "find", readOnly: true })).toThrow('@tool("find")');
  });

  it("server.tool without the generated descriptor throws, naming the tool", () => {
    const server = new McpServer({ name: "s", version: "1" });
    expect(() => server.tool("add", (a: number, b: number) => a + b)).toThrow('server.tool("add"');
    expect(() => server.tool("add", (a: number, b: number) => a + b)).toThrow(PLUGIN_HINT);
    expect(() => server.tool("add", { readOnly: true }, (a: number) => a)).toThrow(PLUGIN_IMPORT);
    // A descriptor not made by generated() is not accepted either.
    expect(() => (server.tool as Function).call(server, "add", (a: number) => a, emptyTool("add"))).toThrow(
      PLUGIN_HINT,
    );
  });

  it("addTools on something without compiled tools throws with the plugin hint", () => {
    const server = new McpServer({ name: "s", version: "1" });
    class Plain {
      m() {}
    }
    expect(() => server.addTools(new Plain())).toThrow(/Plain instance has no instance @tool\(\) members/);
    expect(() => server.addTools(new Plain())).toThrow(PLUGIN_HINT);
    expect(() => server.add(Plain)).toThrow(/class Plain has no static/);
  });
});

describe("registration", () => {
  it("an instance registers its class's instance tools, the class its static ones, in declaration order", async () => {
    const server = new McpServer({ name: "s", version: "1" });
    server.addTools(new Orders());
    expect(await list(server)).toEqual(["place_order", "explode", "refuse", "wait_for_abort", "whoami"]);
    server.addTools(Orders);
    expect(await list(server)).toEqual(["place_order", "explode", "refuse", "wait_for_abort", "whoami", "version"]);
  });

  it("two registrations of one name throw at registration, naming both, and register nothing", async () => {
    const server = new McpServer({ name: "s", version: "1" });
    server.addTools(new Orders());
    // @ts-expect-error the descriptor the build plugin appends (generated code) is not in the public signature
    expect(() => server.tool("explode", () => 1, internal.generated(emptyTool("explode")))).toThrow(
      'two tools are named "explode" on this server: Orders.explode and server.tool("explode")',
    );
    expect(() => server.addTools(new Orders())).toThrow("Orders.placeOrderAsync and Orders.placeOrderAsync");
    class Clash {
      static {
        internal.defineTools(this, [emptyTool("fresh", "a"), emptyTool("add", "b")]);
      }
      a() {}
      b() {}
    }
    // @ts-expect-error the descriptor the build plugin appends (generated code) is not in the public signature
    server.tool("add", { readOnly: true }, (a: number, b: number) => a + b, addDescriptor());
    expect(() => server.addTools(new Clash())).toThrow('server.tool("add") and Clash.b');
    expect(await list(server)).not.toContain("fresh");
  });

  it("a task tool whose descriptor carries no tasks runtime (an older plugin's) throws at registration, naming it; registers nothing", async () => {
    const server = new McpServer({ name: "s", version: "1" });
    const stale = (name: string, member?: string): internal.GeneratedTool => {
      const d = emptyTool(name, member);
      return { ...d, listing: { ...d.listing, execution: { taskSupport: "optional" } } };
    };
    const message = (name: string, origin: string) =>
      `typed-mcp: tool "${name}" (${origin}) may run as a task, but its generated descriptor carries no task runtime (\`tasks\`): it was built by an older typed-mcp plugin. Rebuild it with the plugin of this typed-mcp version.`;
    // @ts-expect-error the descriptor the build plugin appends (generated code) is not in the public signature
    expect(() => server.tool("job", () => 1, internal.generated(stale("job")))).toThrow(
      message("job", 'server.tool("job")'),
    );
    class Jobs {
      static {
        internal.defineTools(this, [emptyTool("fine", "a"), stale("old_job", "b")]);
      }
      a() {}
      b() {}
    }
    expect(() => server.addTools(new Jobs())).toThrow(message("old_job", "Jobs.b"));
    // With the runtime it carries, the same descriptor registers, and the server advertises tasks.
    // @ts-expect-error as above
    server.tool("job", () => 1, internal.generated({ ...stale("job"), tasks: internal.installTasks }));
    expect(await list(server)).toEqual(["job"]);
    const init = await rpc(server, {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "1" } },
    });
    expect(init.result.capabilities.tasks).toEqual({ list: {}, cancel: {}, requests: { tools: { call: {} } } });
  });

  it("subclasses inherit decorated methods; `this` is the registered instance; overrides are called", async () => {
    class SpecialOrders extends Orders {
      override prefix = "special-";
      override refuse(): never {
        throw new ToolError("Overridden.");
      }
      ping() {
        return `pong from ${this.prefix}`;
      }
      static {
        internal.defineTools(this, [emptyTool("ping", "ping")]);
      }
    }
    const server = new McpServer({ name: "s", version: "1" });
    server.addTools(new SpecialOrders());
    expect(await list(server)).toEqual(["ping", "place_order", "explode", "refuse", "wait_for_abort", "whoami"]);
    expect((await call(server, "ping")).content).toEqual([{ type: "text", text: "pong from special-" }]);
    expect((await call(server, "place_order", { items: [{ sku: "a", qty: 1 }] })).structuredContent).toEqual({
      id: "special-1",
      total: 2.5,
    });
    expect(await call(server, "refuse")).toEqual({ content: [{ type: "text", text: "Overridden." }], isError: true });
    // Static tools of the base class are found through the subclass.
    const statics = new McpServer({ name: "s", version: "1" });
    statics.addTools(SpecialOrders);
    expect(await list(statics)).toEqual(["version"]);
  });

  it("add() registers tools too; the quick path calls fn with the generated argument list", async () => {
    const server = new McpServer({ name: "s", version: "1" });
    server.add(new Weather());
    // @ts-expect-error the descriptor the build plugin appends (generated code) is not in the public signature
    server.tool("add", { readOnly: true }, (a: number, b: number) => a + b, addDescriptor());
    expect(await call(server, "add", { a: 2, b: 40 })).toEqual({ content: [{ type: "text", text: "42" }] });
    expect(await call(server, "show_weather", { city: "Oslo" })).toEqual({
      content: [{ type: "text", text: "Sunny in Oslo" }],
    });
  });

  it("a reader or writer that throws is 'The tool failed.' too", async () => {
    const errors: unknown[] = [];
    const server = new McpServer({ name: "s", version: "1", onToolError: (e) => errors.push(e) });
    server.tool(
      "bad_read",
      // @ts-expect-error the descriptor the build plugin appends (generated code) is not in the public signature
      () => 1,
      internal.generated({
        ...emptyTool("bad_read"),
        read: () => {
          throw new Error("r");
        },
      }),
    );
    server.tool(
      "bad_write",
      // @ts-expect-error the descriptor the build plugin appends (generated code) is not in the public signature
      () => 1,
      internal.generated({
        ...emptyTool("bad_write"),
        write: () => {
          throw new Error("w");
        },
      }),
    );
    for (const name of ["bad_read", "bad_write"]) {
      expect(await call(server, name)).toEqual({
        content: [{ type: "text", text: "The tool failed." }],
        isError: true,
      });
    }
    expect(errors.map((e) => (e as Error).message)).toEqual(["r", "w"]);
  });

  it("server.fetch is bound: `export default { fetch: server.fetch }` works", async () => {
    const server = new McpServer({ name: "s", version: "1" });
    server.addTools(Orders);
    const worker = { fetch: server.fetch };
    const { fetch: detached } = worker;
    const response = await detached(
      new Request("http://localhost/", {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": "2025-06-18",
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "version" } }),
      }),
    );
    expect(messagesOf(await response.text())[0]).toEqual({
      jsonrpc: "2.0",
      id: 7,
      result: { content: [{ type: "text", text: "1.0" }] },
    });
  });

  it("rejects a requestTimeoutMs that is not a positive number", () => {
    expect(() => new McpServer({ name: "s", version: "1", requestTimeoutMs: 0 })).toThrow(RangeError);
    expect(() => new McpServer({ name: "s", version: "1", requestTimeoutMs: Number.NaN })).toThrow(RangeError);
  });
});

describe("Workers-safe", () => {
  it("the runtime's dist has no eval and no new Function (spec §5: it must run on Cloudflare Workers)", () => {
    const dist = fileURLToPath(new URL("../../packages/typed-mcp/dist/", import.meta.url));
    const files = readdirSync(dist).filter((f) => f.endsWith(".js"));
    expect(files).toContain("server.js");
    for (const file of files) {
      const code = readFileSync(join(dist, file), "utf8");
      expect(code, file).not.toMatch(/\beval\s*\(|new\s+Function\s*\(|\bFunction\s*\(\s*["'`]/);
    }
  });
});

describe("the tool() decorator's types and run-time behaviour (tsc + the emitted JS)", () => {
  const root = fileURLToPath(new URL("../..", import.meta.url));
  const dir = mkdtempSync(join(tmpdir(), "typed-mcp-decorators-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(join(dir, "node_modules"));
  symlinkSync(join(root, "packages/typed-mcp"), join(dir, "node_modules/typed-mcp"), "dir");
  writeFileSync(join(dir, "package.json"), '{"type":"module"}');

  for (const mode of ["standard", "legacy"] as const) {
    it(`${mode} decorators type-check, and the class throws at definition without the plugin`, async () => {
      const src = join(dir, mode);
      mkdirSync(src);
      cpSync(fileURLToPath(new URL(`./fixtures/decorators/${mode}.ts`, import.meta.url)), join(src, "index.ts"));
      writeFileSync(
        join(src, "tsconfig.json"),
        JSON.stringify({
          compilerOptions: {
            target: "es2022",
            module: "nodenext",
            moduleResolution: "nodenext",
            strict: true,
            skipLibCheck: true,
            types: [],
            lib: ["es2023", "dom"],
            outDir: "out",
            ...(mode === "legacy" && { experimentalDecorators: true }),
          },
          files: ["index.ts"],
        }),
      );
      const tsc = join(root, "node_modules/typescript/bin/tsc");
      let output = "";
      try {
        execFileSync(process.execPath, [tsc, "-p", join(src, "tsconfig.json")], { encoding: "utf8" });
      } catch (error) {
        output = String((error as { stdout?: string }).stdout ?? error);
      }
      expect(output).toBe("");
      await expect(import(pathToFileURL(join(src, "out/index.js")).href)).rejects.toThrow(PLUGIN_HINT);
    });
  }
});
