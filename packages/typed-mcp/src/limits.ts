/**
 * The runtime's size and depth limits on client data (docs/security.md "Limits"): the options,
 * their defaults and checks, and the bound check the `tools/call` pipeline runs on the raw
 * arguments before the SDK's parse and the generated reader (tool-call.ts, sdk-patches.ts
 * `captureToolArguments`).
 *
 * @module
 */

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
   * refused before the reader runs with `Argument '<name>' is not valid.` naming the top-level
   * argument (spec §5; docs/security.md "Limits").
   */
  maxArgumentDepth?: number;
  /**
   * Most JSON values (objects, arrays and scalars, each counting 1) accepted in a
   * `tools/call`'s `arguments` together (a positive integer; default 100,000). Past it the call
   * is refused like `maxArgumentDepth`, naming the argument being read when it was crossed.
   */
  maxArgumentValues?: number;
}

/** The default of {@link LimitOptions.maxRequestBodySize}: 4 MiB, the SDK's own default. */
export const DEFAULT_MAX_REQUEST_BODY_SIZE = 4 * 1024 * 1024;

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
  for (const [name, value] of [["maxArgumentDepth", maxArgumentDepth], ["maxArgumentValues", maxArgumentValues]] as const) {
    if (value !== undefined && !(Number.isSafeInteger(value) && value > 0)) throw new RangeError(`${name} must be a positive integer, got ${String(value)}`);
  }
  return {
    maxRequestBodySize: maxRequestBodySize ?? DEFAULT_MAX_REQUEST_BODY_SIZE,
    arguments: { maxDepth: maxArgumentDepth ?? DEFAULT_ARGUMENT_LIMITS.maxDepth, maxValues: maxArgumentValues ?? DEFAULT_ARGUMENT_LIMITS.maxValues },
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
export const DEFAULT_ARGUMENT_LIMITS: ArgumentLimits = { maxDepth: 64, maxValues: 100_000 };

/**
 * Checks `args` (a raw `arguments` object, as `JSON.parse` made it) against `limits` without
 * recursion (an explicit stack), in argument order. Returns `undefined` when within the bounds,
 * else the §5 path of the top-level argument being walked when a bound was crossed (the call is
 * then answered `Argument '<path>' is not valid.`). Own `__proto__` keys are read as data.
 */
export function checkArgumentBounds(args: Record<string, unknown>, limits: ArgumentLimits): string | undefined {
  let values = 0;
  for (const key of Object.keys(args)) {
    const stack: Array<{ value: unknown; depth: number }> = [{ value: ownValue(args, key), depth: 1 }];
    while (stack.length > 0) {
      const { value, depth } = stack.pop()!;
      if (++values > limits.maxValues || depth > limits.maxDepth) return argumentPath(key);
      if (typeof value !== "object" || value === null) continue;
      if (Array.isArray(value)) {
        if (values + value.length > limits.maxValues) return argumentPath(key);
        for (const item of value) stack.push({ value: item, depth: depth + 1 });
      } else {
        const keys = Object.keys(value);
        if (values + keys.length > limits.maxValues) return argumentPath(key);
        for (const k of keys) stack.push({ value: ownValue(value as Record<string, unknown>, k), depth: depth + 1 });
      }
    }
  }
  return undefined;
}

/** `obj[key]`, reading an own `__proto__` key as the data property it is. */
function ownValue(obj: Record<string, unknown>, key: string): unknown {
  return key === "__proto__" ? Object.getOwnPropertyDescriptor(obj, key)?.value : obj[key];
}

/** The longest path written in an argument error, in UTF-16 code units (spec §5). */
const MAX_PATH_LENGTH = 200;

/**
 * A top-level argument name as a §5 path: as is when it matches `[A-Za-z_$][A-Za-z0-9_$-]*`,
 * else a bracketed JSON string with `'` and every character outside U+0020–U+007E written
 * `\uXXXX`; longer than 200 code units: its first 200 and `…`.
 */
export function argumentPath(name: string): string {
  let path = name;
  if (!/^[A-Za-z_$][A-Za-z0-9_$-]*$/.test(name)) {
    path = '["';
    for (const c of name) {
      if (c === '"' || c === "\\") path += `\\${c}`;
      else if (c === "'" || c.length > 1 || c < " " || c > "~") {
        for (let i = 0; i < c.length; i++) path += `\\u${c.charCodeAt(i).toString(16).padStart(4, "0")}`;
      } else path += c;
    }
    path += '"]';
  }
  // Only ASCII remains (everything else is escaped), so no surrogate pair can be split.
  return path.length <= MAX_PATH_LENGTH ? path : `${path.slice(0, MAX_PATH_LENGTH)}…`;
}

