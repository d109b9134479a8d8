/** Test helpers for checking that no process is left behind (Linux /proc). */
import { readdirSync, readFileSync } from "node:fs";

/** Pids of this process's live (non-zombie) child processes. */
export function childPids(): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[1]) === process.pid && fields[0] !== "Z") pids.push(Number(entry));
    } catch {
      /* the process ended meanwhile */
    }
  }
  return pids;
}

/** Command lines of this process's live child processes. */
export function childCommandLines(): string[] {
  return childPids().flatMap((pid) => {
    try {
      return [readFileSync(`/proc/${pid}/cmdline`, "utf8").replace(/\0/g, " ").trim()];
    } catch {
      return [];
    }
  });
}
