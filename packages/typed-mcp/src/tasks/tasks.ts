/**
 * Folder `tasks/`: MCP tasks — the `tasks/*` handlers and the task decision of a `tools/call`
 * (this file), the store, quotas, a running task's input requests, and the wire shapes.
 *
 * MCP tasks (docs/runtime.md "Tasks"): a tool listed with `execution.taskSupport` `"optional"`
 * or `"required"` (the `task` option) runs as a task for a client that negotiated tasks, on
 * both wire shapes the SDK serves:
 *
 * - **2025-11-25** ("Tasks", client-directed): the client's `tools/call` carries `params.task`
 *   (`{ ttl? }`); the answer is `CreateTaskResult` `{ task: Task }`; `tasks/get` answers the
 *   `Task`, `tasks/result` waits for the tool's `CallToolResult`, `tasks/list` pages the
 *   caller's tasks, `tasks/cancel` answers the cancelled `Task`; `notifications/tasks/status`
 *   goes to the creating connection (stdio). Capability `tasks: { list, cancel, requests: {
 *   tools: { call } } }` in `initialize`.
 * - **2026-07-28** (SEP-2663, extension `io.modelcontextprotocol/tasks`, server-directed): a client
 *   whose capabilities (of the session or of the request's `_meta` envelope) have the extension
 *   always gets a task (a tool with `taskStart: "after-input"`: from the first round carrying
 *   `inputResponses` or `requestState`; the rounds before are ordinary `input_required` rounds):
 *   the flat `CreateTaskResult` `{ resultType: "task", taskId, status,
 *   createdAt, lastUpdatedAt, ttlMs, pollIntervalMs }`; `tasks/get` answers the `DetailedTask`
 *   with `result` (completed) or `error` (failed) inlined; `tasks/cancel` and `tasks/update`
 *   answer an empty ack; `tasks/result` and `tasks/list` do not exist (`-32601`, the SDK); every
 *   `tasks/*` request from a client without the extension is `-32021`. The extension is
 *   advertised in `server/discover`, never `capabilities.tasks`.
 *
 * A client that did not negotiate tasks gets an ordinary call; for a `"required"` tool the
 * spec's error instead (2025-11-25: `-32601`; 2026-07-28: `-32021` naming the extension).
 *
 * @module
 */
import {
  MissingRequiredClientCapabilityError,
  ProtocolError,
  ProtocolErrorCode,
  specTypeSchemas,
} from "@modelcontextprotocol/server";
import type { Server, ServerContext, StandardSchemaV1 } from "@modelcontextprotocol/server";
import { cutEchoed } from "../codegen-support/argument-errors.js";
import type { ClientView } from "../calls/client-view.js";
import { bindInputSource, roundAnswersOf } from "../calls/input-required.js";
import { hasTasks, isStateless } from "../protocol/revisions.js";
import { ConnectionTaskInputs, TaskInputs } from "./input.js";
import type { ServerTasks, TaskAccess, TaskSource } from "./access.js";
import { tasksOf } from "../store/shared-tasks.js";
import { ANONYMOUS_OWNER, callerOf } from "../transports/caller.js";
import type { Caller, CallerKey } from "../transports/caller.js";
import { bindTask, checkRequestedTtl } from "./store.js";
import type { TaskChange, TaskRecord, TaskStore, TaskView } from "./store.js";
import type { CallToolResult } from "../types.js";
import { detailedTask, legacyPayload, legacyTask, modernTask } from "./wire.js";
import { TaskCreated } from "./created.js";
import { TASKS_EXTENSION } from "./capabilities.js";

/** A request schema of `specTypeSchemas` as it is at run time (a zod object; typed as Standard Schema only). */
type ParamsOf<P> = { shape: { params: StandardSchemaV1<P, P> } };
/** `{ taskId }` params of `tasks/get`, `tasks/result`, `tasks/cancel`, `tasks/update` (the SDK's `GetTaskRequest` params schema; unknown keys dropped). */
const TASK_ID_PARAMS = (specTypeSchemas.GetTaskRequest as unknown as ParamsOf<{ taskId: string }>).shape.params;
/** `{ cursor? }` params of `tasks/list` (the SDK's `ListTasksRequest` params schema; optional). */
const LIST_PARAMS = (specTypeSchemas.ListTasksRequest as unknown as ParamsOf<{ cursor?: string } | undefined>).shape
  .params;

