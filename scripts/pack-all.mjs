#!/usr/bin/env node
/**
 * `pnpm pack:all`: packs every publishable package (each `packages/*` whose package.json is not
 * `private`) into `dist-packages/<name>-<version>.tgz` with `pnpm pack`, which is what a registry
 * would get: the package's `files`, README and LICENSE, and `workspace:` ranges rewritten to the
 * workspace versions. Run after `pnpm build` (the root script does both). Prints one tarball
 * path per line. `node scripts/pack-all.mjs DIR` packs into DIR instead (the tests use a temp dir).
 *
 * Install the tarballs in a project outside the workspace with plain npm, e.g.
 * `npm create typed-mcp@latest my-server -- --packages /path/to/dist-packages` or
 * `npm i /path/to/dist-packages/*.tgz`.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { delimiter, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const out = resolve(process.argv[2] ?? join(root, "dist-packages"));
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

/** The pnpm version the workspace pins (the root package.json's `packageManager`, `pnpm@X.Y.Z`). */
const PNPM = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).packageManager.replace(/^pnpm@/, "");
/**
 * The pinned pnpm's CLI file when one is already on PATH (`npm test` runs the suite under
 * `npx -y pnpm@…`, which puts its `node_modules/.bin` first), else undefined. Found by reading
 * `node_modules/pnpm/package.json` next to each PATH entry: no process is started to ask.
 */
function pinnedPnpmOnPath() {
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    if (!dir.endsWith(join("node_modules", ".bin"))) continue;
    const pnpm = join(dir, "..", "pnpm");
    const manifest = join(pnpm, "package.json");
    if (existsSync(manifest) && JSON.parse(readFileSync(manifest, "utf8")).version === PNPM)
      return join(pnpm, "bin", "pnpm.cjs");
  }
  return undefined;
}
const cli = pinnedPnpmOnPath();
// npx costs ≈ 3.5 s more than the pnpm it starts (it resolves the package first): used only when no pinned pnpm is on PATH.
const [command, prefix] = cli ? [process.execPath, [cli]] : ["npx", ["-y", `pnpm@${PNPM}`]];
// One recursive `pnpm pack` (private packages are skipped by pnpm itself): ≈ 4 s instead of ≈ 3 s per package.
execFileSync(command, [...prefix, "-r", "--filter", "./packages/*", "pack", "--pack-destination", out], {
  cwd: root,
  stdio: ["ignore", "ignore", "inherit"],
  env: { ...process.env, npm_config_loglevel: "error" },
});
for (const dir of readdirSync(join(root, "packages")).sort()) {
  const manifest = JSON.parse(readFileSync(join(root, "packages", dir, "package.json"), "utf8"));
  if (manifest.private) continue;
  console.log(join(out, `${manifest.name.replace(/^@/, "").replace("/", "-")}-${manifest.version}.tgz`));
}
