/**
 * Zero copy on the valid path (issue 26, docs/codegen.md "Zero copy"): a plain JSON object that is
 * already the clean value is returned as it is; any object the copy would change — an unknown
 * key, keys out of listed order, a prototype other than `Object.prototype`, a converted property,
 * a renamed one — is copied as before. Inline and shared readers alike.
 */
import { describe, expect, it } from "vitest";
import { T, fakeCtx, load, param, prop, tool, type TypeModel } from "./helpers.ts";

const ctx = fakeCtx();
const item = T.object([prop("sku", T.string()), prop("qty", T.int({ minimum: 1 })), prop("note", T.string(), false)]);
const order = T.object([
  prop("id", T.string()),
  prop("items", T.array(item)),
  prop("customer", T.nullable(T.object([prop("name", T.string())]))),
]);

for (const share of [false, true]) {
  const read = async (t: TypeModel, v: unknown) => {
    const r = (await load(tool("t", [param("v", t)]), { share })).read({ v }, ctx);
    if (typeof r === "string") throw new Error(r);
    return r[0];
  };

  describe(`zero copy (${share ? "shared units" : "inline"})`, () => {
    it("returns the parsed object itself when it is the clean value, nested objects and arrays included", async () => {
      const v = JSON.parse('{"id":"o1","items":[{"sku":"a","qty":1},{"sku":"b","qty":2,"note":"x"}],"customer":null}');
      expect(await read(order, v)).toBe(v);
      const w = JSON.parse('{"id":"o1","items":[],"customer":{"name":"Ada"}}');
      expect(await read(order, w)).toBe(w);
    });

    it("copies an object with an unknown key (dropped), and every object holding it; keeps the others", async () => {
      const v = JSON.parse(
        '{"id":"o1","items":[{"sku":"a","qty":1},{"sku":"b","qty":2,"zzz":1},{"sku":"c","qty":3}],"customer":null}',
      );
      const r = (await read(order, v)) as { items: object[] };
      expect(r).not.toBe(v);
      expect(r.items).not.toBe(v.items);
      expect(r.items[0]).toBe(v.items[0]);
      expect(r.items[1]).toEqual({ sku: "b", qty: 2 });
      expect(r.items[1]).not.toBe(v.items[1]);
      expect(r.items[2]).toBe(v.items[2]);
      expect(r).toEqual({
        id: "o1",
        items: [
          { sku: "a", qty: 1 },
          { sku: "b", qty: 2 },
          { sku: "c", qty: 3 },
        ],
        customer: null,
      });
    });

    it("copies keys out of listed order into listed order", async () => {
      const v = JSON.parse('{"qty":1,"sku":"a"}');
      const r = await read(item, v);
      expect(r).not.toBe(v);
      expect(Object.keys(r as object)).toEqual(["sku", "qty"]);
    });

    it("copies what JSON.parse does not make: no prototype, a class instance, an inherited property", async () => {
      const bare = Object.assign(Object.create(null), { sku: "a", qty: 1 });
      const r = await read(item, bare);
      expect(r).not.toBe(bare);
      expect(Object.getPrototypeOf(r)).toBe(Object.prototype);
      class Line {
        sku = "a";
        qty = 1;
        get note() {
          return 42;
        }
      }
      const line = new Line();
      const c = (await read(item, line)) as Record<string, unknown>;
      expect(c).not.toBe(line);
      expect(c).toEqual({ sku: "a", qty: 1 });
      expect(c.note).toBeUndefined();
      const inherits = Object.assign(Object.create({ note: 7 }), { sku: "a", qty: 1 });
      const d = (await read(item, inherits)) as Record<string, unknown>;
      expect(d).not.toBe(inherits);
      expect(d.note).toBeUndefined();
    });

    it("copies an object with an own __proto__ key, which stays an own data property", async () => {
      const t = T.object([prop("__proto__", T.string(), false), prop("a", T.string())]);
      const v = JSON.parse('{"__proto__":"p","a":"x"}');
      const r = (await read(t, v)) as object;
      expect(Object.getPrototypeOf(r)).toBe(Object.prototype);
      expect(Object.getOwnPropertyDescriptor(r, "__proto__")?.value).toBe("p");
      const unknown = JSON.parse('{"__proto__":{"polluted":1},"sku":"a","qty":1}');
      const u = (await read(item, unknown)) as Record<string, unknown>;
      expect(u).toEqual({ sku: "a", qty: 1 });
      expect(Object.hasOwn(u, "__proto__")).toBe(false);
      expect(u.polluted).toBeUndefined();
    });

    it("copies an object whose properties convert (a Date) or are renamed (@jsonName)", async () => {
      const dated = T.object([prop("at", T.date())]);
      const v = JSON.parse('{"at":"2026-07-28T09:30:00Z"}');
      const r = (await read(dated, v)) as { at: Date };
      expect(r).not.toBe(v);
      expect(r.at).toBeInstanceOf(Date);
      const renamed = T.object([prop("first_name", T.string(), true, { key: "firstName" })]);
      const w = JSON.parse('{"first_name":"Ada"}');
      expect(await read(renamed, w)).toEqual({ firstName: "Ada" });
    });

    it("without a __proto__ accessor (as on Deno) the prototype test still holds", async () => {
      const t = await load(tool("t", [param("v", item)]), { share });
      const accessor = Object.getOwnPropertyDescriptor(Object.prototype, "__proto__")!;
      const v = JSON.parse('{"sku":"a","qty":1}');
      const line = Object.assign(Object.create({ note: 7 }), { sku: "a", qty: 1 });
      let reused: unknown;
      let copied: unknown;
      Reflect.deleteProperty(Object.prototype, "__proto__");
      try {
        reused = (t.read({ v }, ctx) as unknown[])[0];
        copied = (t.read({ v: line }, ctx) as unknown[])[0];
      } finally {
        Object.defineProperty(Object.prototype, "__proto__", accessor);
      }
      expect(reused).toBe(v);
      expect(copied).not.toBe(line);
      expect((copied as Record<string, unknown>).note).toBeUndefined();
    });

    it("a tool that mutates its argument mutates the request's object (docs/codegen.md)", async () => {
      const v = JSON.parse('{"sku":"a","qty":1}');
      const r = (await read(item, v)) as { qty: number };
      r.qty = 99;
      expect(v.qty).toBe(99);
    });
  });
}
