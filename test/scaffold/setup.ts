/**
 * Global setup of `pnpm test:scaffold`: packs every publishable package once (scripts/pack-all.mjs,
 * what a registry would get) into a temp folder outside the workspace, and provides its path to
 * the tests as `packages`. The folder is removed afterwards.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    packages: string;
  }
}

export default function setup(project: TestProject): () => void {
  const root = fileURLToPath(new URL("../..", import.meta.url));
  const dir = mkdtempSync(join(tmpdir(), "typed-mcp-tarballs-"));
  execFileSync("node", [join(root, "scripts/pack-all.mjs"), dir], { stdio: ["ignore", "ignore", "inherit"] });
  project.provide("packages", dir);
  return () => rmSync(dir, { recursive: true, force: true });
}
