/**
 * `pnpm pack:all` (scripts/pack-all.mjs) gives every publishable package a tarball with exactly
 * what a registry would get (issue 11): `workspace:` ranges rewritten to the workspace versions,
 * every `exports` target and its `types` inside the tarball, a README and a LICENSE; and the two
 * registry linters report no error — publint (strict: warnings count as errors) and
 * @arethetypeswrong (the CLI's library and exit rule, profile `esm-only`: the packages are ES modules only, so the `node10`
 * and CommonJS-`require` resolutions are out of scope).
 */
import { execFile, execFileSync } from "node:child_process";
import { promisify } from "node:util";
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { publint } from "publint";
import { formatMessage } from "publint/utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const root = fileURLToPath(new URL("../..", import.meta.url));
const workspaceVersions = new Map<string, string>();
for (const dir of readdirSync(join(root, "packages"))) {
  const m = JSON.parse(readFileSync(join(root, "packages", dir, "package.json"), "utf8")) as {
    name: string;
    version: string;
  };
  workspaceVersions.set(m.name, m.version);
}
const PUBLISHABLE = [
  "typed-mcp",
  "@typed-mcp/model",
  "@typed-mcp/codegen",
  "@typed-mcp/extract",
  "@typed-mcp/transform",
  "@typed-mcp/unplugin",
  "@typed-mcp/babel",
  "@typed-mcp/cli",
  "create-typed-mcp",
];

let out: string;
let tarballs: string[];
beforeAll(() => {
  out = mkdtempSync(join(tmpdir(), "typed-mcp-pack-"));
  tarballs = execFileSync("node", [join(root, "scripts/pack-all.mjs"), out], { encoding: "utf8" })
    .trim()
    .split("\n");
}, 120_000);
afterAll(() => rmSync(out, { recursive: true, force: true }));

function tarFiles(tgz: string): string[] {
  return execFileSync("tar", ["-tzf", tgz], { encoding: "utf8" })
    .trim()
    .split("\n")
    .map((f) => f.replace(/^package\//, ""));
}
function tarManifest(tgz: string): Record<string, any> {
  return JSON.parse(execFileSync("tar", ["-xzOf", tgz, "package/package.json"], { encoding: "utf8" }));
}
/** Every file path an `exports` map (or `bin`) points at. */
function targets(value: unknown): string[] {
  if (typeof value === "string") return [value.replace(/^\.\//, "")];
  if (value && typeof value === "object") return Object.values(value).flatMap(targets);
  return [];
}

describe("pnpm pack:all", () => {
  it("packs every publishable package, and only those", () => {
    expect(tarballs.map((t) => tarManifest(t).name).sort()).toEqual([...PUBLISHABLE].sort());
  });

  it("rewrites workspace: ranges to the workspace's exact versions", () => {
    for (const t of tarballs) {
      const m = tarManifest(t);
      for (const field of ["dependencies", "peerDependencies", "optionalDependencies"]) {
        for (const [name, range] of Object.entries((m[field] ?? {}) as Record<string, string>)) {
          expect(range, `${m.name} ${field}.${name}`).not.toMatch(/^workspace:/);
          if (workspaceVersions.has(name))
            expect(range, `${m.name} ${field}.${name}`).toBe(workspaceVersions.get(name));
        }
      }
    }
  });

  it("ships README.md, LICENSE, package.json and every exports/bin target (with its types)", () => {
    for (const t of tarballs) {
      const m = tarManifest(t);
      const files = tarFiles(t);
      expect(files, m.name).toEqual(expect.arrayContaining(["README.md", "LICENSE", "package.json"]));
      expect(m.license, m.name).toBe("MIT");
      const wanted = [...targets(m.exports), ...targets(m.bin)];
      expect(wanted.length, `${m.name} has exports or bin`).toBeGreaterThan(0);
      for (const f of wanted) expect(files, `${m.name} → ${f}`).toContain(f);
      // No test, source-map-only or tsbuildinfo leftovers from the workspace.
      expect(
        files.filter((f) => f.endsWith(".tsbuildinfo") || f.startsWith("src/") || f.startsWith("node_modules/")),
        m.name,
      ).toEqual([]);
    }
  });

  it("publint (strict) reports no error or warning", async () => {
    for (const t of tarballs) {
      const buf = readFileSync(t);
      const tarball = buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength) as ArrayBuffer;
      const { messages, pkg } = await publint({ pack: { tarball }, level: "warning", strict: true });
      expect(messages.map((msg) => `${tarManifest(t).name}: ${formatMessage(msg, pkg) ?? msg.code}`)).toEqual([]);
    }
  });

  it("@arethetypeswrong (profile esm-only) finds no problem", async () => {
    // Every tarball in one process (attw.mjs: the CLI's library, exit rule and table).
    const { stdout } = await run("node", [join(import.meta.dirname, "attw.mjs"), ...tarballs], {
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024,
      env: { ...process.env, FORCE_COLOR: "0" },
    });
    const results = (JSON.parse(stdout) as { tarball: string; problems: string }[]).map((r) => ({
      name: tarManifest(r.tarball).name,
      problems: r.problems,
    }));
    expect(results).toEqual(tarballs.map((t) => ({ name: tarManifest(t).name, problems: "" })));
  }, 120_000);
});
