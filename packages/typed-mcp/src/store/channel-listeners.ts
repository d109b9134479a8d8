/**
 * The in-process pub/sub of the stores that keep their listeners themselves (`MemoryStateStore`,
 * the store inside `TypedMcpStore`): listeners by channel, delivered in a later turn as a network
 * store would (docs/scaling.md "The store interface").
 *
 * @module
 */
/** Listeners by channel name; a channel's set is dropped when its last listener leaves. */
export class ChannelListeners {
  readonly #channels = new Map<string, Set<(message: string) => void>>();

  /**
   * Adds `listener` to `channel`. Each call is its own subscription (the same function added twice
   * hears each message twice); the returned function (the store's `Unsubscribe`) removes this one only.
   */
  add(channel: string, listener: (message: string) => void): () => Promise<void> {
    const own = (message: string): void => listener(message);
    let listeners = this.#channels.get(channel);
    if (listeners === undefined) this.#channels.set(channel, (listeners = new Set()));
    listeners.add(own);
    return async () => {
      listeners.delete(own);
      if (listeners.size === 0 && this.#channels.get(channel) === listeners) this.#channels.delete(channel);
    };
  }

  /** Queues `message` for every listener of `channel` now subscribed, each in its own microtask. */
  deliver(channel: string, message: string): void {
    for (const listener of this.#channels.get(channel) ?? []) queueMicrotask(() => listener(message));
  }

  /** Drops every listener of every channel (the store's `close`). */
  clear(): void {
    this.#channels.clear();
  }
}
