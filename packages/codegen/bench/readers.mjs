// Reader benchmarks of `pnpm bench` (scripts/bench.mjs; issue 12 rows "reader vs hand-written",
// "vs typia", "vs zod 4"). For each of three payloads — flat scalars, an order with 50 nested
// items, strings with patterns and formats (scripts/bench/fixture/src/payloads.ts) — the reader
// typed-mcp generates (real extractor → codegen), a careful hand-written reader doing the same
// work (validate, clean copy, the wire path of the first failure; one pass over `Object.keys`
// with a `switch`, the same runtime helpers for e-mail, URI, date-time and code points), ajv 8
// compiled from the same inputSchema with ajv-formats (validation only: no copy, strings stay
// strings), zod 4 `safeParse` of the equivalent schema, and typia 12 `validateEquals` of the
// equivalent types (packages/codegen/bench/typia; validation only, like ajv).
// All must accept the valid payload and refuse the same bad one before anything is timed.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Bench } from "tinybench";
import Ajv from "ajv";
import addFormats from "ajv-formats";
import { z } from "zod";
import { median } from "../../../scripts/bench/rounds.mjs";

/** The hand-written readers: `[arguments]` in parameter order, or the wire path of the first failure. */
export function handReaders(h) {
  const isObj = (v) => typeof v === "object" && v !== null && !Array.isArray(v);
  const top = (a) => (a === undefined ? {} : isObj(a) ? a : undefined);
  return {
    flat(input) {
      const a = top(input);
      if (!a) return "arguments";
      let name, age, score, active, nickname, unknown;
      for (const k of Object.keys(a)) {
        switch (k) {
          case "name":
            name = a[k];
            break;
          case "age":
            age = a[k];
            break;
          case "score":
            score = a[k];
            break;
          case "active":
            active = a[k];
            break;
          case "nickname":
            nickname = a[k];
            break;
          default:
            unknown ??= k;
        }
      }
      if (typeof name !== "string") return "name";
      if (typeof age !== "number" || !Number.isInteger(age)) return "age";
      if (typeof score !== "number" || !Number.isFinite(score)) return "score";
      if (typeof active !== "boolean") return "active";
      if (nickname !== undefined && typeof nickname !== "string") return "nickname";
      if (unknown !== undefined) return unknown;
      return [name, age, score, active, nickname];
    },
    place_order(input) {
      const a = top(input);
      if (!a) return "arguments";
      let order, unknown;
      for (const k of Object.keys(a)) {
        if (k === "order") order = a[k];
        else unknown ??= k;
      }
      if (!isObj(order)) return "order";
      let id, customer, items, note;
      for (const k of Object.keys(order)) {
        switch (k) {
          case "id":
            id = order[k];
            break;
          case "customer":
            customer = order[k];
            break;
          case "items":
            items = order[k];
            break;
          case "note":
            note = order[k];
            break;
        }
      }
      if (typeof id !== "string") return "order.id";
      if (!isObj(customer)) return "order.customer";
      let cname, email;
      for (const k of Object.keys(customer)) {
        if (k === "name") cname = customer[k];
        else if (k === "email") email = customer[k];
      }
      if (typeof cname !== "string" || (cname.length < 2 && h.codePoints(cname) < 1)) return "order.customer.name";
      if (typeof email !== "string") return "order.customer.email";
      if (!Array.isArray(items)) return "order.items";
      const outItems = new Array(items.length);
      for (let i = 0; i < items.length; i++) {
        const it = items[i];
        if (!isObj(it)) return "order.items[" + i + "]";
        let sku, quantity, price;
        for (const k of Object.keys(it)) {
          switch (k) {
            case "sku":
              sku = it[k];
              break;
            case "quantity":
              quantity = it[k];
              break;
            case "price":
              price = it[k];
              break;
          }
        }
        if (typeof sku !== "string") return "order.items[" + i + "].sku";
        if (typeof quantity !== "number" || !Number.isInteger(quantity) || quantity < 1)
          return "order.items[" + i + "].quantity";
        if (typeof price !== "number" || !Number.isFinite(price)) return "order.items[" + i + "].price";
        outItems[i] = { sku, quantity, price };
      }
      if (note !== undefined && typeof note !== "string") return "order.note";
      if (unknown !== undefined) return unknown;
      const out = { id, customer: { name: cname, email }, items: outItems };
      if (note !== undefined) out.note = note;
      return [out];
    },
    strings(input) {
      const CODE = /^[A-Z]{3}-[0-9]{4}$/u;
      const a = top(input);
      if (!a) return "arguments";
      let code, email, homepage, at, until, label, unknown;
      for (const k of Object.keys(a)) {
        switch (k) {
          case "code":
            code = a[k];
            break;
          case "email":
            email = a[k];
            break;
          case "homepage":
            homepage = a[k];
            break;
          case "at":
            at = a[k];
            break;
          case "until":
            until = a[k];
            break;
          case "label":
            label = a[k];
            break;
          default:
            unknown ??= k;
        }
      }
      if (typeof code !== "string" || !CODE.test(code)) return "code";
      if (typeof email !== "string" || !h.isEmail(email)) return "email";
      if (typeof homepage !== "string" || !h.isUri(homepage)) return "homepage";
      const atDate = h.readDateTime(at);
      if (atDate === undefined) return "at";
      const untilDate = h.readDateTime(until);
      if (untilDate === undefined) return "until";
      if (
        typeof label !== "string" ||
        (label.length < 2 && h.codePoints(label) < 1) ||
        (label.length > 40 && h.codePoints(label) > 40)
      )
        return "label";
      if (unknown !== undefined) return unknown;
      return [code, email, homepage, atDate, untilDate, label];
    },
  };
}

