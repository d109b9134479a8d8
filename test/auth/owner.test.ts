/**
 * The owner a verified token stands for (docs/security.md "Callers"; auth/token.ts `authInfoOf`):
 * JWT — issuer + `sub` + `client_id`; introspection — issuer + (`sub` ?? `client_id`), each
 * tagged, so a user whose `sub` equals a machine client's `client_id` is not that client's caller
 * (found by a fresh attack: user "m2m" listed and cancelled client m2m's tasks).
 */
import { expect, it } from "vitest";
import { authInfoOf } from "../../packages/typed-mcp/dist/auth/token.js";

const settings = { issuer: new URL("https://as.example"), audiences: ["https://mcp.example/mcp"] } as never;
const ownerOf = (claims: Record<string, unknown>, via: "jwt" | "introspection") =>
  authInfoOf("t", claims, settings, via).extra!["owner"];

it("introspection: a user named like a client and that client are two owners", () => {
  const machine = ownerOf({ iss: "https://as.example", client_id: "m2m" }, "introspection");
  const user = ownerOf({ iss: "https://as.example", sub: "m2m", client_id: "app" }, "introspection");
  expect(machine).not.toBe(user);
  // One user is one owner whichever client introspected tokens come through (issuer + sub).
  expect(ownerOf({ iss: "https://as.example", sub: "alice", client_id: "app" }, "introspection")).toBe(
    ownerOf({ iss: "https://as.example", sub: "alice", client_id: "cli" }, "introspection"),
  );
});

it("JWT: two users of one client, and one user of two clients, are different owners", () => {
  const a = ownerOf({ iss: "https://as.example", sub: "alice", client_id: "app" }, "jwt");
  expect(a).not.toBe(ownerOf({ iss: "https://as.example", sub: "bob", client_id: "app" }, "jwt"));
  expect(a).not.toBe(ownerOf({ iss: "https://as.example", sub: "alice", client_id: "cli" }, "jwt"));
});
