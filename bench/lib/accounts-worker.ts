import { Cause, Effect, Layer, Logger, LogLevel, Queue } from "effect"
import { existsSync } from "node:fs"
import { join } from "node:path"
import { PerformanceObserver } from "node:perf_hooks"
import pg from "pg"
import { migrated } from "../../src/layers/Store.ts"
import * as Tracing from "../../src/layers/Tracing.ts"
import * as AppConfig from "../../src/services/AppConfig.ts"
import * as Credits from "../../src/services/Credits.ts"
import * as KeyStore from "../../src/services/KeyStore.ts"
import * as Pglite from "../../src/services/store/Pglite.ts"
import {
  backendsCpu,
  block,
  emptySamples,
  perRound,
  postgresLayer,
  rounds,
  sqlAccounts,
  type StoreName,
  subject,
  summary,
  warmup
} from "./accounts-store.ts"
import { adminUrl } from "./database.ts"

/**
 * One store of `bench/accounts.ts` in a process of its own: it warms up, then runs a block each
 * time the parent asks (the parent takes the stores in turn, so one runs at a time), and answers
 * its summary at the end. A process per store is what a deployment has: another store's garbage
 * is not collected during its requests, and its code is not deoptimized by another store's shapes
 * (three stores in one process kept V8 recompiling hundreds of functions through the whole run).
 */
export type Command = { readonly kind: "block" } | { readonly kind: "finish" }
export type Reply =
  | { readonly kind: "ready" }
  | { readonly kind: "done" }
  | { readonly kind: "summary"; readonly summary: ReturnType<typeof summary> }
  | { readonly kind: "failed"; readonly message: string }

const [name, dataDir, url] = process.argv.slice(2) as [StoreName, string, string | undefined]
// only as a child of `bench/accounts.ts`, which talks to it over IPC
if (process.send === undefined || process.env.BENCH_ACCOUNTS_STORE !== name) {
  throw new Error("accounts-worker.ts runs only as a store process of bench/accounts.ts")
}
const send = (reply: Reply) =>
  Effect.async<void>((resume) => {
    process.send!(reply, () => resume(Effect.void))
  })

const store = Effect.gen(function*() {
  if (name === "json") {
    return yield* subject(
      name,
      Layer.mergeAll(KeyStore.layerJsonFile, Credits.layerJsonFile).pipe(
        Layer.provide(AppConfig.layerWith({ dataDir }))
      )
    )
  }
  if (name === "embedded") {
    return yield* subject(name, sqlAccounts(migrated(Pglite.layer({ dataDir: join(dataDir, "db") }), "embedded")))
  }
  const admin = yield* Effect.acquireRelease(
    Effect.promise(async () => {
      const client = new pg.Client({ connectionString: adminUrl })
      await client.connect()
      return client
    }),
    (client) => Effect.promise(() => client.end())
  )
  const database = new URL(url!).pathname.slice(1)
  return yield* subject(
    name,
    sqlAccounts(postgresLayer(url!)),
    existsSync("/proc/self/stat") ? backendsCpu(admin, database) : undefined
  )
})

const serve = Effect.gen(function*() {
  const commands = yield* Queue.unbounded<Command>()
  process.on("message", (command: Command) => Queue.unsafeOffer(commands, command))
  const measured = yield* store
  for (let i = 0; i < warmup; i++) yield* Effect.zipRight(measured.lookup, measured.charge)
  const samples = emptySamples()
  const gcs: Array<readonly [number, number]> = []
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) gcs.push([entry.startTime, entry.startTime + entry.duration])
  })
  observer.observe({ entryTypes: ["gc"] })
  yield* send({ kind: "ready" })
  while ((yield* Queue.take(commands)).kind === "block") {
    yield* block(measured, samples)
    yield* send({ kind: "done" })
  }
  const spent = yield* measured.spent
  const expected = warmup + 2 * rounds * perRound
  if (spent !== expected) return yield* Effect.die(`${name}: spent ${spent}, expected ${expected}`)
  // the observer is told of collections a moment after they happened
  yield* Effect.sleep("50 millis")
  observer.disconnect()
  yield* send({ kind: "summary", summary: summary(samples, gcs) })
}).pipe(
  Effect.scoped,
  // as the service runs them: its entries assemble the app with tracing off
  Effect.provide(Tracing.disabled),
  Logger.withMinimumLogLevel(LogLevel.Warning),
  Effect.catchAllCause((cause) => send({ kind: "failed", message: Cause.pretty(cause) }))
)

await Effect.runPromise(serve)
process.disconnect()
