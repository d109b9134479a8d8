#!/usr/bin/env node
/**
 * The `typed-mcp` executable (spec §0): `typed-mcp list|check <file.ts…> [--project tsconfig.json]`
 * and `typed-mcp dev <file.ts…> --build <cmd> --start <cmd>` (./dev.ts).
 * Sets the exit code from {@link runCli} (0 ok, 1 diagnostics, 2 bad usage) and lets the
 * process end by itself, so that stdout is fully flushed.
 *
 * @module
 */
import { runDev } from "./dev.js";
import { runCli } from "./index.js";

const argv = process.argv.slice(2);
if (argv[0] === "dev") process.exitCode = await runDev(argv.slice(1));
else process.exitCode = runCli(argv);
