/**
 * The write timeout of `serveHttp` (docs/security.md "Streams"): a response whose peer stops
 * reading — a large JSON answer, or an SSE stream whose socket buffer stays full — would otherwise
 * hold its unsent bytes (in Node's socket buffer, and behind it in the response stream's queue)
 * until the peer disconnects. Node's HTTP server has no such timeout (`server.timeout` is off by
 * default and counts idle time in both directions, so a healthy idle listen stream would trip it)
 * and the SDK's Node adapter has none either.
 *
 * The rule is the one nginx calls `send_timeout`: the timer runs only while output waits unsent,
 * and only a period of `timeoutMs` with no progress at all closes the connection — a reader that
 * keeps taking bytes is not cut. Progress is what the kernel takes from the process: a peer so slow
 * that the socket's kernel send buffer (typically 1–4 MB on Linux) does not make room within
 * `timeoutMs` counts as not reading.
 *
 * @module
 */
import type { ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { publishStreamClosed } from "./listen-streams.js";

/**
 * How far `socket` got: `[completed, inFlight]` — the bytes of writes the kernel has taken in
 * full (`bytesWritten` counts dispatched plus buffered bytes, `writableLength` in-flight plus
 * buffered ones, so their difference only grows), and the bytes libuv still holds of the write in
 * flight (`writeQueueSize`, which shrinks as one large write is sent piece by piece).
 */
function progressOf(socket: Socket): [completed: number, inFlight: number] {
  const handle = (socket as unknown as { _handle?: { writeQueueSize?: unknown } })._handle;
  const inFlight = typeof handle?.writeQueueSize === "number" ? handle.writeQueueSize : 0;
  return [socket.bytesWritten - socket.writableLength, inFlight];
}

/**
 * Whether output waits on `socket`: a write on `res` that asked to wait for `drain`, or bytes the
 * socket holds unsent. The latter outlives `res`: a response counts as finished (and is detached
 * from its socket) once its last bytes are handed to the socket, sent or not.
 */
function waiting(res: ServerResponse, socket: Socket): boolean {
  return !socket.destroyed && (res.writableNeedDrain || socket.writableNeedDrain || socket.writableLength > 0);
}

/**
 * Watches `res` and its socket: whenever a `write` returns `false` or `end` is called with output
 * still unsent, a timer of `timeoutMs` milliseconds starts; when it fires and no byte left the
 * socket since (see {@link progressOf}) and no `drain` happened, the socket is destroyed (its
 * buffers freed; the SDK adapter then aborts the request, which tears a listen stream down) and a
 * `write-timeout` notice is published on `typed-mcp:stream-closed`. Progress re-arms the timer; a
 * socket with nothing left unsent, or closed, stops it — also after `res` finished, since a
 * finished response's last bytes may still wait in the socket.
 *
 * @param res The response, before anything is written to it.
 * @param timeoutMs A positive number of milliseconds (`McpServerOptions.streams.writeTimeoutMs`).
 */
export function applyWriteTimeout(res: ServerResponse, timeoutMs: number): void {
  const socket = res.socket;
  if (socket === null) return;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let last: [number, number] = [0, 0];
  let drained = false;
  const rearm = () => {
    last = progressOf(socket);
    drained = false;
    timer = setTimeout(check, timeoutMs);
  };
  const check = () => {
    timer = undefined;
    if (!waiting(res, socket)) return done();
    const [completed, inFlight] = progressOf(socket);
    // Any change is progress: a write completed, the one in flight shrank, or a new one was dispatched.
    if (drained || completed !== last[0] || inFlight !== last[1]) return rearm();
    publishStreamClosed({ reason: "write-timeout", limit: timeoutMs, queuedBytes: socket.writableLength });
    socket.destroy();
  };
  const arm = () => {
    if (timer === undefined && waiting(res, socket)) rearm();
  };
  const write = res.write;
  const end = res.end;
  res.write = function (this: ServerResponse, ...args: Parameters<ServerResponse["write"]>) {
    const ok = write.apply(this, args);
    if (!ok) arm();
    return ok;
  } as ServerResponse["write"];
  res.end = function (this: ServerResponse, ...args: Parameters<ServerResponse["end"]>) {
    const result = end.apply(this, args);
    arm();
    return result;
  } as ServerResponse["end"];
  const onDrain = () => {
    drained = true;
    done();
  };
  // Stops watching once the response is over and nothing waits (a keep-alive socket serves many responses: no listener outlives its own).
  const done = (force = false) => {
    if (!force && (waiting(res, socket) || !(res.writableFinished || res.destroyed))) return;
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    socket.off("drain", onDrain);
    socket.off("close", onClose);
  };
  const onClose = () => done(true);
  socket.on("drain", onDrain);
  socket.once("close", onClose);
  res.once("finish", () => done());
  res.once("close", () => done());
}
