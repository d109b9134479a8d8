/**
 * Input requests of running tasks. {@link TaskInputs}: a 2026-07-28 task (SEP-2663 with SEP-2322 input requests;
 * docs/runtime.md "Tasks"). A task's tool keeps running while it waits: `RequestContext.elicit`
 * / `sample` / `listRoots` put the task in `input_required` with the request under a key in its
 * `inputRequests` (`tasks/get`), and resolve when `tasks/update` delivers an answer of the right
 * kind for that key. Several pending requests may be answered one at a time; the task is
 * `working` again once none is pending. Answers to unknown keys, or of the wrong kind, are
 * ignored (the request stays pending). Cancellation and expiry reject the waiting calls with the
 * task's abort reason.
 *
 * @module
 */
import { RELATED_TASK_META_KEY } from "@modelcontextprotocol/server";
import type { Server } from "@modelcontextprotocol/server";
import { asServerRequestError } from "../calls/back-channel.js";
import type { ServerRequestMethod } from "../calls/errors.js";
import type { InputRequestOptions, Kind } from "../calls/input-required.js";
import { answerMatches, inputRequestOf } from "../calls/input-required.js";
import type { TaskRecord, TaskStore } from "./store.js";
import type { RequestContext } from "../types.js";

/** Longest number of input requests one task may have pending at once. */
const MAX_PENDING = 64;

interface Pending {
  kind: Kind;
  request: unknown;
  resolve: (answer: unknown) => void;
}

/** The input requests of one task (an `InputSource` for input-required.ts `bindInputSource`). */
export class TaskInputs {
  readonly #store: TaskStore;
  readonly #record: TaskRecord;
  readonly #pending = new Map<string, Pending>();
  readonly #counters: Record<Kind, number> = { elicit: 0, sample: 0, roots: 0 };

  readonly #answers: Record<string, unknown>;

  /**
   * @param answers Answers the task starts with, by key (bare results): the `input_required`
   *   round that created it (`taskStart: "after-input"`, docs/runtime.md "Tasks"); a request whose
   *   key has an answer of its kind there resolves with it at once. Default: none.
   */
  constructor(store: TaskStore, record: TaskRecord, answers: Record<string, unknown> = {}) {
    this.#store = store;
    this.#record = record;
    this.#answers = answers;
  }

  /** `elicitation/create` as an input request of the task. */
  elicit(
    params: Parameters<RequestContext["elicit"]>[0],
    options?: InputRequestOptions,
  ): ReturnType<RequestContext["elicit"]> {
    return this.#ask("elicit", params, options) as ReturnType<RequestContext["elicit"]>;
  }

  /** `sampling/createMessage` as an input request of the task. */
  sample(
    params: Parameters<RequestContext["sample"]>[0],
    options?: InputRequestOptions,
  ): ReturnType<RequestContext["sample"]> {
    return this.#ask("sample", params, options) as ReturnType<RequestContext["sample"]>;
  }

  /** `roots/list` as an input request of the task. */
  listRoots(options?: InputRequestOptions): ReturnType<RequestContext["listRoots"]> {
    return this.#ask("roots", undefined, options) as ReturnType<RequestContext["listRoots"]>;
  }

