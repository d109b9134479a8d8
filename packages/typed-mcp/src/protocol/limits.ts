/**
 * The runtime's size and depth limits on client data (docs/security.md "Limits"): the options,
 * their defaults and checks, and the bound check the `tools/call` pipeline runs on the raw
 * arguments before the SDK's parse and the generated reader (tool-call.ts, sdk-patches.ts
 * `patchRawMessages`).
 *
 * @module
 */
import { invalid, pathKey } from "../codegen-support/argument-errors.js";

/** The limit options of `McpServerOptions` (docs/security.md "Limits"). */
export interface LimitOptions {
  /**
   * Largest HTTP request body read, in bytes (a positive finite number; default 4 MiB =
   * 4,194,304). Larger bodies are answered HTTP 413 with JSON-RPC error `-32000`, by
   * `McpServer.fetch` and by `serveHttp` alike (docs/security.md "Limits").
   */
  maxRequestBodySize?: number;
  /**
   * Deepest nesting of arrays and objects accepted in a `tools/call`'s `arguments`, an
   * argument's own value being level 1 (a positive integer; default 64). Deeper arguments are
   * refused before the reader runs with `Argument '<name>' is not valid. Expected at most <n>
   * levels of nesting.` naming the top-level argument (spec §5; docs/security.md "Limits").
   */
  maxArgumentDepth?: number;
  /**
   * Most JSON values (objects, arrays and scalars, each counting 1) accepted in a
   * `tools/call`'s `arguments` together (a positive integer; default 100,000). Past it the call
   * is refused like `maxArgumentDepth`, naming the argument being read when it was crossed:
   * `Expected at most <n> values in all arguments together.`
   */
  maxArgumentValues?: number;
}

/** The default of {@link LimitOptions.maxRequestBodySize}: 4 MiB, the SDK's own default. */
const DEFAULT_MAX_REQUEST_BODY_SIZE = 4 * 1024 * 1024;

/**
 * Checks the {@link LimitOptions} and applies their defaults.
 * @throws RangeError when `maxRequestBodySize` is not a positive finite number, or
 *   `maxArgumentDepth` / `maxArgumentValues` not a positive integer (naming the option and value).
 */
export function resolveLimits(options: LimitOptions): { maxRequestBodySize: number; arguments: ArgumentLimits } {
  const { maxRequestBodySize, maxArgumentDepth, maxArgumentValues } = options;
  if (maxRequestBodySize !== undefined && !(Number.isFinite(maxRequestBodySize) && maxRequestBodySize > 0)) {
    throw new RangeError(`maxRequestBodySize must be a positive number of bytes, got ${String(maxRequestBodySize)}`);
  }
  for (const [name, value] of [
    ["maxArgumentDepth", maxArgumentDepth],
    ["maxArgumentValues", maxArgumentValues],
  ] as const) {
    if (value !== undefined && !(Number.isSafeInteger(value) && value > 0))
      throw new RangeError(`${name} must be a positive integer, got ${String(value)}`);
  }
  return {
    maxRequestBodySize: maxRequestBodySize ?? DEFAULT_MAX_REQUEST_BODY_SIZE,
    arguments: {
      maxDepth: maxArgumentDepth ?? DEFAULT_ARGUMENT_LIMITS.maxDepth,
      maxValues: maxArgumentValues ?? DEFAULT_ARGUMENT_LIMITS.maxValues,
    },
  };
}

/**
 * Bounds on the `arguments` of one `tools/call`, checked before the SDK's parse and the
 * generated reader (`McpServerOptions.maxArgumentDepth` / `maxArgumentValues`;
 * docs/security.md "Limits").
 */
export interface ArgumentLimits {
  /** Deepest nesting of arrays and objects, an argument's own value being level 1. Default {@link DEFAULT_ARGUMENT_LIMITS}. */
  readonly maxDepth: number;
  /** Most JSON values in all arguments together (every object, array, string, number, boolean, null counts 1). */
  readonly maxValues: number;
}

/**
 * The defaults of {@link ArgumentLimits}: depth 64 (a TypeScript parameter type nests far less:
 * the reader never looks deeper than the type), 100,000 values (a 4 MiB body can hold ~1 million).
 */
const DEFAULT_ARGUMENT_LIMITS: ArgumentLimits = { maxDepth: 64, maxValues: 100_000 };

/**
 * Checks `args` (a raw `arguments` object, as `JSON.parse` made it) against `limits` without
 * recursion (an explicit stack), in argument order. Returns `undefined` when within the bounds,
 * else the whole §5 argument error naming the top-level argument being walked when a bound was
 * crossed, e.g. `Argument 'a' is not valid. Expected at most 64 levels of nesting.` (the call is
 * answered with it). Own `__proto__` keys are read as data.
 */
