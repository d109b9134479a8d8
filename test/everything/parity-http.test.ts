/**
 * The everything port against the original over Streamable HTTP (protocol 2025-11-25): the
 * parity block of parity-suite.ts, in a file of its own so that it runs beside the stdio block
 * of parity.test.ts (which says what is compared and holds the contract-only checks).
 */
import { beforeAll } from "vitest";
import { buildPort } from "./servers.ts";
import { describeParity } from "./parity-suite.ts";

beforeAll(async () => {
  await buildPort();
}, 120_000);

describeParity("http");
