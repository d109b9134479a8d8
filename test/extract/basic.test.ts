import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createExtractor } from "../../packages/extract/src/index.js";
import type { MeasuredExtractor } from "../../packages/extract/src/index.js";
import type { ModuleModel, ObjectModel } from "@typed-mcp/model";
import { fixture, FIXTURES, lineColOf, param, tool } from "./helpers.js";

let ex: MeasuredExtractor;
let orders: ModuleModel;
let quick: ModuleModel;
const ordersSrc = fixture("basic/orders.ts");
const quickSrc = fixture("basic/quick.ts");

beforeAll(() => {
  ex = createExtractor();
  orders = ex.extract(ordersSrc.file, ordersSrc.code);
  quick = ex.extract(quickSrc.file, quickSrc.code);
});
afterAll(() => ex.close());

describe("generator path (@tool on methods)", () => {
  it("extracts every decorated method and nothing else, without diagnostics", () => {
    expect(orders.diagnostics).toEqual([]);
    expect(orders.tools.map((t) => t.name)).toEqual([
      "place_order",
      "paint",
      "find",
      "get_http_response",
      "count",
      "raw",
      "maybe",
      "flags",
    ]);
  });

  it("names: member minus Async in snake_case; explicit names win (§1)", () => {
    expect(tool(orders, "place_order").site).toMatchObject({
      kind: "method",
      member: "placeOrderAsync",
      static: false,
    });
    expect(tool(orders, "paint").site).toMatchObject({ kind: "method", member: "paint", static: true });
    expect(tool(orders, "find").site).toMatchObject({ member: "search" });
    expect(tool(orders, "get_http_response").site).toMatchObject({ member: "getHTTPResponse" });
  });

  it("site spans point at the class body and the decorator (UTF-16 offsets)", () => {
    const t = tool(orders, "place_order");
    if (t.site.kind !== "method") throw new Error("kind");
    const code = ordersSrc.code;
    expect(code.slice(t.site.classBodyStart - 1, t.site.classBodyStart)).toBe("{");
    expect(code.slice(0, t.site.classBodyStart)).toMatch(/export class Orders \{$/);
    expect(code.slice(t.site.decorator[0], t.site.decorator[1])).toBe("@mcpTool()");
    const paint = tool(orders, "paint");
    if (paint.site.kind !== "method") throw new Error("kind");
    expect(code.slice(paint.site.decorator[0], paint.site.decorator[1])).toMatch(/^@mcpTool\(\{ name: "paint".*\}\)$/);
    expect(t.location).toEqual({ file: ordersSrc.file, ...lineColOf(code, "placeOrderAsync") });
  });

  it("description: main text, normalised; @description wins (§1, §4 doc comments)", () => {
    expect(tool(orders, "place_order").description).toBe("Places an order.");
    expect(tool(orders, "paint").description).toBe("Paints things.");
    expect(tool(orders, "find").description).toBeUndefined();
  });

  it("annotations come from options only, in wire order (§1)", () => {
    expect(tool(orders, "paint").annotations).toEqual({
      title: "Paint",
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    });
    expect(Object.keys(tool(orders, "paint").annotations!)).toEqual([
      "title",
      "readOnlyHint",
      "destructiveHint",
      "idempotentHint",
      "openWorldHint",
    ]);
    expect(tool(orders, "place_order").annotations).toBeUndefined();
  });

  it("an imported interface: base properties first, docs, optional/undefined, nullable enum in source order (§3, §4)", () => {
    const items = param(tool(orders, "place_order"), "items");
    expect(items.required).toBe(true);
    expect(items.description).toBe("The lines to order.");
    expect(items.type.kind).toBe("array");
    const item = (items.type as { items: ObjectModel }).items;
    expect(item.kind).toBe("object");
    expect(item.properties.map((p) => [p.name, p.required])).toEqual([
      ["id", true],
      ["sku", true],
      ["qty", true],
      ["note", false],
      ["gift", false],
      ["tags", true],
      ["color", true],
    ]);
    expect(item.properties[0]!.description).toBe("The identifier.");
    expect(item.properties[1]!.description).toBe("The product's SKU, see the base.");
    expect(item.properties[5]!.type).toEqual({ kind: "array", items: { kind: "string" } });
    expect(item.properties[4]!.type).toEqual({ kind: "boolean" });
    expect(item.properties[6]!.type).toEqual({
      kind: "nullable",
      inner: { kind: "enum", valueType: "string", values: ["red", "green", "blue"] },
    });
    expect(item.declaredAt).toEqual({ file: `${FIXTURES}/basic/types.ts`, line: 10, column: 18 });
  });

  it("the file declaring an imported interface is a consulted file", () => {
    expect(orders.consultedFiles).toContain(`${FIXTURES}/basic/types.ts`);
    expect(orders.consultedFiles).not.toContain(ordersSrc.file);
  });

  it("RequestContext and AbortSignal are runtime parameters (§3)", () => {
    expect(tool(orders, "place_order").params[2]).toEqual({ role: "context", name: "ctx" });
    expect(tool(orders, "paint").params[1]).toEqual({ role: "signal", name: "signal" });
  });

  it("string-literal unions keep source order, also inside Array<…> (§4)", () => {
    const paint = tool(orders, "paint");
    expect(param(paint, "color").type).toEqual({ kind: "enum", valueType: "string", values: ["red", "green", "blue"] });
    expect(param(paint, "shades").type).toEqual({
      kind: "array",
      items: { kind: "enum", valueType: "string", values: ["dark", "light"] },
    });
  });

  it("defaults: compile-time constants only (§3)", () => {
    const paint = tool(orders, "paint");
    const view = (n: string) => {
      const p = param(paint, n);
      return { required: p.required, default: p.default, type: p.type.kind };
    };
    expect(view("count")).toEqual({ required: false, default: 3, type: "integer" });
    expect(view("size")).toEqual({ required: false, default: "m", type: "string" });
    expect(view("offset")).toEqual({ required: false, default: -1.5, type: "number" });
    expect(view("tpl")).toEqual({ required: false, default: "plain", type: "string" });
    expect(view("limit")).toEqual({ required: false, default: 25, type: "number" }); // const LIMIT = 25
    expect(view("other")).toEqual({ required: false, default: undefined, type: "number" }); // let: not a constant
    expect(view("big")).toEqual({ required: false, default: "l", type: "enum" }); // enum member → wire value
    expect(view("none")).toEqual({ required: false, default: undefined, type: "nullable" }); // null default writes nothing
    expect(param(paint, "none").nullDefault).toBe(true); // …but is known, for openai-strict (§11)
    expect(view("when")).toEqual({ required: false, default: undefined, type: "number" }); // Date.now()
    expect(view("shades")).toEqual({ required: false, default: [], type: "array" }); // an array of constants is a default (§3)
    expect(view("note")).toEqual({ required: false, default: undefined, type: "string" }); // p?: T
    expect("default" in param(paint, "other")).toBe(false);
    expect(param(tool(orders, "place_order"), "rush")).toMatchObject({
      required: false,
      default: false,
      description: "Ship it today.",
    });
  });

  it("a nullable parameter without default stays required (§3)", () => {
    expect(param(tool(orders, "paint"), "label")).toMatchObject({
      required: true,
      type: { kind: "nullable", inner: { kind: "string" } },
    });
  });

  it("Int is an integer (§4)", () => {
    expect(param(tool(orders, "paint"), "count").type).toEqual({ kind: "integer" });
  });

  it("string enum as a parameter lists its values in declaration order (§4)", () => {
    expect(param(tool(orders, "paint"), "big").type).toEqual({ kind: "enum", valueType: "string", values: ["s", "l"] });
  });

  it("a destructured parameter lists its type's properties, with binding defaults (§3)", () => {
    const find = tool(orders, "find");
    expect(find.params).toEqual([
      {
        role: "destructured",
        properties: [
          {
            role: "value",
            name: "query",
            key: "query",
            type: { kind: "string" },
            required: true,
            description: "What to look for.",
          },
          {
            role: "value",
            name: "limit",
            key: "limit",
            type: { kind: "number" },
            required: false,
            description: "At most this many.",
            default: 10,
          },
        ],
      },
    ]);
  });

  it("result kinds (§6)", () => {
    const r = (n: string) => tool(orders, n).result;
    expect(r("place_order")).toMatchObject({ kind: "structured", nullable: false, type: { kind: "object" } });
    expect((r("place_order") as { type: ObjectModel }).type.properties.map((p) => p.name)).toEqual([
      "orderId",
      "total",
      "lines",
    ]);
    expect(r("find")).toMatchObject({ kind: "structured", nullable: true, type: { kind: "object" } });
    expect(r("paint")).toEqual({ kind: "text" });
    expect(r("maybe")).toEqual({ kind: "text" });
    expect(r("get_http_response")).toEqual({ kind: "void" });
    expect(r("count")).toEqual({ kind: "json", type: { kind: "array", items: { kind: "number" } } });
    expect(r("raw")).toEqual({ kind: "passthrough" });
    expect(r("flags")).toEqual({
      kind: "structured",
      nullable: false,
      type: { kind: "record", values: { kind: "boolean" } },
    });
  });

  it("the model is plain data (JSON round trip is identical)", () => {
    expect(JSON.parse(JSON.stringify(orders))).toEqual(orders);
  });
});

describe("quick path (server.tool)", () => {
  it("finds calls on McpServer only", () => {
    expect(quick.diagnostics).toEqual([]);
    expect(quick.tools.map((t) => t.name)).toEqual(["add", "greet", "echo", "shout"]);
  });

  it("inline arrow with JSDoc on the statement", () => {
    const add = tool(quick, "add");
    expect(add.description).toBe("Adds two numbers.");
    expect(add.params).toEqual([
      { role: "value", name: "a", type: { kind: "number" }, required: true },
      { role: "value", name: "b", type: { kind: "number" }, required: true },
    ]);
    expect(add.result).toEqual({ kind: "json", type: { kind: "number" } });
    expect(add.site.kind).toBe("quick");
    if (add.site.kind !== "quick") return;
    expect(quickSrc.code[add.site.callEnd]).toBe(")");
    expect(add.site.trailingComma).toBe(false);
    expect(add.location).toEqual({ file: quickSrc.file, ...lineColOf(quickSrc.code, 'server.tool("add"') });
  });

  it("options and function expression", () => {
    const greet = tool(quick, "greet");
    expect(greet.description).toBe("Says hello.");
    expect(greet.annotations).toEqual({ title: "Greet" });
    expect(greet.result).toEqual({ kind: "text" });
  });

  it("identifier bound to a function declaration (its JSDoc and @param), trailing comma", () => {
    const echo = tool(quick, "echo");
    expect(echo.description).toBe("Echoes the text.");
    expect(param(echo, "text").description).toBe("The text to echo.");
    if (echo.site.kind !== "quick") throw new Error("kind");
    expect(echo.site.trailingComma).toBe(true);
    expect(quickSrc.code.slice(echo.site.callEnd - 5, echo.site.callEnd + 1)).toBe("echo,)");
  });

  it("identifier bound to a const arrow function; no-substitution template name", () => {
    const shout = tool(quick, "shout");
    expect(shout.description).toBe("Shouts.");
    expect(shout.params).toEqual([{ role: "value", name: "text", type: { kind: "string" }, required: true }]);
  });
});
