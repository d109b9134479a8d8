/**
 * Patch 6 of sdk-patches.ts: `StdioServerTransport#send` in linear time.
 *
 * The SDK 2.4.0 ({@link PINNED_SDK_VERSION}) `send` adds a `once("error")` listener to stdout for
 * every message, and a `once("drain")` one for every message written while stdout is full; each
 * removes both when it settles. With N answers waiting for one `drain` (N requests pipelined in
 * one write), stdout holds N listeners of each kind, and each of the N removals searches that
 * list: O(N²). Measured over a real child process (scripts/bench/stdio-pings.mjs): the ping after
 * 30,000 pipelined ones waited 10.8 s, after 50,000 more than 60 s (docs/security.md "stdio").
 *
 * {@link linearStdioSend} replaces `send` on one transport instance with one that writes the same
 * bytes (`serializeMessage(message)`, the SDK's own framing) in the same order, resolves when the
 * write was accepted or after the next `drain`, rejects on a stdout `error` meanwhile, exactly as
 * the SDK's does — but all the messages waiting for one `drain` share one `drain` and one `error`
 * listener. What it assumes of the SDK (asserted by test/runtime/stdio-pipelined.test.ts, which
 * also checks that the SDK's own `send` still needs the patch — the version guard): the
 * transport's `send` is looked up on the instance when the SDK sends (`serveStdio`'s channel calls
 * `wire.send`), and its `close()` is reached as `this.close()` (so the instance's wrapper sees
 * every close, also the SDK's own on stdin end).
 *
 * @module
 */
import { serializeMessage } from "@modelcontextprotocol/server";
import type { JSONRPCMessage } from "@modelcontextprotocol/server";
import type { StdioServerTransport } from "@modelcontextprotocol/server/stdio";

/** The part of a writable stream (stdout) the patched `send` uses. */
export interface StdoutLike {
  write(chunk: string): boolean;
  on(event: "drain" | "error", listener: (error?: Error) => void): unknown;
  off(event: "drain" | "error", listener: (error?: Error) => void): unknown;
}

/** One `send` waiting for stdout's next `drain`. */
interface Waiter {
  resolve(): void;
  reject(error: Error): void;
}

/**
 * Makes `transport.send` linear in the number of messages waiting for stdout (see the module
 * comment). Sends after `close()` reject with the SDK's `StdioServerTransport is closed`.
 *
 * @param transport A `StdioServerTransport` not yet started.
 * @param stdout The stream `transport` writes to (the one passed to its constructor).
 */
export function linearStdioSend(transport: StdioServerTransport, stdout: StdoutLike): void {
  let closed = false;
  let waiters: Waiter[] = [];
  const settle = (error?: Error): void => {
    const settled = waiters;
    waiters = [];
    stdout.off("drain", onDrain);
    stdout.off("error", onError);
    for (const waiter of settled) {
      if (error === undefined) waiter.resolve();
      else waiter.reject(error);
    }
  };
  const onDrain = (): void => settle();
  const onError = (error?: Error): void => settle(error ?? new Error("stdout failed"));
  const close = transport.close.bind(transport);
  transport.close = () => {
    closed = true;
    return close();
  };
  transport.send = (message: JSONRPCMessage) => {
    if (closed) return Promise.reject(new Error("StdioServerTransport is closed"));
    const json = serializeMessage(message);
    if (stdout.write(json)) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      if (waiters.length === 0) {
        stdout.on("drain", onDrain);
        stdout.on("error", onError);
      }
      waiters.push({ resolve, reject });
    });
  };
}