export function checkArgumentBounds(args: Record<string, unknown>, limits: ArgumentLimits): string | undefined {
  const { maxDepth, maxValues } = limits;
  // Two parallel stacks (value, depth), reused for every argument: no allocation per value walked.
  const pending: unknown[] = [];
  const depths: number[] = [];
  let values = 0;
  for (const key of Object.keys(args)) {
    pending.push(ownValue(args, key));
    depths.push(1);
    while (pending.length > 0) {
      const value = pending.pop();
      const depth = depths.pop()!;
      if (++values > maxValues) return overBound(key, "values", limits);
      if (depth > maxDepth) return overBound(key, "depth", limits);
      if (typeof value !== "object" || value === null) continue;
      if (Array.isArray(value)) {
        if (values + value.length > maxValues) return overBound(key, "values", limits);
        for (let i = 0; i < value.length; i++) {
          pending.push(value[i]);
          depths.push(depth + 1);
        }
      } else {
        const keys = Object.keys(value);
        if (values + keys.length > maxValues) return overBound(key, "values", limits);
        for (let i = 0; i < keys.length; i++) {
          pending.push(ownValue(value as Record<string, unknown>, keys[i]!));
          depths.push(depth + 1);
        }
      }
    }
  }
  return undefined;
}

/** `obj[key]`, reading an own `__proto__` key as the data property it is. */
function ownValue(obj: Record<string, unknown>, key: string): unknown {
  return key === "__proto__" ? Object.getOwnPropertyDescriptor(obj, key)?.value : obj[key];
}

/**
 * The §5 argument error for an argument over a bound: the argument's safe path
 * (argument-errors.ts `pathKey`, cut at 200 code units by `invalid`) and the second sentence naming the bound,
 * `Expected at most <n> levels of nesting.` or `Expected at most <n> values in all arguments
 * together.` (docs/security.md "Limits").
 */
function overBound(name: string, bound: "depth" | "values", limits: ArgumentLimits): string {
  const sentence =
    bound === "depth"
      ? `Expected at most ${limits.maxDepth} levels of nesting.`
      : `Expected at most ${limits.maxValues} values in all arguments together.`;
  return invalid(pathKey(name, true), sentence);
}

/**
 * Deepest nesting of a JSON-RPC message outside `tools/call` arguments (docs/security.md
 * "Limits"): the message object is level 1. MCP's own messages nest a few levels (`params`,
 * `_meta`, capabilities); the bound keeps the SDK's parse and everything after it from recursing
 * on client data (a 5,000-level `capabilities.experimental` overflowed the stack). Arguments have
 * their own bound, `maxArgumentDepth` ({@link checkArgumentBounds}).
 */
const MAX_MESSAGE_DEPTH = 64;

/**
 * Whether `message` (one JSON-RPC message as parsed) nests deeper than {@link MAX_MESSAGE_DEPTH}
 * levels, not counting the `params.arguments` of a `tools/call` (bounded by
 * {@link checkArgumentBounds}, answered with the §5 error). An explicit stack; each value once.
 */
export function nestsTooDeep(message: unknown): boolean {
  const skip =
    typeof message === "object" && message !== null && (message as { method?: unknown }).method === "tools/call"
      ? (message as { params?: { arguments?: unknown } }).params?.arguments
      : undefined;
  const pending: unknown[] = [message];
  const depths: number[] = [1];
  while (pending.length > 0) {
    const value = pending.pop();
    const depth = depths.pop()!;
    if (typeof value !== "object" || value === null || value === skip) continue;
    if (depth > MAX_MESSAGE_DEPTH) return true;
    for (const child of Array.isArray(value) ? value : Object.values(value)) {
      if (typeof child === "object" && child !== null) {
        pending.push(child);
        depths.push(depth + 1);
      }
    }
  }
  return false;
}

/** The JSON-RPC answer to a message that {@link nestsTooDeep}: `-32600` Invalid Request with its id (a string or number), else `null` (JSON-RPC 2.0 §5). */
export function tooDeepAnswer(message: unknown): {
  jsonrpc: "2.0";
  id: string | number | null;
  error: { code: number; message: string };
} {
  const id = (message as { id?: unknown } | null)?.id;
  return {
    jsonrpc: "2.0",
    id: typeof id === "string" || typeof id === "number" ? id : null,
    error: { code: -32600, message: `Invalid Request: the message is nested deeper than ${MAX_MESSAGE_DEPTH} levels` },
  };
}
