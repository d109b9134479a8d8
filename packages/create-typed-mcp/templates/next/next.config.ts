// next.config.ts — withTypedMcp adds the typed-mcp build step for Turbopack (`next dev`, `next build`)
// and for webpack (`--webpack`): tool schemas are generated from the TypeScript types at build time.
import type { NextConfig } from "next";
import { withTypedMcp } from "@typed-mcp/unplugin/next";

const nextConfig: NextConfig = {};

export default withTypedMcp(nextConfig);
