/**
 * Drivers shared per process, for hosts that create their plugin (or loader) anew for every file
 * or compilation and have no "build finished" hook: `@typed-mcp/babel` and the webpack-loader
 * entry (`@typed-mcp/unplugin/loader`, run by Turbopack, Rspack and webpack). One {@link Driver}
 * per working directory and option set, so that one warm TypeScript sidecar serves every file of
 * the process; it polls the files earlier extractions consulted (these hosts report no changes to
 * a plugin), ends after `idleTimeoutMs` without a file, and when the process exits.
 *
 * @packageDocumentation
 */
import { resolve } from "node:path";
import type { TypeScriptChoice } from "@typed-mcp/extract";
import type { Profile } from "@typed-mcp/codegen";
import type { WarningCode } from "@typed-mcp/model";
import { Driver, type DriverEvent } from "./driver.js";

/** The plugin options a shared driver is made from (the `Driver` options of the same names). */
export interface SharedDriverOptions {
  /** The fixed tsconfig.json, absolute or relative to `cwd`; default: the nearest above each file. */
  tsconfig?: string;
  typescript?: TypeScriptChoice;
  cache?: boolean | { dir?: string };
  profile?: Profile;
  warnings?: Partial<Record<WarningCode, boolean>>;
  /** Milliseconds without a file after which the sidecar is ended. */
  idleTimeoutMs: number;
  /** Called for what the driver does; not part of the key (the first caller's listener is kept). */
  onEvent?: (event: DriverEvent) => void;
}

const drivers = new Map<string, Driver>();

/**
 * The process's driver for working directory `cwd` (the project root: Babel's `cwd`, a loader's
 * `rootContext`) and `options`, created on first use.
 * @throws TypeError for an unknown `profile` (the `Driver` constructor's check).
 */
export function sharedDriver(cwd: string, options: SharedDriverOptions): Driver {
  const tsconfig = options.tsconfig === undefined ? undefined : resolve(cwd, options.tsconfig);
  const { typescript, cache, profile, warnings, idleTimeoutMs, onEvent } = options;
  const key = JSON.stringify([tsconfig, cwd, typescript, cache, idleTimeoutMs, profile, warnings]);
  let driver = drivers.get(key);
  if (!driver) {
    driver = new Driver({
      tsconfig,
      typescript,
      cache,
      cwd,
      idleTimeoutMs,
      pollChanges: true,
      profile,
      warnings,
      onEvent,
    });
    drivers.set(key, driver);
  }
  return driver;
}

/**
 * Ends every sidecar of the shared drivers (idempotent); the next file starts a new one. Each
 * sidecar also ends by itself `idleTimeoutMs` after the last file and when the process exits.
 */
export function closeSharedDrivers(): void {
  for (const driver of drivers.values()) driver.close();
}
