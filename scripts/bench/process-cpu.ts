import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/** Linux's /proc counts CPU time in ticks of this length (USER_HZ, 100 on every kernel built the usual way). */
const TICKS_PER_SECOND = 100;

/** A process's fields after its command's closing parenthesis: state, ppid, … utime, stime, cutime, cstime. */
function statFields(pid: number | string): number[] | null {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return null; // ended, or no /proc
  }
  return stat
    .slice(stat.lastIndexOf(")") + 2)
    .split(" ")
    .map(Number);
}

/** CPU seconds a process (every thread of it) has used so far; null where Linux's /proc does not say. */
export function processCpuSeconds(pid: number): number | null {
  const fields = statFields(pid);
  return fields ? (fields[11]! + fields[12]!) / TICKS_PER_SECOND : null;
}

/**
 * CPU seconds the embedded PostgreSQL in `dataDir` has used so far: the server's own, its live
 * processes' (backends, WAL writer, checkpointer) and those of the processes it has reaped. From
 * Linux's /proc; null where there is none. Beside the Node process's own, it says which side a
 * workload's time went to, and how much of the machine's cores it kept busy.
 */
export function postgresCpuSeconds(dataDir: string): number | null {
  try {
    const server = Number(readFileSync(path.join(dataDir, "pg", "postmaster.pid"), "utf8").split("\n")[0]);
    let ticks = 0;
    for (const entry of readdirSync("/proc")) {
      if (!/^\d+$/.test(entry)) continue;
      const fields = statFields(entry);
      if (!fields) continue;
      if (Number(entry) === server) ticks += fields[11]! + fields[12]! + fields[13]! + fields[14]!;
      else if (fields[1] === server) ticks += fields[11]! + fields[12]!;
    }
    return ticks / TICKS_PER_SECOND;
  } catch {
    return null;
  }
}
