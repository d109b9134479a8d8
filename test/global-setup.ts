/**
 * Vitest global setup: builds every package (the root `build` script, `tsc -b`, incremental)
 * before any test file runs. Tests import the packages as a user would — their built `dist/` —
 * so a stale `dist/` could otherwise make the suite test old code. When everything is up to date
 * this costs well under a second.
 */
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

export default function setup(): void {
  const root = fileURLToPath(new URL("..", import.meta.url));
  try {
    execFileSync("npm", ["run", "--silent", "build"], {
      cwd: root,
      stdio: ["ignore", "pipe", "pipe"],
      encoding: "utf8",
    });
  } catch (e) {
    const err = e as { stdout?: string; stderr?: string };
    throw new Error(
      `The packages do not build (npm run build), so the suite would test stale code:\n${err.stdout ?? ""}${err.stderr ?? ""}`,
    );
  }
}
