/**
 * Tasks belong to the caller (docs/security.md "Callers" and "Tasks"; MCP 2025-11-25 "Tasks":
 * tasks are bound to the authorization context; SEP-2663 on 2026-07-28): oidc-provider as the real
 * authorization server, two users (alice, bob) logged in through the same public client `app`
 * (authorization code + PKCE, the official client's OAuth flow), so their tokens share
 * `client_id` and differ in `sub`. The task tools of test/runtime/fixtures are served by
 * `serveHttp` with `auth: oauth({ issuer, audience })`. B must get, on every task method, exactly
 * the answer an unknown task id gets; A sees its own tasks on any session.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, StreamableHTTPClientTransport, UnauthorizedError } from "@modelcontextprotocol/client";
import { oauth } from "../../packages/typed-mcp/dist/auth.js";
import { serveHttp } from "../../packages/typed-mcp/dist/node.js";
import { createTaskServer } from "../runtime/fixtures/tasks-tools.mjs";
import { freePort } from "../runtimes/helpers.js";
import { post2025, post2026 } from "../helpers/raw-http.ts";
import { cancelTask, createTask, getTask, listTasks, taskResult } from "../helpers/tasks.ts";
import {
  RESOURCE_SERVER,
  authorize,
  startAuthorizationServer,
  type AuthorizationServer,
} from "./authorization-server.js";
import { AppProvider } from "./setup.js";

/**
 * Runs the suite below against one authorization server: JWT access tokens (RFC 9068; owner
 * issuer + sub + client_id) or opaque ones verified by RFC 7662 introspection (owner issuer +
 * (sub ?? client_id)).
 */
