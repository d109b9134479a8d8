/**
 * `toggle-simulated-logging` and `toggle-subscriber-updates`: start or stop, for this process's
 * connection, a log message of a random level (`McpServer.log`) / a
 * `notifications/resources/updated` for every subscribed URI (`McpServer.subscribedUris`,
 * `resourceUpdated`) now and then every 5 s. The original keys them by its HTTP session id;
 * typed-mcp's 2025-era HTTP is stateless (no session, no stream to deliver on), so here one
 * process is one session and the id is `undefined`, as on the original's stdio.
 */
import { tool, type LogLevel, type McpServer } from "typed-mcp";

/** The pace of both simulations, in milliseconds (the original's 5 seconds). */
const PACE_MS = 5000;

/** The session id the original reports; over stdio it has none. */
const SESSION: string | undefined = undefined;

const suffix = SESSION ? ` - SessionId ${SESSION}` : "";
/** The original's eight messages, one per MCP log level. */
const MESSAGES: ReadonlyArray<{ level: LogLevel; data: string }> = [
  { level: "debug", data: `Debug-level message${suffix}` },
  { level: "info", data: `Info-level message${suffix}` },
  { level: "notice", data: `Notice-level message${suffix}` },
  { level: "warning", data: `Warning-level message${suffix}` },
  { level: "error", data: `Error-level message${suffix}` },
  { level: "critical", data: `Critical-level message${suffix}` },
  { level: "alert", data: `Alert level-message${suffix}` },
  { level: "emergency", data: `Emergency-level message${suffix}` },
];

export class Toggles {
  #logging: ReturnType<typeof setInterval> | undefined;
  #updates: ReturnType<typeof setInterval> | undefined;

  constructor(private readonly server: McpServer) {}

  /** Toggles simulated, random-leveled logging on or off. */
  @tool({
    name: "toggle-simulated-logging",
    task: "forbidden",
    title: "Toggle Simulated Logging",
    readOnly: false,
    destructive: false,
    idempotent: false,
    openWorld: false,
  })
  toggleSimulatedLogging(): string {
    if (this.#logging !== undefined) {
      clearInterval(this.#logging);
      this.#logging = undefined;
      return `Stopped simulated logging for session ${SESSION}`;
    }
    const send = (): void => {
      const { level, data } = MESSAGES[Math.floor(Math.random() * MESSAGES.length)]!;
      void this.server.log(level, data);
    };
    send();
    this.#logging = setInterval(send, PACE_MS).unref();
    return `Started simulated, random-leveled logging for session ${SESSION} at a 5 second pace. Client's selected logging level will be respected. If an interval elapses and the message to be sent is below the selected level, it will not be sent. Thus at higher chosen logging levels, messages should arrive further apart. `;
  }

  /** Toggles simulated resource subscription updates on or off. */
  @tool({
    name: "toggle-subscriber-updates",
    task: "forbidden",
    title: "Toggle Subscriber Updates",
    readOnly: false,
    destructive: false,
    idempotent: false,
    openWorld: false,
  })
  toggleSubscriberUpdates(): string {
    if (this.#updates !== undefined) {
      clearInterval(this.#updates);
      this.#updates = undefined;
      return `Stopped simulated resource updates for session ${SESSION}`;
    }
    const send = (): void => {
      for (const uri of this.server.subscribedUris()) void this.server.resourceUpdated(uri);
    };
    send();
    this.#updates = setInterval(send, PACE_MS).unref();
    return `Started simulated resource updated notifications for session ${SESSION} at a 5 second pace. Client will receive updates for any resources the it is subscribed to.`;
  }
}
