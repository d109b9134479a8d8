/**
 * Which OAuth scopes a JSON-RPC request needs (docs/auth.md "Scopes"): the `scopes` option of the
 * tool (`tools/call`), resource (`resources/read`, `resources/subscribe`) or prompt
 * (`prompts/get`) it names, and the `tools/list` filter of `auth.hideUnauthorizedTools`.
 *
 * @module
 */
import type { AuthInfo } from "@modelcontextprotocol/server";

/** The scopes the registered tools, resources and prompts need (the registry answers). */
export interface ScopeSource {
  /** The `scopes` of the tool `name`; `undefined` when unknown or none. */
  toolScopes(name: string): readonly string[] | undefined;
  /** The `scopes` of the resource at `uri` (a fixed URI, else the first matching template). */
  resourceScopes(uri: string): readonly string[] | undefined;
  /** The `scopes` of the prompt `name`. */
  promptScopes(name: string): readonly string[] | undefined;
  /** Every scope any registration names, in registration order, without repeats. */
  allScopes(): string[];
}

/** What one request needs: how the 403 names it, and its scopes. */
export interface ScopeNeed {
  /** E.g. `The tool 'delete_note'`, `The resource`, `The prompt 'summary'` (client data is never echoed). */
  what: string;
  scopes: readonly string[];
}

/**
 * The needs of a parsed JSON-RPC body: one message or a batch (2025-03-26), read one level deep
 * (no recursion on client data). Messages that are not requests for a scoped tool, resource or
 * prompt need nothing; unknown names are left to the SDK's answer.
 */
export function requiredScopes(body: unknown, source: ScopeSource): ScopeNeed[] {
  const messages = Array.isArray(body) ? body : [body];
  const needs: ScopeNeed[] = [];
  for (const message of messages) {
    const need = needOf(message, source);
    if (need !== undefined) needs.push(need);
  }
  return needs;
}

function needOf(message: unknown, source: ScopeSource): ScopeNeed | undefined {
  if (typeof message !== "object" || message === null) return undefined;
  const { method, params } = message as { method?: unknown; params?: unknown };
  if (typeof params !== "object" || params === null) return undefined;
  const { name, uri } = params as { name?: unknown; uri?: unknown };
  let scopes: readonly string[] | undefined;
  let what: string;
  if (method === "tools/call" && typeof name === "string") {
    scopes = source.toolScopes(name);
    what = `The tool '${name}'`;
  } else if ((method === "resources/read" || method === "resources/subscribe") && typeof uri === "string") {
    scopes = source.resourceScopes(uri);
    what = "The resource";
  } else if (method === "prompts/get" && typeof name === "string") {
    scopes = source.promptScopes(name);
    what = `The prompt '${name}'`;
  } else {
    return undefined;
  }
  return scopes === undefined || scopes.length === 0 ? undefined : { what, scopes };
}

/**
 * The first need whose scopes `authInfo` lacks: its name, the missing scopes, and all its
 * scopes (for the challenge's `scope`, MCP 2025-11-25 "Scope challenge handling"); `undefined`
 * when every need is met.
 */
export function missingScopes(
  needs: readonly ScopeNeed[],
  authInfo: AuthInfo,
): { what: string; scopes: string[]; required: readonly string[] } | undefined {
  const granted = new Set(authInfo.scopes);
  for (const need of needs) {
    const missing = need.scopes.filter((s) => !granted.has(s));
    if (missing.length > 0) return { what: need.what, scopes: missing, required: need.scopes };
  }
  return undefined;
}

/** Whether a caller with `authInfo` may call something that needs `scopes` (no scopes: yes). */
export function mayUse(scopes: readonly string[] | undefined, authInfo: AuthInfo): boolean {
  return scopes === undefined || scopes.every((s) => authInfo.scopes.includes(s));
}