/** zod 4 schemas equivalent to the listings (strict at the top level, as the listings' `additionalProperties: false`). */
export const zodSchemas = {
  flat: z.strictObject({
    name: z.string(),
    age: z.int(),
    score: z.number(),
    active: z.boolean(),
    nickname: z.string().optional(),
  }),
  place_order: z.strictObject({
    order: z.object({
      id: z.string(),
      customer: z.object({ name: z.string().min(1), email: z.string() }),
      items: z.array(z.object({ sku: z.string(), quantity: z.int().min(1), price: z.number() })),
      note: z.string().optional(),
    }),
  }),
  strings: z.strictObject({
    code: z.string().regex(/^[A-Z]{3}-[0-9]{4}$/u),
    email: z.email(),
    homepage: z.url(),
    at: z.iso.datetime({ offset: true }).transform((s) => new Date(s)),
    until: z.iso.datetime({ offset: true }).transform((s) => new Date(s)),
    label: z.string().min(1).max(40),
  }),
};

/** The payloads: one valid and one invalid argument object per tool. */
export const payloads = {
  flat: {
    valid: { name: "Ada", age: 36, score: 9.5, active: true, nickname: "countess" },
    bad: { name: "Ada", age: 36.5, score: 9.5, active: true },
  },
  place_order: {
    valid: {
      order: {
        id: "ord-1",
        customer: { name: "Ada Lovelace", email: "ada@example.org" },
        items: Array.from({ length: 50 }, (_, i) => ({ sku: `SKU-${i}`, quantity: 1 + (i % 5), price: 3.25 + i })),
        note: "leave at the door",
      },
    },
    bad: {
      order: { id: "ord-1", customer: { name: "Ada", email: "a@b.co" }, items: [{ sku: "x", quantity: 0, price: 1 }] },
    },
  },
  strings: {
    valid: {
      code: "ABC-1234",
      email: "first.last@example.org",
      homepage: "https://example.org/a?b=c",
      at: "2026-07-28T09:30:00.125+02:00",
      until: "2026-12-31T23:59:59Z",
      label: "quarterly report",
    },
    bad: {
      code: "ABC-1234",
      email: "first.last@example.org",
      homepage: "https://example.org/a?b=c",
      at: "2026-02-30T09:30:00Z",
      until: "2026-12-31T23:59:59Z",
      label: "q",
    },
  },
};

/**
 * typia 12 `validateEquals` validators of the payloads, by tool name (packages/codegen/bench/typia:
 * its own pinned devDependencies — typia 12.2.1, ts-patch 3.3.0, TypeScript 5.9.3 — outside the
 * workspace). Built once by `tspc`: the folder is installed (`pnpm install --frozen-lockfile
 * --ignore-workspace`) when it has no node_modules, and built when dist/ is missing or older than
 * the source. @throws Error with pnpm's output when the install or the build fails.
 */
