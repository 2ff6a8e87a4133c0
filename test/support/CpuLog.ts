import { appendFileSync, readFileSync } from "node:fs"
import { afterAll, expect } from "vitest"

/**
 * `ECDS_TEST_CPU_LOG=<file> npx vitest run …` appends one JSON line per test file with the CPU
 * seconds its worker process used, its own and that of the child processes it waited for (the
 * `ecds` starts, PGlite helpers …): the suite is CPU-bound on CI, and wall times on a loaded
 * machine do not say which file costs what. Linux only (`/proc`); each file has its own worker.
 */
export const logCpuPerFile = (file: string) =>
  afterAll(() => {
    // fields after the parenthesised command name: utime, stime, cutime, cstime are 14 to 17
    const fields = readFileSync("/proc/self/stat", "utf8").replace(/^.*\) /s, "").split(" ")
    const ticks = fields.slice(11, 15).map(Number)
    const seconds = (value: number) => Math.round(value) / 100
    appendFileSync(
      file,
      `${
        JSON.stringify({
          file: expect.getState().testPath,
          pid: process.pid,
          own: seconds(ticks[0]! + ticks[1]!),
          children: seconds(ticks[2]! + ticks[3]!)
        })
      }\n`
    )
  })
