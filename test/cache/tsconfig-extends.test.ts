/**
 * The cache key's tsconfig part (docs/bundlers.md "Watch mode and cache": the tsconfig and the
 * configs it extends) reads tsconfig files as JSONC: a commented-out `extends` (line or block
 * comment) is no `extends`, an `extends` array names every config, and trailing commas are
 * allowed. Changing a config that is really extended changes the key (a miss); changing one
 * that is only named in a comment does not (still a hit). Each build is a fresh {@link Driver}
 * (a new process: nothing in memory), so a hit is the disk cache's.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { Driver, type DriverEvent } from "../../packages/transform/dist/index.js";

const root = mkdtempSync(join(tmpdir(), "typed-mcp-extends-")).replace(/\\/g, "/");
afterAll(() => rmSync(root, { recursive: true, force: true }));

const write = (name: string, text: string) => writeFileSync(join(root, name), text);
write(
  "tsconfig.json",
  `{
  // "extends": "./other.json",
  /* "extends": "./old.json",
     an earlier setup */
  "extends": ["./base.json", "./strict"],
  "compilerOptions": { "strict": true, },
}
`,
);
write("base.json", `{ "compilerOptions": { "target": "es2022" } }`);
write("strict.json", `{ "extends": "./base.json", /* again */ "compilerOptions": { "noImplicitAny": true } }`);
write("other.json", `{ "compilerOptions": {} }`);
write("old.json", `{ "compilerOptions": {} }`);

const file = `${root}/src/tools.ts`;
const code = "export const x = 1;\n";

/** One cold build of the module (a fresh driver over the same cache directory): `cache-hit` or `cache-miss`. */
function coldBuild(): string | undefined {
  const events: DriverEvent[] = [];
  const driver = new Driver({
    cwd: root,
    root: () => root,
    tsconfig: join(root, "tsconfig.json"),
    cache: { dir: ".cache" },
    onEvent: (e) => events.push(e),
  });
  try {
    driver.model(file, code);
  } finally {
    driver.close();
  }
  return events.find((e) => e.type === "cache-hit" || e.type === "cache-miss")?.type;
}

it("hits while only commented-out configs change, misses when a config the extends array names changes", () => {
  expect(coldBuild()).toBe("cache-miss");
  expect(coldBuild()).toBe("cache-hit");

  write("other.json", `{ "compilerOptions": { "strict": false } }`);
  write("old.json", `{ "compilerOptions": { "target": "es5" } }`);
  expect(coldBuild()).toBe("cache-hit");

  write("strict.json", `{ "extends": "./base.json", "compilerOptions": { "noImplicitAny": false } }`);
  expect(coldBuild()).toBe("cache-miss");
  expect(coldBuild()).toBe("cache-hit");

  write("base.json", `{ "compilerOptions": { "target": "es2023" } }`);
  expect(coldBuild()).toBe("cache-miss");
});
