/**
 * The parity test's task comparison (MCP 2025-11-25 "Tasks"): the original and the port run
 * `simulate-research-query` as a task side by side, driven by the official client through the
 * raw `tasks/*` requests of test/helpers/tasks.ts.
 */
import { expect } from "vitest";
import { cancelTask, createTask, getTask, listTasks, taskResult } from "../helpers/tasks.ts";
import type { DifferenceId } from "./differences.ts";
import { answer, normalise } from "./normalise.ts";
import { CLARIFIED, until, type Session, type Via, type Which } from "./servers.ts";

type Json = Record<string, any>;

/** The `statusMessage` each runtime sets on `tasks/cancel` (typed-mcp's, docs/runtime.md "Tasks"; SDK v1's). */
const CANCEL_MESSAGE: Record<Which, string> = {
  port: "Cancelled by the client.",
  original: "Client cancelled task execution.",
};

/** What the parity test's `describe` hands over: both sessions, the transport, its `both` and `mark`. */
export interface ParityEnv {
  original: Session;
  port: Session;
  via: Via;
  /** Runs `run` on both sessions at once: `[original's, port's]`. */
  both<T>(run: (s: Session, which: Which) => Promise<T>): Promise<[T, T]>;
  /** Records that a listed difference showed. */
  mark(id: DifferenceId): void;
}

/**
 * `simulate-research-query` run as a task on both, side by side: the CreateTaskResult,
 * tasks/get, the clarification elicitation (stdio), tasks/result, notifications/tasks/status,
 * tasks/list, tasks/cancel and tasks/result of the cancelled task — equal but for the
 * differences it marks.
 */
