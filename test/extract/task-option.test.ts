/**
 * The `task` option (docs/runtime.md "Tasks"; MCP 2025-11-25 "Tasks", tool-level negotiation:
 * `Tool.execution.taskSupport` is "forbidden" | "optional" | "required") read at build time on
 * both declaration paths, carried in the model and written in the listing as
 * `execution: { taskSupport }` between `annotations` and `_meta` (contract §1 key order); any
 * other value is the tool's build error OMCG0001 at the value (spec §10). The `taskStart` option
 * (`"call"` | `"after-input"`, docs/runtime.md "Tasks", "Input before the task") is carried as
 * `execution.start`, written in the descriptor as `taskStart`, never listed.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createExtractor } from "../../packages/extract/src/index.js";
import type { Extractor } from "../../packages/extract/src/index.js";
import type { ModuleModel } from "@typed-mcp/model";
import { fixture, lineColOf, tool } from "./helpers.js";
import { load } from "../codegen/helpers.js";

let ex: Extractor;
let model: ModuleModel;
let code: string;
let file: string;
beforeAll(() => {
  ex = createExtractor();
  ({ file, code } = fixture("tasks/tools.ts"));
  model = ex.extract(file, code);
});
afterAll(() => ex.close());

describe("task option", () => {
  it("is carried in the model (decorator, const-folded value, quick path); absent without the option", () => {
    expect(tool(model, "slow_compute").execution).toEqual({ taskSupport: "optional" });
    expect(tool(model, "must_run").execution).toEqual({ taskSupport: "required" });
    expect(tool(model, "never").execution).toEqual({ taskSupport: "forbidden" });
    expect(tool(model, "quick_job").execution).toEqual({ taskSupport: "optional" });
    expect(tool(model, "plain").execution).toBeUndefined();
  });

  it("is listed as execution.taskSupport after annotations (§1 key order), the same on both paths", async () => {
    const slow = await load(tool(model, "slow_compute"));
    expect(JSON.stringify(slow.listing)).toBe(
      JSON.stringify({
        name: "slow_compute",
        description: "Sleeps, then answers.",
        inputSchema: {
          type: "object",
          properties: { seconds: { type: "number" } },
          required: ["seconds"],
          additionalProperties: false,
        },
        annotations: { destructiveHint: false },
        execution: { taskSupport: "optional" },
      }),
    );
    const quick = await load(tool(model, "quick_job"));
    expect(quick.listing).toEqual({
      ...slow.listing,
      name: "quick_job",
      description: undefined,
      annotations: undefined,
    });
    expect(Object.keys(quick.listing)).toEqual(["name", "inputSchema", "execution"]);
    expect("execution" in (await load(tool(model, "plain"))).listing).toBe(false);
  });

  it('refuses any other value (OMCG0001 at the value); taskStart without a task-capable task, or not "call" / "after-input", too', () => {
    const at = (needle: string) => ({ file, ...lineColOf(code, needle), code: "OMCG0001" });
    expect(model.diagnostics.map((d) => ({ file: d.file, line: d.line, column: d.column, code: d.code }))).toEqual([
      at('"sometimes"'),
      at("true })"),
      at('{ taskStart: "after-input" }'),
      at('"later"'),
    ]);
    const message = `@tool: option 'task' must be "optional", "required" or "forbidden" (MCP execution.taskSupport) as a constant, so that it can be read at build time.`;
    expect(model.diagnostics.map((d) => d.message)).toEqual([
      message,
      message,
      `@tool: taskStart "after-input" needs task "optional" or "required".`,
      `@tool: option 'taskStart' must be "call" or "after-input" as a constant, so that it can be read at build time.`,
    ]);
  });

  it("a tool that may run as a task carries the tasks runtime (tasks: __tmcp.installTasks); forbidden and plain tools carry none", async () => {
    const internal = await import("../../packages/typed-mcp/dist/internal.js");
    expect(typeof internal.installTasks).toBe("function");
    for (const name of ["slow_compute", "must_run", "quick_job", "ask_first"]) {
      const loaded = (await load(tool(model, name))) as Awaited<ReturnType<typeof load>> & { tasks?: unknown };
      expect(loaded.tasks, name).toBe(internal.installTasks);
    }
    for (const name of ["never", "plain"]) expect("tasks" in (await load(tool(model, name))), name).toBe(false);
  });

  it('taskStart "after-input" is execution.start in the model and taskStart in the descriptor, never in the listing; "call" is the default', async () => {
    expect(tool(model, "ask_first").execution).toEqual({ taskSupport: "required", start: "after-input" });
    expect(tool(model, "quick_ask").execution).toEqual({ taskSupport: "optional", start: "after-input" });
    expect(tool(model, "starts_at_call").execution).toEqual({ taskSupport: "optional" });
    const ask = (await load(tool(model, "ask_first"))) as Awaited<ReturnType<typeof load>> & { taskStart?: string };
    expect(ask.taskStart).toBe("after-input");
    expect(ask.listing.execution).toEqual({ taskSupport: "required" });
    expect("taskStart" in (await load(tool(model, "starts_at_call")))).toBe(false);
  });
});
