/**
 * Child-process side of test/babel: compiles every `src/*.ts` of a project with Babel the way a
 * user would — options from the project's own Babel config file (`babel.config.js` or
 * `.babelrc`), `@babel/preset-typescript` + `@typed-mcp/babel` loaded by name — writes
 * `out/<name>.js` with a source map beside it, prints one JSON line with the pids of its
 * TypeScript sidecars still running and the time it finished, and then just ends: nothing here
 * calls `process.exit`, so the test can check that the plugin lets the process end by itself.
 *
 * Usage: node runner.mjs <async|sync> <project root>
 */
import { readdirSync, readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { transformFileAsync, transformFileSync } from "@babel/core";

const [mode, root] = process.argv.slice(2);
const src = join(root, "src");
const out = join(root, "out");
mkdirSync(out, { recursive: true });
for (const name of readdirSync(src).filter((n) => n.endsWith(".ts"))) {
  const file = join(src, name);
  const options = { cwd: root, sourceMaps: true, sourceFileName: file };
  const result = mode === "sync" ? transformFileSync(file, options) : await transformFileAsync(file, options);
  const js = name.replace(/\.ts$/, ".js");
  writeFileSync(join(out, js), `${result.code}\n//# sourceMappingURL=${js}.map\n`);
  writeFileSync(join(out, `${js}.map`), JSON.stringify(result.map));
}

/** Live child processes of this process that run the TypeScript 7 sidecar (`tsc --api`). */
function sidecars() {
  const pids = [];
  for (const task of readdirSync("/proc/self/task")) {
    let children = "";
    try {
      children = readFileSync(`/proc/self/task/${task}/children`, "utf8");
    } catch {
      continue;
    }
    for (const pid of children.split(" ").filter(Boolean).map(Number)) {
      try {
        const args = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
        if (/typescript/.test(args[0] ?? "") && args.includes("--api")) pids.push(pid);
      } catch {
        /* gone meanwhile */
      }
    }
  }
  return pids;
}
process.stdout.write(`${JSON.stringify({ sidecars: sidecars(), finishedAt: Date.now() })}\n`);
