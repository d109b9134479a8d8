/**
 * Timers with delays of any length. `setTimeout` keeps a delay in a signed 32-bit integer
 * (HTML "timer initialization steps"; Node and workerd alike): a delay above 2³¹ − 1 ms (about
 * 24.8 days) is replaced by 1 ms, so a 30-day task retention or request timeout would fire at once
 * (Node prints a `TimeoutOverflowWarning`). Every timer in typed-mcp whose delay comes from a
 * client or an option goes through {@link setLongTimeout}.
 *
 * @module
 */

/** The longest delay one `setTimeout` keeps: 2³¹ − 1 ms (2,147,483,647 ms ≈ 24.86 days). */
export const MAX_TIMER_DELAY_MS = 2 ** 31 - 1;

/** A timer made by {@link setLongTimeout}. */
export interface LongTimer {
  /** Cancels the timer (the callback never runs); idempotent. */
  clear(): void;
}

/**
 * Calls `callback` once after `delayMs` milliseconds, however long: a delay above
 * {@link MAX_TIMER_DELAY_MS} is a chain of `setTimeout`s of at most that length each.
 *
 * @param delayMs A non-negative number of milliseconds (a fraction is kept as `setTimeout` keeps
 *   it; `Infinity` never fires).
 * @param options `unref: true` lets the process exit while the timer is pending (Node; ignored
 *   where timers have no `unref`).
 */
export function setLongTimeout(callback: () => void, delayMs: number, options: { unref?: boolean } = {}): LongTimer {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let cleared = false;
  const arm = (remaining: number): void => {
    const step = Math.min(remaining, MAX_TIMER_DELAY_MS);
    timer = setTimeout(() => {
      if (cleared) return;
      if (remaining - step > 0) arm(remaining - step);
      else callback();
    }, step);
    if (options.unref === true) (timer as { unref?: () => void }).unref?.();
  };
  arm(Math.max(0, delayMs));
  return {
    clear() {
      cleared = true;
      clearTimeout(timer);
    },
  };
}