export async function researchTaskParity({ original, port, via, both, mark }: ParityEnv): Promise<void> {
  /**
   * A `Task` as compared: normalised (task id, timestamps), `statusMessage` kept (both set one
   * per stage); the cancel message of each runtime (typed-mcp's `Cancelled by the client.`, SDK
   * v1's `Client cancelled task execution.`) and SDK v1's empty result `_meta` dropped — each marked.
   */
  const taskView = (task: Json, which: Which): Json => {
    const t = normalise(task) as Json;
    if (t.status === "cancelled" && t.statusMessage === CANCEL_MESSAGE[which])
      delete t.statusMessage, mark("task-cancel-message");
    if (which === "original" && t._meta !== undefined && Object.keys(t._meta).length === 0)
      delete t._meta, mark("sdk-empty-meta");
    return t;
  };

  for (const s of [original, port]) s.notifications.length = 0;
  const asked = { original: original.requests.length, port: port.requests.length };
  const created = await both((s) =>
    createTask(s.client, "simulate-research-query", { topic: "python", ambiguous: true }),
  );
  const ids = { original: created[0].task.taskId, port: created[1].task.taskId };
  // MCP 2025-11-25 CreateTaskResult: working, the default ttl (none asked) and the pollInterval both use.
  expect(created[1].task).toMatchObject({ status: "working", ttl: 300_000, pollInterval: 1000 });
  // The port answers the task as created; the original's SDK v1 serialises its stored Task after the tool's first update.
  expect(created[1].task.statusMessage).toBeUndefined();
  if (created[0].task.statusMessage === "Gathering sources...")
    delete created[0].task.statusMessage, mark("task-created-message");
  expect(taskView(created[1].task, "port")).toEqual(taskView(created[0].task, "original"));
  const got = await both((s, which) => getTask(s.client, ids[which]));
  // The first stage's message, set by the tool before the client could ask (MCP 2025-11-25 Task.statusMessage).
  expect(got[1]).toMatchObject({ status: "working", statusMessage: "Gathering sources..." });
  expect(taskView(got[1], "port")).toEqual(taskView(got[0], "original"));

  // tasks/result waits for the end: the report, with the related-task _meta.
  const [a, b] = await both((s, which) => answer(() => taskResult(s.client, ids[which])));
  expect(b.result._meta).toEqual({ "io.modelcontextprotocol/related-task": { taskId: "<task-id>" } });
  expect(a.result.content[0].text).toMatch(
    new RegExp(`^# Research Report: python \\(${CLARIFIED.interpretation}\\)\\n`),
  );
  if (via === "stdio") {
    expect(b).toEqual(a);
    // The clarification: an elicitation/create related to the task (the port's SDK adds mode: "form", sdk-elicit-mode).
    const [p, o] = [port, original].map(
      (s) =>
        normalise(
          s.requests.slice(asked[s === port ? "port" : "original"]).filter((r) => r.method === "elicitation/create"),
        ) as Json[],
    );
    expect(p!.map((r) => r.params.mode)).toEqual(["form"]);
    delete p![0]!.params.mode;
    expect(p).toEqual(o);
    expect(o![0]!.params._meta).toEqual({ "io.modelcontextprotocol/related-task": { taskId: "<task-id>" } });
  } else {
    // Stateless 2025-era HTTP cannot carry the elicitation: the tool's default interpretation (docs/runtime.md).
    expect(b.result.content[0].text).toMatch(
      /^# Research Report: python \(technical \(default - elicitation unavailable\)\)\n/,
    );
    expect(port.requests.slice(asked.port)).toEqual([]);
    mark("http-no-back-channel");
  }

  // notifications/tasks/status: one per statusMessage or status change, the same on both (the
  // port's stage messages come from ctx.taskStatus; docs/runtime.md "Tasks", Status messages).
  // SDK v1 repeats the input_required notification, unchanged, when it sends the task's elicitation/create: dropped, marked.
  const statuses = (s: Session, which: Which): Json[] =>
    s.notifications
      .filter((n) => n.method === "notifications/tasks/status" && n.params.taskId === ids[which])
      .map((n) => taskView(n.params, which))
      .filter(
        (t, i, all) =>
          i === 0 || JSON.stringify(t) !== JSON.stringify(all[i - 1]) || (mark("sdk-repeated-status"), false),
      );
  await until(
    () => statuses(original, "original").some((t) => t.status === "completed"),
    "the original's completed status",
  );
  if (via === "stdio") {
    await until(() => statuses(port, "port").some((t) => t.status === "completed"), "the port's completed status");
    const stage = (status: string, statusMessage: string): Json => ({
      taskId: "<task-id>",
      status,
      statusMessage,
      createdAt: "<timestamp>",
      lastUpdatedAt: "<timestamp>",
      ttl: 300_000,
      pollInterval: 1000,
    });
    expect(statuses(port, "port")).toEqual([
      stage("working", "Gathering sources..."),
      stage("working", "Analyzing content..."),
      stage("working", "Synthesizing findings..."),
      stage("input_required", 'Found multiple interpretations for "python". Requesting clarification...'),
      stage("working", `Continuing with interpretation: "${CLARIFIED.interpretation}"...`),
      stage("working", "Generating report..."),
      stage("completed", "Generating report..."),
    ]);
    expect(statuses(port, "port")).toEqual(statuses(original, "original"));
  } else {
    // No stream after the response on stateless HTTP: the client polls (docs/runtime.md "Tasks").
    expect(statuses(port, "port")).toEqual([]);
    mark("http-no-session");
  }

  const listed = await both((s, which) =>
    listTasks(s.client).then((r) => ({ ...r, tasks: r.tasks.filter((t) => t.taskId === ids[which]) })),
  );
  expect(taskView(listed[1], "port")).toEqual({
    tasks: [
      {
        taskId: "<task-id>",
        status: "completed",
        statusMessage: "Generating report...",
        ttl: 300_000,
        createdAt: "<timestamp>",
        lastUpdatedAt: "<timestamp>",
        pollInterval: 1000,
      },
    ],
  });
  expect({ ...taskView(listed[1], "port"), tasks: listed[1].tasks.map((t) => taskView(t, "port")) }).toEqual({
    ...taskView(listed[0], "original"),
    tasks: listed[0].tasks.map((t) => taskView(t, "original")),
  });

  // tasks/cancel answers the cancelled Task; its tasks/result is then -32602 (docs/runtime.md "Tasks"; the original: -32603).
  const second = await both((s) => createTask(s.client, "simulate-research-query", { topic: "x" }));
  const secondIds = { original: second[0].task.taskId, port: second[1].task.taskId };
  const cancelled = await both((s, which) => cancelTask(s.client, secondIds[which]));
  expect(cancelled[1].status).toBe("cancelled");
  expect(taskView(cancelled[1], "port")).toEqual(taskView(cancelled[0], "original"));
  const after = await both((s, which) =>
    answer(() => taskResult(s.client, secondIds[which])).then(
      (x) => JSON.parse(JSON.stringify(x).replaceAll(secondIds[which], "<task-id>")) as Json,
    ),
  );
  expect(after[1]).toEqual({ error: { code: -32602, message: "Task <task-id> has no result: it was cancelled." } });
  expect(after[0].error.code).toBeTypeOf("number");
  if (JSON.stringify(after[1]) !== JSON.stringify(after[0])) mark("task-error-message");
  if (via === "stdio") {
    await until(
      () => port.notifications.some((n) => n.params.taskId === secondIds.port && n.params.status === "cancelled"),
      "the port's cancelled status",
    );
    expect(
      original.notifications.some((n) => n.params.taskId === secondIds.original && n.params.status === "cancelled"),
    ).toBe(false);
    mark("task-cancel-notification");
  }
}
