/**
 * Keeping `console` off the stdio transport's stdout (docs/runtime.md "stdio and `console`"):
 * one stray `console.log` would put a line that is not JSON-RPC into the protocol stream.
 *
 * @module
 */
import { format } from "node:util";

/** The `console` methods that write to stdout and are sent to stderr while serving. */
const METHODS = ["log", "info", "debug"] as const;

/**
 * Points `console.log`, `console.info` and `console.debug` at stderr — the same `util.format`
 * output plus a newline that they write to stdout — and returns the function that puts back the
 * ones found here (a method replaced again meanwhile is left as it is).
 */
export function consoleToStderr(): () => void {
  const saved = METHODS.map((name) => [name, console[name]] as const);
  const toStderr = (...args: unknown[]): void => {
    process.stderr.write(`${format(...args)}\n`);
  };
  for (const name of METHODS) console[name] = toStderr;
  return () => {
    for (const [name, original] of saved) if (console[name] === toStderr) console[name] = original;
  };
}
