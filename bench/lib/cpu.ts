import { readFileSync } from "node:fs"

/** User + system CPU milliseconds a process has used so far (Linux `/proc/<pid>/stat`, clock ticks of 10 ms). */
export const cpuMillis = (pid: number): number => {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
  // the command name may hold spaces: the fields after it start past its closing parenthesis
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
  return (Number(fields[11]) + Number(fields[12])) * 10
}

/** Runs `work` and returns the CPU milliseconds the process `pid` spent meanwhile. */
export const cpuDuring = async <A>(pid: number, work: () => Promise<A>): Promise<{ result: A; cpuMs: number }> => {
  const before = cpuMillis(pid)
  const result = await work()
  return { result, cpuMs: cpuMillis(pid) - before }
}
