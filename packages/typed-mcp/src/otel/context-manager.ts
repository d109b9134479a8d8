/**
 * An OpenTelemetry `ContextManager` over an `AsyncLocalStorage` class the caller passes in
 * (docs/observability.md "Workers"): the active context follows `await` on every runtime that
 * has `AsyncLocalStorage` — Node, Bun, Deno, and Cloudflare workerd with the `nodejs_als` or
 * `nodejs_compat` flag, where `@opentelemetry/context-async-hooks` does not load (it needs
 * `async_hooks` beyond `AsyncLocalStorage`). Taking the class as an argument keeps
 * `node:async_hooks` out of this module: nothing here is imported a bundler would resolve.
 *
 * @module
 */
import { ROOT_CONTEXT } from "@opentelemetry/api";
import type { Context, ContextManager } from "@opentelemetry/api";

/** The part of `AsyncLocalStorage` the manager uses. */
interface Storage<T> {
  getStore(): T | undefined;
  run<R>(store: T, fn: () => R): R;
  disable(): void;
}

/** An `AsyncLocalStorage` constructor (`import { AsyncLocalStorage } from "node:async_hooks"`). */
export type AsyncLocalStorageClass = new () => Storage<Context>;

/**
 * A `ContextManager` keeping the active context in a new instance of `Storage`; register it with
 * `context.setGlobalContextManager(asyncLocalStorageContextManager(AsyncLocalStorage))`.
 *
 * @param Storage `AsyncLocalStorage` from `node:async_hooks`.
 * @throws TypeError when `Storage` is not a constructor.
 */
export function asyncLocalStorageContextManager(Storage: AsyncLocalStorageClass): ContextManager {
  if (typeof Storage !== "function")
    throw new TypeError("asyncLocalStorageContextManager takes the AsyncLocalStorage class of node:async_hooks");
  let storage = new Storage();
  const manager: ContextManager = {
    active: () => storage.getStore() ?? ROOT_CONTEXT,
    with: (ctx, fn, thisArg, ...args) => storage.run(ctx, () => fn.apply(thisArg, args)),
    bind<T>(ctx: Context, target: T): T {
      if (typeof target !== "function") return target;
      const fn = target as unknown as (...a: unknown[]) => unknown;
      return function (this: unknown, ...a: unknown[]) {
        return manager.with(ctx, () => fn.apply(this, a));
      } as unknown as T;
    },
    enable: () => manager,
    disable() {
      storage.disable();
      storage = new Storage();
      return manager;
    },
  };
  return manager;
}
