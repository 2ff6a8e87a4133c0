import { availableParallelism } from "node:os"
import { defineConfig } from "vitest/config"
import { wasmTieringFlag } from "./test/support/WasmTiering.ts"

// vitest's default for the forks pool is one worker fewer than the cores, which is a single worker on
// the 2-core CI machine: every file then waits for the one before it, although most files spend much
// of their time waiting on loopback servers, child processes and timers rather than computing
const workers = Math.max(2, availableParallelism())

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    setupFiles: ["test/setup.ts"],
    globalSetup: ["test/support/PgliteTemplate.ts", "test/support/CliBundle.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // most test files start an embedded PGlite: see test/support/WasmTiering.ts
    poolOptions: { forks: { execArgv: [wasmTieringFlag] } },
    maxWorkers: workers,
    minWorkers: workers
  }
})
