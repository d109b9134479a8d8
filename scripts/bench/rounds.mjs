// Interleaved tinybench rounds, the method of every throughput row of `pnpm bench`: in each round
// every contestant runs in turn (the first round with a longer warm-up), so a change in the
// machine's load reaches all of them alike.
import { Bench } from "tinybench";

/**
 * Runs `contestants` (label → async function) for `rounds` rounds.
 * @returns per label, its throughput (ops/s) in each round, in round order.
 */
export async function interleavedRounds(contestants, { rounds, quick, name = "bench" }) {
  const samples = Object.fromEntries(Object.keys(contestants).map((k) => [k, []]));
  for (let round = 0; round < rounds; round++) {
    const bench = new Bench({ name, time: quick ? 50 : 200, warmupTime: round === 0 ? (quick ? 20 : 300) : 20 });
    for (const [label, run] of Object.entries(contestants)) bench.add(label, run);
    await bench.run();
    for (const t of bench.tasks) samples[t.name].push(t.result.throughput?.mean ?? t.result.hz);
  }
  return samples;
}

/**
 * The median of numbers, the one rule of every median `pnpm bench` reports: the middle value of the
 * sorted numbers, and of an even count the upper of the two middle ones (a measured value, never an
 * average of two). Every count a full run takes is odd (3 build rounds, 7 edits, 5 or 15 rounds).
 */
export const median = (xs) => xs.slice().sort((a, b) => a - b)[xs.length >> 1];
