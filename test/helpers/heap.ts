/** Test helpers for measuring the memory this process holds (the streams and write-timeout tests). */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/** `gc()` of this process (V8's flag set at run time; vitest forks are not started with --expose-gc). */
function gc(): void {
  setFlagsFromString("--expose-gc");
  (runInNewContext("gc") as () => void)();
}

/** Heap plus off-heap buffers (Node's socket buffers among them), in bytes, after a full GC. */
export function heldBytes(): number {
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.external;
}