export async function typiaValidators(root) {
  const dir = join(root, "packages/codegen/bench/typia");
  const src = join(dir, "src/validators.ts");
  const out = join(dir, "dist/validators.js");
  const run = (args) => {
    const r = spawnSync("npx", ["-y", "pnpm@10.34.9", ...args], { cwd: dir, encoding: "utf8" });
    if (r.status !== 0) throw new Error(`typia bench: pnpm ${args.join(" ")} failed:\n${r.stdout}${r.stderr}`);
  };
  if (!existsSync(join(dir, "node_modules/typia"))) run(["install", "--frozen-lockfile", "--ignore-workspace"]);
  if (!existsSync(out) || statSync(out).mtimeMs < statSync(src).mtimeMs) run(["run", "build"]);
  return (await import(pathToFileURL(out).href)).validators;
}

/**
 * The invalid payload typia must refuse: `bad`, except for strings, whose `bad` date
 * (2026-02-30) typia 12 accepts — its `date-time` check is a lexical pattern without the calendar —
 * so its refusal is checked on an hour of 25 instead (refused by the generated reader too).
 */
const typiaBad = (name, { valid, bad }) => (name === "strings" ? { ...valid, at: "2026-07-28T25:30:00Z" } : bad);

/** {@link generatedTools}' answers by output module path: one extraction per module and process. */
const generatedOnce = new Map();

/**
 * The generated descriptors of the payload tools, by tool name (extracted from the fixture, loaded
 * as a module), as the plugins ship them: with `share` (`share: false` for the inline code), each
 * shared unit declared once at the module's top, dependencies first, as `@typed-mcp/babel` does.
 * Extracted and generated once per `tmp` and `share` in a process (the readers, tools/call and
 * otel rows share it; a second `import()` of the module would answer the first one anyway).
 */
export function generatedTools(env, share = true) {
  const out = join(env.tmp, `bench-payload-readers${share ? "" : "-inline"}.mjs`);
  if (!generatedOnce.has(out)) generatedOnce.set(out, generate(env, share, out));
  return generatedOnce.get(out);
}

/** Extracts the payload tools, writes their generated module to `out` and imports it. */
async function generate({ root, createExtractor, generateTool }, share, out) {
  const file = join(root, "scripts/bench/fixture/src/payloads.ts");
  const ex = createExtractor({ cwd: root });
  const model = ex.extract(file, readFileSync(file, "utf8"));
  ex.close();
  if (model.diagnostics.length) throw new Error(JSON.stringify(model.diagnostics));
  const internal = pathToFileURL(join(root, "packages/typed-mcp/dist/internal.js")).href;
  const units = new Map();
  const entries = model.tools
    .map((t) => {
      const g = generateTool(t, { share });
      for (const u of g.units) units.set(u.id, `const ${u.name} = ${u.code};`);
      return `  ${JSON.stringify(t.name)}: ${g.code},`;
    })
    .join("\n");
  writeFileSync(
    out,
    `import * as __tmcp from ${JSON.stringify(internal)};\n${[...units.values()].join("\n")}\nexport default {\n${entries}\n};\n`,
  );
  return (await import(pathToFileURL(out).href)).default;
}

/**
 * Runs the reader benchmarks; returns per payload the ops/s of each contestant.
 * @param {{ root: string, tmp: string, quick: boolean, createExtractor: Function, generateTool: Function }} env
 */