/** An SDK request handler as `_wrapHandler` sees it. */
type Handler = (request: unknown, ctx: ServerContext) => Promise<unknown>;

/** The SDK 2.4.0 `Server` internals {@link installTasks} wraps on one instance. */
interface SdkInternals {
  _oninitialize(request: unknown): Promise<Record<string, unknown>>;
  _ondiscover(): Record<string, unknown>;
  _wrapHandler(method: string, handler: Handler): Handler;
}

/** How a `tools/call` is run: `ctx` is the request's, or the task's (its own signal). */
export type CallRunner = (ctx: ServerContext) => Promise<CallToolResult>;

/**
 * Registers the `tasks/*` handlers on one SDK instance and shapes its capabilities per revision
 * (`initialize` without the extension key, `server/discover` without `capabilities.tasks`; the
 * SDK's `_oninitialize` / `_ondiscover` are wrapped on this instance).
 *
 * @param source What the server's tasks are made from; the first installation makes them
 *   (store/shared-tasks.ts `tasksOf`): the store shared by every SDK instance of the server, how
 *   the handlers reach tasks (its own store, or a shared store's), and the shared store's writer
 *   when there is one.
 * @param viewOf The client view of a request.
 * @param connection The id of the connection (stdio) the instance serves, which owns its tasks; `undefined` for HTTP.
 * @param callerKey The server's `callerKey` option (caller.ts).
 * @param tools Which tools may run as tasks: only their `tools/call` answers go through the
 *   `TaskCreated` catch (an ordinary tool's call keeps the SDK's handler as is).
 */
export function installTasks(
  sdk: Server,
  source: TaskSource,
  viewOf: (ctx: ServerContext) => ClientView,
  connection: string | undefined,
  callerKey: CallerKey | undefined,
  tools: { mayRunAsTask(name: string): boolean },
): TaskCalls {
  patchSdkForTasks(sdk, tools);
  const tasks = tasksOf(source);
  const calls = new TaskCalls(sdk, tasks, viewOf, connection, callerKey);
  installTaskHandlers(sdk, tasks.access, calls, viewOf);
  return calls;
}

/**
 * The SDK internals {@link installTasks} patches: the `initialize` result without the 2026
 * `extension` capability and the `server/discover` result without the 2025 `tasks` one (each
 * family sees its own task capability), and the `tools/call` handler of a tool that may run as a
 * task answering the `TaskCreated` signal after the SDK's result check.
 */
function patchSdkForTasks(sdk: Server, tools: { mayRunAsTask(name: string): boolean }): void {
  const internals = sdk as unknown as SdkInternals;
  const initialize = internals._oninitialize.bind(sdk);
  const discover = internals._ondiscover.bind(sdk);
  internals._oninitialize = async (request) => {
    const result = await initialize(request);
    return { ...result, capabilities: withoutKey(result.capabilities as Record<string, unknown>, "extension") };
  };
  internals._ondiscover = () => {
    const result = discover();
    return { ...result, capabilities: withoutKey(result.capabilities as Record<string, unknown>, "tasks") };
  };
  // The SDK validates every tools/call result as a CallToolResult (2.4.0 refuses `task` without
  // `content`): a created task leaves the handler as a TaskCreated signal, answered after that check.
  const wrapHandler = internals._wrapHandler.bind(sdk);
  internals._wrapHandler = (method, handler) => {
    const wrapped = wrapHandler(method, handler);
    if (method !== "tools/call") return wrapped;
    const answer = (signal: unknown): unknown => {
      if (signal instanceof TaskCreated) return signal.result;
      throw signal;
    };
    return (request, ctx) => {
      const name = (request as { params?: { name?: unknown } }).params?.name;
      return typeof name === "string" && tools.mayRunAsTask(name)
        ? wrapped(request, ctx).catch(answer)
        : wrapped(request, ctx);
    };
  };
}

