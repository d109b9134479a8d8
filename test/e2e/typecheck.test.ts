/**
 * The playground is ordinary TypeScript: it type-checks with the TypeScript 7 compiler as
 * written (standard decorators, no experimentalDecorators), before the plugin touches it.
 */
import { execFile } from "node:child_process";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { expect, it } from "vitest";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

it("type-checks the playground with tsc (TypeScript 7)", async () => {
  const tsc = resolve(root, "node_modules/typescript/bin/tsc");
  const { stdout, stderr } = await promisify(execFile)(process.execPath, [
    tsc,
    "-p",
    resolve(root, "playground"),
  ]).catch((e: { stdout: string; stderr: string }) => e);
  expect(stdout + stderr).toBe("");
});