export async function runReaders(env) {
  const helpers = await import(
    pathToFileURL(join(env.root, "packages/typed-mcp/dist/codegen-support/helpers.js")).href
  );
  const hand = handReaders(helpers);
  const generated = await generatedTools(env);
  const typia = await typiaValidators(env.root);
  const ajv = new Ajv({ strict: false, allErrors: false });
  addFormats(ajv, ["email", "uri", "date-time"]);
  const ctx = { signal: new AbortController().signal };
  const results = {};
  for (const [name, { valid, bad }] of Object.entries(payloads)) {
    const gen = generated[name];
    const validate = ajv.compile(gen.listing.inputSchema);
    const schema = zodSchemas[name];
    const genOk = gen.read(valid, ctx);
    const handOk = hand[name](valid);
    if (!Array.isArray(genOk) || !validate(valid) || !schema.safeParse(valid).success)
      throw new Error(`${name}: valid input refused`);
    if (JSON.stringify(handOk) !== JSON.stringify(genOk))
      throw new Error(`${name}: the hand-written reader's copy differs from the generated one`);
    const genBad = gen.read(bad, ctx);
    // The generated reader answers the whole §5 text; the hand-written ones the path it names (the
    // sentence is built only on failure, so it costs nothing on the valid input that is timed).
    const handBad = hand[name](bad);
    if (
      typeof genBad !== "string" ||
      !genBad.startsWith(`Argument '${handBad}' is not valid. `) ||
      schema.safeParse(bad).success
    )
      throw new Error(`${name}: invalid input accepted or reported elsewhere (${genBad})`);
    const tv = typia[name];
    const tBad = typiaBad(name, payloads[name]);
    const genTBad = gen.read(tBad, ctx);
    if (!tv(valid).success) throw new Error(`${name}: typia refuses the valid input`);
    if (tv(tBad).success || typeof genTBad !== "string")
      throw new Error(`${name}: typia or the generated reader accepts typia's invalid input (${genTBad})`);
    const contestants = [
      ["generated", () => gen.read(valid, ctx)],
      ["hand-written", () => hand[name](valid)],
      ["ajv", () => validate(valid)],
      ["zod", () => schema.safeParse(valid)],
      ["typia", () => tv(valid)],
    ];
    results[name] = await interleaved(contestants, env.quick);
  }
  return results;
}

/**
 * Where the time of the string-heavy read goes (issue 26 row "each format check ≤ 10 %"): the
 * generated reader of the strings payload and, side by side in the same rounds, each format
 * check alone on that payload's values (`readDateTime` on its two date-times, `isEmail`, `isUri`).
 * Returns the row text: each check's time per read over the whole read's time.
 * @param {{ root: string, quick: boolean }} env
 * @param {Record<string, { read: Function }>} generated the generated tools ({@link generatedTools}).
 */
export async function formatShares(env, generated) {
  const h = await import(pathToFileURL(join(env.root, "packages/typed-mcp/dist/codegen-support/helpers.js")).href);
  const v = payloads.strings.valid;
  const ctx = { signal: new AbortController().signal };
  const hz = await interleaved(
    [
      ["read", () => generated.strings.read(v, ctx)],
      ["date-time", () => [h.readDateTime(v.at), h.readDateTime(v.until)]],
      ["email", () => h.isEmail(v.email)],
      ["uri", () => h.isUri(v.homepage)],
    ],
    env.quick,
  );
  const share = (k) => `${((100 * hz.read) / hz[k]).toFixed(0)} %`;
  return `\`readDateTime\` ${share("date-time")} (two values, each building its one \`Date\`), e-mail ${share("email")}, URI ${share("uri")}`;
}

/**
 * Runs the contestants in interleaved rounds (each round one tinybench run of all of them, the
 * order rotated by one per round, so that no contestant always runs first or last on a shared
 * machine) and returns each one's median mean throughput (ops/s) over the rounds.
 * @param {[string, () => unknown][]} contestants
 * @param {boolean} quick one short round (for the bench's own test), else 5 rounds of 400 ms each.
 */
async function interleaved(contestants, quick) {
  const rounds = quick ? 1 : 5;
  const seen = Object.fromEntries(contestants.map(([n]) => [n, []]));
  for (let round = 0; round < rounds; round++) {
    const bench = new Bench({ time: quick ? 50 : 400, warmupTime: quick ? 10 : 100 });
    for (let i = 0; i < contestants.length; i++) bench.add(...contestants[(i + round) % contestants.length]);
    await bench.run();
    for (const t of bench.tasks) seen[t.name].push(t.result.throughput?.mean ?? t.result.hz);
  }
  return Object.fromEntries(Object.entries(seen).map(([n, xs]) => [n, median(xs)]));
}