describe.each(["jwt", "opaque"] as const)("access tokens: %s", (format) => {
  let as: AuthorizationServer;
  let http: Awaited<ReturnType<typeof serveHttp>>;
  const provider = () => new AppProvider({ clientName: "tasks owner test", scope: "notes:read" });
  const users: Record<"alice" | "bob", AppProvider> = { alice: provider(), bob: provider() };
  const open: Client[] = [];

  /** A new session of `user` (the real client, 2025-11-25, its OAuth provider holding the user's token). */
  async function session(user: "alice" | "bob"): Promise<Client> {
    const client = new Client({ name: `${user}-client`, version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(http.url, { authProvider: users[user] }));
    open.push(client);
    return client;
  }

  beforeAll(async () => {
    as = await startAuthorizationServer({ format });
    const port = await freePort();
    const audience = `http://127.0.0.1:${port}/mcp`;
    const auth = oauth({ issuer: as.issuer, audience, ...(format === "opaque" && { introspection: RESOURCE_SERVER }) });
    http = await serveHttp(createTaskServer({ auth }), { port });
    for (const user of ["alice", "bob"] as const) {
      const transport = new StreamableHTTPClientTransport(http.url, { authProvider: users[user] });
      await expect(new Client({ name: "login", version: "1.0.0" }).connect(transport)).rejects.toBeInstanceOf(
        UnauthorizedError,
      );
      await transport.finishAuth(await authorize(users[user].authorizationUrl!, user));
    }
  });
  afterAll(async () => {
    for (const client of open) await client.close();
    await http?.close();
    await as?.stop();
  });

  /** What a request gets for a task id: the error, or `undefined` when it succeeded. */
  const outcome = (p: Promise<unknown>) =>
    p.then(
      () => undefined,
      (e: { code: number; message: string }) => ({ code: e.code, message: e.message }),
    );
  /** The answer to an id no task has, with that id replaced by `taskId` (the shape B must get). */
  const unknownAnswer = (taskId: string) => ({ code: -32602, message: `Task not found: ${taskId}` });

  describe("2025-11-25: tasks are the token owner's (issuer + sub + client_id), not the client's nor the session's", () => {
    it.runIf(format === "jwt")("the two tokens share client_id and differ in sub (what makes this case)", () => {
      const claims = (token: string) =>
        JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString()) as { sub: string; client_id: string };
      expect(claims(users.alice.accessToken)).toMatchObject({ sub: "alice", client_id: "app" });
      expect(claims(users.bob.accessToken)).toMatchObject({ sub: "bob", client_id: "app" });
    });

    it("bob gets the unknown-id answer on tasks/get, tasks/result, tasks/cancel and lists nothing of alice's", async () => {
      const alice = await session("alice");
      const bob = await session("bob");
      const { task } = await createTask(alice, "slow_compute", { seconds: 30 });
      const unknown = "AAAAAAAAAAAAAAAAAAAAAA";
      for (const [taskId, expected] of [
        [unknown, unknownAnswer(unknown)],
        [task.taskId, unknownAnswer(task.taskId)],
      ] as const) {
        expect(await outcome(getTask(bob, taskId))).toEqual(expected);
        expect(await outcome(taskResult(bob, taskId))).toEqual(expected);
        expect(await outcome(cancelTask(bob, taskId))).toEqual(expected);
      }
      expect((await listTasks(bob)).tasks).toEqual([]);
      // Not cancelled by bob: alice's task still runs, and alice lists it.
      expect((await getTask(alice, task.taskId)).status).toBe("working");
      expect((await listTasks(alice)).tasks.map((t) => t.taskId)).toEqual([task.taskId]);
      await cancelTask(alice, task.taskId);
    });

    it("the same user on a second session sees, reads and cancels its own task", async () => {
      const first = await session("alice");
      const second = await session("alice");
      const { task } = await createTask(first, "slow_compute", { seconds: 30 });
      expect((await listTasks(second)).tasks.map((t) => t.taskId)).toContain(task.taskId);
      expect((await getTask(second, task.taskId)).taskId).toBe(task.taskId);
      expect((await cancelTask(second, task.taskId)).status).toBe("cancelled");
      const done = await createTask(first, "slow_compute", { seconds: 0 });
      expect((await taskResult(second, done.task.taskId)).content).toEqual([{ type: "text", text: "Done after 0s" }]);
    });
  });

  describe("2025-11-25 without a session (stateless HTTP): the token alone is the owner", () => {
    /** One raw 2025-11-25 POST with `user`'s bearer token and no Mcp-Session-Id; the JSON-RPC answer to id 1. */
    const post = (user: "alice" | "bob", method: string, params: Record<string, unknown>) =>
      post2025(http.url, method, params, { authorization: `Bearer ${users[user].accessToken}` });

    it("bob's tasks/get, tasks/result, tasks/cancel get the unknown-id answer and tasks/list nothing; alice lists and reads hers", async () => {
      const { task } = (
        await post("alice", "tools/call", { name: "slow_compute", arguments: { seconds: 30 }, task: {} })
      ).result;
      for (const method of ["tasks/get", "tasks/result", "tasks/cancel"])
        expect((await post("bob", method, { taskId: task.taskId })).error).toEqual(unknownAnswer(task.taskId));
      expect((await post("bob", "tasks/list", {})).result.tasks).toEqual([]);
      expect((await post("alice", "tasks/list", {})).result.tasks.map((t: { taskId: string }) => t.taskId)).toContain(
        task.taskId,
      );
      expect((await post("alice", "tasks/get", { taskId: task.taskId })).result.status).toBe("working");
      expect((await post("alice", "tasks/cancel", { taskId: task.taskId })).result.status).toBe("cancelled");
    });
  });

  describe("2026-07-28 (SEP-2663): tasks/get, tasks/update, tasks/cancel of another user's task", () => {
    /** One raw 2026-07-28 POST with `user`'s bearer token (SEP-2243 headers, the `_meta` envelope declaring the extension). */
    const post = (user: "alice" | "bob", method: string, params: Record<string, unknown>) =>
      post2026(http.url, method, params, {
        client: user,
        headers: { authorization: `Bearer ${users[user].accessToken}` },
      }).then((exchange) => exchange.answer);

    it("bob gets exactly the unknown-id answer; alice's task is untouched and hers", async () => {
      const created = (await post("alice", "tools/call", { name: "slow_compute", arguments: { seconds: 30 } })).result;
      expect(created).toMatchObject({ resultType: "task", status: "working" });
      const unknown = "BBBBBBBBBBBBBBBBBBBBBB";
      for (const method of ["tasks/get", "tasks/update", "tasks/cancel"]) {
        const params = method === "tasks/update" ? { inputResponses: {} } : {};
        const foreign = await post("bob", method, { taskId: created.taskId, ...params });
        const none = await post("bob", method, { taskId: unknown, ...params });
        expect(none.error).toEqual(unknownAnswer(unknown));
        expect(foreign.error).toEqual(unknownAnswer(created.taskId));
        expect(foreign.result).toBeUndefined();
      }
      expect((await post("alice", "tasks/get", { taskId: created.taskId })).result).toMatchObject({
        taskId: created.taskId,
        status: "working",
      });
      expect((await post("alice", "tasks/cancel", { taskId: created.taskId })).result).toMatchObject({
        resultType: "complete",
      });
      expect((await post("alice", "tasks/get", { taskId: created.taskId })).result.status).toBe("cancelled");
    });
  });
});
