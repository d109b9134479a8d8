/**
 * The `typed-mcp/auth` entry: `auth: oauth({ issuer, audience, … })`, the OAuth 2.1 resource
 * server in front of `server.fetch` (docs/auth.md; implemented in auth/oauth.ts). Only servers
 * that import it bundle the auth code, jose and oauth4webapi (docs/runtimes.md "Bundle size").
 *
 * @packageDocumentation
 */
export * from "./auth/oauth.js";
