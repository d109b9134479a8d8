/**
 * The client's answers to server→client requests on 2025-era HTTP behind a balancer
 * (docs/scaling.md "Server→client requests"): `ctx.elicit` / `sample` / `listRoots` in a
 * `tools/call` on instance A go out on that call's SSE response stream, which A holds open; the
 * client answers with a new POST, which may reach instance B. With a shared store, B publishes the
 * answer (keyed by the request's owner and the id's block) and answers HTTP 202; A hands it to
 * the SDK instance whose request waits for it.
 *
 * Each SDK instance of such a request numbers its server→client requests from a random block of
 * 1,024 ids (the SDK counts from 0 per instance, so ids would collide across calls and instances);
 * `floor(id / 1024)` names the block, hashed with the owner into the key. Only requests with an
 * owner (a token or an `Mcp-Session-Id`, caller.ts) take part: an anonymous answer cannot be told
 * apart from another client's. The SDK internals used are protocol/sdk-patches-store.ts's.
 *
 * @module
 */
import type { AuthInfo, Server } from "@modelcontextprotocol/server";
import { ANONYMOUS_OWNER, callerOf } from "../transports/caller.js";
import type { CallerKey } from "../transports/caller.js";
import { decodeSession } from "../protocol/session.js";
import { adoptClientCapabilities, deliverResponse, numberRequestsFrom } from "../protocol/sdk-patches-store.js";
import { digest } from "./keys.js";
import { storeUnavailableResponse } from "./shared.js";
import type { SharedInstance } from "./shared.js";

/** Ids per SDK instance's block. */
const BLOCK = 1024;

/** A JSON-RPC response (result or error) with a numeric id. */
type Answer = { jsonrpc: "2.0"; id: number; result?: unknown; error?: unknown };

/** The answers of one shared instance: the SDK instances waiting here, by hashed (owner, block). */
class Relay {
  readonly #waiting = new Map<string, Server>();

  constructor(readonly shared: SharedInstance) {
    shared.on("client-answer", (message) => {
      const key = message["key"];
      const answer = message["answer"];
      if (typeof key !== "string" || !isAnswer(answer)) return;
      const sdk = this.#waiting.get(key);
      if (sdk !== undefined) deliverResponse(sdk, answer);
    });
  }

  /**
   * Makes `sdk` (one 2025-era HTTP request of `owner`) number its requests from a random block,
   * know the client capabilities its session negotiated, and receive its answers from any
   * instance until it closes.
   */
  async track(sdk: Server, owner: string, request: Request | undefined): Promise<void> {
    const block = crypto.getRandomValues(new Uint32Array(1))[0]! * 2 + 1;
    numberRequestsFrom(sdk, block * BLOCK);
    adoptClientCapabilities(sdk, decodeSession(request?.headers.get("mcp-session-id"))?.clientCapabilities);
    const key = await blockKey(owner, block);
    this.#waiting.set(key, sdk);
    const previous = sdk.onclose;
    sdk.onclose = () => {
      if (this.#waiting.get(key) === sdk) this.#waiting.delete(key);
      previous?.();
    };
  }
}

const RELAYS = new WeakMap<SharedInstance, Relay>();

/** The relay of `shared` (made on first use, listening on its `client-answer` channel). */
function relayOf(shared: SharedInstance): Relay {
  let relay = RELAYS.get(shared);
  if (relay === undefined) RELAYS.set(shared, (relay = new Relay(shared)));
  return relay;
}

/**
 * Whether the server→client requests of `sdk` (serving one 2025-era HTTP request of `owner`) can
 * be answered through any instance; when so, `sdk` is made to take part (see the module comment).
 */
export function relayAnswers(
  shared: SharedInstance | undefined,
  sdk: Server,
  owner: string,
  request: Request | undefined,
): boolean {
  if (shared === undefined || owner === ANONYMOUS_OWNER) return false;
  void relayOf(shared).track(sdk, owner, request);
  return true;
}

/**
 * When `body` is the client's answer (a JSON-RPC response, or a batch of them) to a server→client
 * request and its caller has an owner: publishes each on the store and resolves HTTP 202 (as the
 * Streamable HTTP transport answers a response POST); otherwise `undefined` (the SDK serves it).
 * A store failure is HTTP 503 with a JSON-RPC `-32603` naming the store.
 */
export async function relayClientAnswer(
  shared: SharedInstance | undefined,
  request: Request,
  body: unknown,
  authInfo: AuthInfo | undefined,
  callerKey: CallerKey | undefined,
): Promise<Response | undefined> {
  const answers = Array.isArray(body) ? body : [body];
  if (shared === undefined || answers.length === 0 || !answers.every(isAnswer)) return undefined;
  const owner = callerOf({ http: { authInfo, req: request } } as never, undefined, callerKey).owner;
  if (owner === ANONYMOUS_OWNER) return undefined;
  relayOf(shared);
  try {
    for (const answer of answers)
      await shared.publish("client-answer", { key: await blockKey(owner, Math.floor(answer.id / BLOCK)), answer });
  } catch (error) {
    return storeUnavailableResponse(error);
  }
  return new Response(null, { status: 202 });
}

function isAnswer(value: unknown): value is Answer {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const m = value as Record<string, unknown>;
  return m["method"] === undefined && Number.isSafeInteger(m["id"]) && ("result" in m || "error" in m);
}

function blockKey(owner: string, block: number): Promise<string> {
  return digest(["answers", owner, String(block)]);
}
