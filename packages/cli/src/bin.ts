#!/usr/bin/env node
/**
 * The `typed-mcp` executable (spec §0): `typed-mcp list|check <file.ts…> [--project tsconfig.json]`.
 * Sets the exit code from {@link runCli} (0 ok, 1 diagnostics, 2 bad usage) and lets the
 * process end by itself, so that stdout is fully flushed.
 *
 * @module
 */
import { runCli } from "./index.js";

process.exitCode = runCli(process.argv.slice(2));