  /** The pending requests by key (`DetailedTask.inputRequests`), in the order they were made. */
  requests(): Record<string, unknown> {
    return Object.fromEntries([...this.#pending].map(([key, p]) => [key, p.request]));
  }

  /**
   * Delivers `tasks/update` answers (bare results by key): each pending request whose key has an
   * answer of its kind resolves; the task goes back to `working` when none is left.
   */
  answer(responses: Record<string, unknown>): void {
    for (const [key, pending] of [...this.#pending]) {
      if (!Object.hasOwn(responses, key) || !answerMatches(pending.kind, responses, key)) continue;
      this.#pending.delete(key);
      pending.resolve(responses[key]);
    }
    if (this.#pending.size === 0 && this.#record.status === "input_required")
      this.#store.update(this.#record, "working");
  }

  #ask(kind: Kind, params: unknown, options: InputRequestOptions | undefined): Promise<unknown> {
    const key = options?.key ?? `${kind}-${++this.#counters[kind]}`;
    if (typeof key !== "string" || key === "")
      return Promise.reject(new TypeError("typed-mcp: an input request key must be a non-empty string."));
    if (this.#pending.has(key))
      return Promise.reject(new TypeError(`typed-mcp: input request key '${key}' is already pending in this task.`));
    if (this.#pending.size >= MAX_PENDING)
      return Promise.reject(
        new RangeError(`typed-mcp: a task may have at most ${MAX_PENDING} input requests pending.`),
      );
    const signal = this.#record.controller.signal;
    if (signal.aborted) return Promise.reject(signal.reason);
    if (answerMatches(kind, this.#answers, key)) return Promise.resolve(this.#answers[key]);
    let request: unknown;
    try {
      request = inputRequestOf(kind, params as never);
    } catch (error) {
      return Promise.reject(error);
    }
    return new Promise((resolve, reject) => {
      const onAbort = (): void => {
        this.#pending.delete(key);
        reject(signal.reason);
      };
      signal.addEventListener("abort", onAbort, { once: true });
      this.#pending.set(key, {
        kind,
        request,
        resolve: (answer) => {
          signal.removeEventListener("abort", onAbort);
          resolve(answer);
        },
      });
      this.#store.update(this.#record, "input_required");
    });
  }
}

/**
 * Input requests of a running 2025-11-25 task on a connection (stdio; MCP 2025-11-25 "Tasks",
 * input_required): `RequestContext.elicit` / `sample` / `listRoots` stay real server→client
 * requests, carrying `_meta["io.modelcontextprotocol/related-task"] = { taskId }`, and the task is
 * `input_required` while at least one is unanswered (`working` again after). They are aborted
 * with the task; the client's JSON-RPC error answer rejects with a `ServerRequestError`. Not used on stateless HTTP, where such requests fail at once (back-channel.ts).
 */
export class ConnectionTaskInputs {
  readonly #sdk: Server;
  readonly #store: TaskStore;
  readonly #record: TaskRecord;
  #waiting = 0;

  constructor(sdk: Server, store: TaskStore, record: TaskRecord) {
    this.#sdk = sdk;
    this.#store = store;
    this.#record = record;
  }

  /** `elicitation/create` to the client, related to the task. */
  elicit(params: Parameters<RequestContext["elicit"]>[0]): ReturnType<RequestContext["elicit"]> {
    return this.#wait("elicitation/create", (signal) =>
      this.#sdk.elicitInput(
        { ...params, _meta: { ...params._meta, [RELATED_TASK_META_KEY]: { taskId: this.#record.taskId } } },
        { signal },
      ),
    );
  }

  /** `sampling/createMessage` to the client, related to the task. */
  sample(params: Parameters<RequestContext["sample"]>[0]): ReturnType<RequestContext["sample"]> {
    return this.#wait("sampling/createMessage", (signal) =>
      this.#sdk.createMessage(
        { ...params, _meta: { ...params._meta, [RELATED_TASK_META_KEY]: { taskId: this.#record.taskId } } },
        { signal },
      ),
    ) as ReturnType<RequestContext["sample"]>;
  }

  /** `roots/list` to the client, related to the task. */
  listRoots(): ReturnType<RequestContext["listRoots"]> {
    return this.#wait("roots/list", (signal) =>
      this.#sdk.listRoots({ _meta: { [RELATED_TASK_META_KEY]: { taskId: this.#record.taskId } } }, { signal }),
    );
  }

  /** Sends one request while the task is `input_required`; the client's error answer is a `ServerRequestError` (back-channel.ts). */
  async #wait<T>(method: ServerRequestMethod, send: (signal: AbortSignal) => Promise<T>): Promise<T> {
    if (this.#waiting++ === 0) this.#store.update(this.#record, "input_required");
    try {
      return await send(this.#record.controller.signal);
    } catch (error) {
      throw asServerRequestError(method, error);
    } finally {
      if (--this.#waiting === 0 && this.#record.status === "input_required")
        this.#store.update(this.#record, "working");
    }
  }
}