/** The `tasks/get`, `tasks/cancel`, `tasks/update`, `tasks/result` and `tasks/list` handlers of one SDK instance. */
function installTaskHandlers(
  sdk: Server,
  access: TaskAccess,
  calls: TaskCalls,
  viewOf: (ctx: ServerContext) => ClientView,
): void {
  const modernOf = (ctx: ServerContext): boolean => {
    const view = viewOf(ctx);
    const modern = isStateless(view.protocolVersion);
    if (modern && !negotiated(view)) throw missingExtension();
    return modern;
  };
  const notFound = (taskId: string): ProtocolError =>
    new ProtocolError(ProtocolErrorCode.InvalidParams, `Task not found: ${cutEchoed(taskId)}`);
  const find = async (taskId: string, ctx: ServerContext): Promise<{ task: TaskView; modern: boolean }> => {
    const modern = modernOf(ctx);
    const task = await access.find(taskId, calls.ownerOf(ctx));
    if (task === undefined) throw notFound(taskId);
    return { task, modern };
  };
  sdk.setRequestHandler("tasks/get", { params: TASK_ID_PARAMS }, async (params, ctx) => {
    const { task, modern } = await find(params.taskId, ctx);
    return (modern ? detailedTask(task) : legacyTask(task)) as never;
  });
  sdk.setRequestHandler("tasks/cancel", { params: TASK_ID_PARAMS }, async (params, ctx) => {
    const modern = modernOf(ctx);
    const cancelled = await access.cancel(params.taskId, calls.ownerOf(ctx));
    if (cancelled === undefined) throw notFound(params.taskId);
    const { task, changed } = cancelled;
    if (!modern && !changed) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Cannot cancel task ${task.taskId}: it is already ${task.status}.`,
      );
    }
    return (modern ? {} : legacyTask(task)) as never;
  });
  // SEP-2663: answers (`inputResponses`, validated by the SDK into ctx.mcpReq.inputResponses) to a task's input requests (tasks/input.ts).
  sdk.setRequestHandler("tasks/update", { params: TASK_ID_PARAMS }, async (params, ctx) => {
    const { modern } = await find(params.taskId, ctx);
    if (!modern) throw new ProtocolError(ProtocolErrorCode.MethodNotFound, "Method not found");
    await access.answer(params.taskId, calls.ownerOf(ctx), ctx.mcpReq.inputResponses ?? {});
    return {} as never;
  });
  sdk.setRequestHandler("tasks/result", { params: TASK_ID_PARAMS }, async (params, ctx) => {
    const { task } = await find(params.taskId, ctx);
    return legacyPayload(await access.settled(task, calls.ownerOf(ctx), ctx.mcpReq.signal)) as never;
  });
  sdk.setRequestHandler("tasks/list", { params: LIST_PARAMS }, async (params, ctx) => {
    const page = await access.list(calls.ownerOf(ctx), params?.cursor);
    return {
      tasks: page.tasks.map(legacyTask),
      ...(page.nextCursor !== undefined && { nextCursor: page.nextCursor }),
    } as never;
  });
}

/** Decides and runs `tools/call` requests as tasks for one SDK instance (made by {@link installTasks}). */
export class TaskCalls {
  readonly #sdk: Server;
  readonly #store: TaskStore;
  readonly #shared: ServerTasks["shared"];
  readonly #viewOf: (ctx: ServerContext) => ClientView;
  readonly #connection: string | undefined;
  readonly #callerKey: CallerKey | undefined;

  /** @internal */
  constructor(
    sdk: Server,
    tasks: ServerTasks,
    viewOf: (ctx: ServerContext) => ClientView,
    connection: string | undefined,
    callerKey: CallerKey | undefined,
  ) {
    this.#sdk = sdk;
    this.#store = tasks.store;
    this.#shared = tasks.shared;
    this.#viewOf = viewOf;
    this.#connection = connection;
    this.#callerKey = callerKey;
  }

  /**
   * Who a request's tasks belong to (only they see them): the caller (caller.ts `callerOf`) — the
   * token's issuer + subject + client, else the connection (stdio) or the `Mcp-Session-Id`
   * (2025-era HTTP), else {@link ANONYMOUS_OWNER}, whose tasks are never listed and are reachable
   * only by their 128-bit random ids (docs/security.md "Tasks").
   */
  ownerOf(ctx: ServerContext): string {
    return this.callerOf(ctx).owner;
  }

  /** The caller of a request (caller.ts `callerOf`): its owner, and the quota bucket its tasks are charged to. */
  callerOf(ctx: ServerContext): Caller {
    return callerOf(ctx, this.#connection, this.#callerKey);
  }

  /**
   * Answers a `tools/call` of a tool with `taskSupport` as a task when the client negotiated
   * tasks (see the module comment): a promise rejected with the `CreateTaskResult` signal that
   * {@link installTasks}' handler wrapper answers; `undefined` when it is an ordinary call.
   *
   * @param taskSupport The tool's `execution.taskSupport` (undefined: none).
   * @param taskStart The tool's `taskStart` option: with `"after-input"`, a 2026-07-28 round that
   *   carries neither `inputResponses` nor `requestState` is an ordinary call (`undefined`; its
   *   input requests answer `input_required`), and a round with either becomes the task, whose
   *   input requests that round answers first (docs/runtime.md "Tasks", "Input before the task").
   * @param run Runs the call with a given context (tool-call.ts `callTool`).
   * @throws ProtocolError `-32601` (2025-era) or `MissingRequiredClientCapabilityError` `-32021`
   *   (2026-07-28) for a `"required"` tool called without tasks; `-32602` for a `task.ttl` that is
   *   not a positive integer (tasks/store.ts `checkRequestedTtl`); `-32603` naming the option when the
   *   caller's running-task quota or the server's `tasks.maxTasks` is full (tasks/store.ts `create`).
   */
  dispatch(
    taskSupport: string | undefined,
    taskStart: string | undefined,
    params: { task?: unknown; name: string },
    ctx: ServerContext,
    run: CallRunner,
  ): Promise<never> | undefined {
    if (taskSupport !== "optional" && taskSupport !== "required") return undefined;
    const view = this.#viewOf(ctx);
    const modern = isStateless(view.protocolVersion);
    const task = params.task as { ttl?: unknown } | undefined;
    const asTask = modern
      ? negotiated(view)
      : hasTasks(view.protocolVersion) && typeof task === "object" && task !== null;
    if (!asTask) {
      if (taskSupport === "optional") return undefined;
      if (modern) throw missingExtension();
      throw new ProtocolError(
        ProtocolErrorCode.MethodNotFound,
        `Tool ${params.name} must be called as a task (execution.taskSupport "required"): send params.task.`,
      );
    }
    const afterInput = modern && taskStart === "after-input";
    if (afterInput && ctx.mcpReq.inputResponses === undefined && ctx.mcpReq.requestState() === undefined)
      return undefined;
    const caller = this.callerOf(ctx);
    const record = this.#store.create(caller, modern ? undefined : checkRequestedTtl(task?.ttl));
    if (!modern && this.#connection !== undefined) record.onChange = statusNotifier(this.#sdk);
    const start = (): never => {
      this.#run(record, ctx, run, modern, afterInput ? roundAnswersOf(ctx) : undefined);
      throw new TaskCreated(
        modern ? { resultType: "task", ...modernTask(record) } : { task: legacyTask(record) },
        record,
      );
    };
    // With a shared store the task is written there (and its running lease taken) before it runs.
    if (this.#shared !== undefined) return this.#shared.created(record, caller).then(start);
    try {
      return start();
    } catch (signal) {
      return Promise.reject(signal);
    }
  }

  /**
   * Runs the call detached from its request: the tool's signal is the task's; notifications it
   * sends are best effort; `answers`: the creating round's (2026-07-28). With a shared store its
   * `startTask` starts the work (store/shared.ts); without, it starts at once.
   */
  #run(
    record: TaskRecord,
    ctx: ServerContext,
    run: CallRunner,
    modern: boolean,
    answers: Record<string, unknown> | undefined,
  ): void {
    const store = this.#store;
    const quiet =
      <A extends unknown[]>(send: (...args: A) => Promise<void>) =>
      (...args: A) =>
        send(...args).catch(() => {});
    const taskCtx = {
      ...ctx,
      mcpReq: {
        ...ctx.mcpReq,
        signal: record.controller.signal,
        notify: quiet(ctx.mcpReq.notify),
        log: quiet(ctx.mcpReq.log),
      },
    } as ServerContext;
    bindTask(taskCtx, store, record);
    // 2026-07-28: the tool's elicit / sample / listRoots park the task in input_required until tasks/update answers.
    if (modern) bindInputSource(taskCtx, (record.inputs = new TaskInputs(store, record, answers)));
    // 2025-11-25 on a connection: real server→client requests related to the task; input_required while one is unanswered.
    else if (this.#connection !== undefined)
      bindInputSource(taskCtx, new ConnectionTaskInputs(this.#sdk, store, record));
    const work = (): Promise<void> =>
      Promise.resolve()
        .then(() => run(taskCtx))
        .then(
          (result) => store.update(record, "completed", { result }),
          (error: unknown) =>
            store.update(record, "failed", {
              error:
                error instanceof ProtocolError
                  ? { code: error.code, message: error.message, ...(error.data !== undefined && { data: error.data }) }
                  : { code: ProtocolErrorCode.InternalError, message: "The tool failed." },
            }),
        )
        .then(() => undefined);
    // At once by default; a shared store may start it elsewhere (a Durable Object: from its alarm).
    if (this.#shared !== undefined) this.#shared.startTask(work);
    else void work();
  }
}

/**
 * The {@link TaskRecord.onChange} of a 2025-11-25 task on a connection: `notifications/tasks/status`
 * (params: the `Task`, MCP 2025-11-25 "Task Status Notification") to the connection, best effort,
 * at the end of the event-loop turn of a change. One notification carries at most one status
 * change and at most one `ctx.taskStatus` message, the task as it was after them: a message set
 * in the same turn as a status change (just before `ctx.elicit`, or right after its answer) goes
 * with it; a second status change or a second message first sends the pending one. No change is
 * skipped, and none is sent twice.
 */
function statusNotifier(sdk: Server): (record: TaskRecord, change: TaskChange) => void {
  let pending:
    | { task: Record<string, unknown>; status: boolean; message: boolean; timer: ReturnType<typeof setTimeout> }
    | undefined;
  const send = (): void => {
    const task = pending!.task;
    clearTimeout(pending!.timer);
    pending = undefined;
    void sdk.notification({ method: "notifications/tasks/status", params: task } as never).catch(() => {});
  };
  return (record, change) => {
    if (pending !== undefined && ((change.status && pending.status) || (change.message && pending.message))) send();
    if (pending === undefined) pending = { task: {}, status: false, message: false, timer: setTimeout(send, 0) };
    pending.task = legacyTask(record);
    pending.status ||= change.status;
    pending.message ||= change.message;
  };
}

/** Whether a 2026-07-28 client declared the tasks extension (session or request envelope). */
function negotiated(view: ClientView): boolean {
  const extensions = (view.clientCapabilities as { extensions?: unknown } | undefined)?.extensions;
  return typeof extensions === "object" && extensions !== null && Object.hasOwn(extensions, TASKS_EXTENSION);
}

/** SEP-2663 "Required Capabilities": `-32021` with `data.requiredCapabilities.extensions[TASKS_EXTENSION]`. */
function missingExtension(): MissingRequiredClientCapabilityError {
  return new MissingRequiredClientCapabilityError({
    requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } },
  } as never);
}

/** `capabilities` without `tasks` (`key` = "tasks") or without `extensions[TASKS_EXTENSION]`. */
function withoutKey(capabilities: Record<string, unknown>, key: "tasks" | "extension"): Record<string, unknown> {
  const out = { ...capabilities };
  if (key === "tasks") delete out.tasks;
  else if (typeof out.extensions === "object" && out.extensions !== null) {
    const extensions = { ...(out.extensions as Record<string, unknown>) };
    delete extensions[TASKS_EXTENSION];
    if (Object.keys(extensions).length > 0) out.extensions = extensions;
    else delete out.extensions;
  }
  return out;
}
