/**
 * What typed-mcp/durable-objects keeps beyond the store contract (test/store/contract.test.ts runs
 * the contract's cases against it), in real workerd (test/helpers/workerd-store.ts; docs/scaling.md
 * "Durable Objects"): values larger than the storage API's 131,072-byte limit, expired entries
 * deleted from storage by the object's alarm (counted through `CountingStore`, the same class with
 * a route that counts `state.storage.list()`), and with `durableObjectStorage = (localDisk = …)`
 * values and the pending alarm surviving a workerd killed with SIGKILL and started again.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWorkerdStore, type WorkerdStore } from "../helpers/workerd-store.ts";

/** Waits (bounded, 15 s) until `check` holds. */
async function eventually(check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("condition not met within 15 s");
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("in memory", () => {
  let workerd: WorkerdStore;
  beforeAll(async () => {
    workerd = await startWorkerdStore();
  });
  afterAll(async () => {
    await workerd?.dispose();
  });

  it("keeps a value far above the storage API's 131,072-byte limit, and a shorter one over it", async () => {
    const store = workerd.store("a", "counted");
    // Two-byte characters: 2,000,000 bytes in storage's serialisation.
    const big = "€".repeat(999_999) + "!";
    expect(await store.swap("big", undefined, big, 60_000)).toBe(true);
    expect(await workerd.store("b", "counted").get("big")).toBe(big);
    // Compare-and-set compares the whole value: one character off at the end is another value.
    expect(await store.swap("big", "€".repeat(1_000_000), "x", 60_000)).toBe(false);
    const before = await workerd.entries();
    expect(await store.swap("big", big, "small", 60_000)).toBe(true);
    expect(await store.get("big")).toBe("small");
    // The chunks of the longer value are gone (17 chunks of 60,000 characters: 16 besides the head).
    expect(before - (await workerd.entries())).toBe(16);
    await store.delete("big");
    expect(await store.get("big")).toBeUndefined();
  });

  it("its alarm deletes expired values, their chunks and expired set members from storage", async () => {
    const store = workerd.store("a", "counted");
    const start = await workerd.entries();
    expect(await store.swap("live", undefined, "stays", 600_000)).toBe(true);
    // Short enough to wait for, long enough that none expires before the count below on a loaded machine.
    const short = 4000;
    for (let i = 0; i < 20; i++) await store.swap(`short${i}`, undefined, "x".repeat(i === 0 ? 150_000 : 1), short);
    await store.enter("set", "stays", Date.now() + 600_000);
    await store.enter("set", "goes", Date.now() + short);
    await store.enter("gone-set", "goes", Date.now() + short);
    // 1 + 20 values (the first with 2 more chunks) + 2 sets.
    expect((await workerd.entries()) - start).toBe(1 + 20 + 2 + 2);
    await eventually(async () => (await workerd.entries()) - start === 2);
    expect(await store.get("live")).toBe("stays");
    expect(await store.members("set")).toEqual(["stays"]);
  });
});

describe("on local disk", () => {
  let workerd: WorkerdStore;
  let disk: string;
  beforeAll(async () => {
    disk = await mkdtemp(join(tmpdir(), "typed-mcp-do-disk-"));
    workerd = await startWorkerdStore({ dir: disk });
  });
  afterAll(async () => {
    await workerd?.dispose();
    if (disk) await rm(disk, { recursive: true, force: true });
  });

  it("values, sets and the pending alarm survive workerd killed with SIGKILL and started again", async () => {
    const store = workerd.store("a", "counted");
    expect(await store.swap("task", undefined, '{"status":"completed"}', 600_000)).toBe(true);
    expect(await store.enter("running", "t1", Date.now() + 600_000)).toBe(true);
    // Long enough not to lapse before the restart below is done on a loaded machine.
    expect(await store.swap("soon", undefined, "expires", 5000)).toBe(true);
    const entries = await workerd.entries();
    await workerd.restart();
    expect(await workerd.store("b", "counted").get("task")).toBe('{"status":"completed"}');
    expect(await store.members("running")).toEqual(["t1"]);
    expect(await workerd.entries()).toBe(entries);
    // The alarm set before the restart fires after it and deletes the expired value.
    await eventually(async () => (await workerd.entries()) === entries - 1);
    expect(await store.get("soon")).toBeUndefined();
  });
});
