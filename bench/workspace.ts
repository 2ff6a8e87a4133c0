import { SqlClient } from "@effect/sql/SqlClient"
import { Effect, Layer, ManagedRuntime } from "effect"
import { randomBytes } from "node:crypto"
import pg from "pg"
import type { Transaction } from "../src/domain/workspace/Transactions.ts"
import * as Transactions from "../src/services/workspace/Transactions.ts"
import { postgresStore } from "./lib/database.ts"
import { percentiles } from "./lib/percentiles.ts"

/** The PostgreSQL server the bench creates its scratch database on (trust auth on development machines). */
const adminUrl = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test"

const total = 100_000
/** Other workspaces' rows in the same table, so the workspace column has to do its job. */
const others = 50_000
const rounds = 500
const syncs = 2_000

const admin = async (statement: string) => {
  const client = new pg.Client({ connectionString: adminUrl })
  await client.connect()
  try {
    await client.query(statement)
  } finally {
    await client.end()
  }
}

const statuses = ["complete", "pending", "flagged"] as const

const transactionOf = (n: number): Transaction => {
  const day = `20${String(20 + (n % 7))}-${String((n % 12) + 1).padStart(2, "0")}-${
    String((n % 28) + 1).padStart(2, "0")
  }`
  const at = `${day}T10:00:00.000Z`
  return {
    reference: `SO-${String(n).padStart(7, "0")}`,
    date: day,
    status: statuses[n % 3]!,
    open_steps: [],
    destination: "DE",
    parties: [{ name: `Benchmark Consignee ${n % 997} GmbH`, role: "consignee", country: "DE" }],
    items: [{ description: "Benchmark item", eccn: "3A001.b.5", jurisdiction: "EAR" }],
    events: [{ type: "classify", status: "complete", summary: "3A001.b.5 per memo", at }],
    created_at: at,
    updated_at: at
  }
}

/** Bulk load in multi-row inserts (the service writes one row per sync; loading 150,000 that way is not the point). */
const load = (sql: SqlClient, workspace: string, count: number, offset: number) =>
  Effect.forEach(Array.from({ length: Math.ceil(count / 1000) }, (_, batch) => batch), (batch) => {
    const rows = Array.from({ length: Math.min(1000, count - batch * 1000) }, (_, i) => {
      const transaction = transactionOf(offset + batch * 1000 + i)
      return {
        workspace,
        reference: transaction.reference,
        day: transaction.date,
        status: transaction.status,
        updatedAt: transaction.updated_at,
        record: JSON.stringify(transaction)
      }
    })
    return sql`INSERT INTO workspace_transactions ${sql.insert(rows)}`
  }, { discard: true })

const timeIt = async (run: (round: number) => Promise<unknown>) => {
  for (let n = 0; n < 20; n++) await run(n)
  const samples: Array<number> = []
  for (let n = 0; n < rounds; n++) {
    const started = performance.now()
    await run(n)
    samples.push(performance.now() - started)
  }
  return percentiles(samples)
}

/**
 * `list_compliance_transactions` on PostgreSQL: a page of 50 out of 100,000 transactions of one
 * workspace (plus 50,000 of another in the same table), first pages and deep pages by cursor, in
 * process (service call, no HTTP). Baseline in the same run: the same page by OFFSET, the usual
 * alternative to a keyset cursor. Then `sync_compliance_transaction` throughput, sequential and 8
 * at a time.
 */
export const run = async () => {
  const name = `ecds_bench_${randomBytes(5).toString("hex")}`
  await admin(`CREATE DATABASE ${name}`)
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  const store = postgresStore(url.href, { poolSize: 8, statementTimeoutMillis: 30_000 })
  const runtime = ManagedRuntime.make(Transactions.layer.pipe(Layer.provideMerge(store), Layer.orDie))
  try {
    const loadStarted = performance.now()
    await runtime.runPromise(
      Effect.flatMap(
        SqlClient,
        (sql) => Effect.zipRight(load(sql, "key:bench", total, 0), load(sql, "key:other", others, total))
      )
    )
    await runtime.runPromise(Effect.flatMap(SqlClient, (sql) => sql`ANALYZE workspace_transactions`))
    const loadMillis = Math.round(performance.now() - loadStarted)
    const service = await runtime.runPromise(Transactions.Transactions)
    const page = (params: Parameters<typeof service.list>[1]) => runtime.runPromise(service.list("key:bench", params))

    // cursors spread over the whole list, collected once by walking it in pages of 100
    const cursors: Array<string> = []
    let cursor: string | null = null
    do {
      const next: Awaited<ReturnType<typeof page>> = await page({ limit: 100, ...(cursor === null ? {} : { cursor }) })
      cursor = next.next_cursor
      if (cursor !== null) cursors.push(cursor)
    } while (cursor !== null)

    const first = await timeIt(() => page({ limit: 50 }))
    const deep = await timeIt((n) => page({ limit: 50, cursor: cursors[(n * 7919) % cursors.length]! }))
    const flagged = await timeIt(() => page({ limit: 50, status: "flagged" }))
    const offsetBaseline = await timeIt((n) =>
      runtime.runPromise(
        Effect.flatMap(SqlClient, (sql) =>
          sql`SELECT record FROM workspace_transactions WHERE workspace = ${"key:bench"}
          ORDER BY day DESC, reference DESC LIMIT 50 OFFSET ${((n * 7919) % cursors.length) * 100}`)
      )
    )

    const sequentialStarted = performance.now()
    for (let n = 0; n < syncs; n++) {
      await runtime.runPromise(service.sync("key:bench", {
        reference: `NEW-${n}`,
        events: [{ type: "screen", status: "complete", summary: "clear" }]
      }))
    }
    const sequentialSeconds = (performance.now() - sequentialStarted) / 1000
    const concurrentStarted = performance.now()
    await runtime.runPromise(Effect.forEach(
      Array.from({ length: syncs }, (_, n) => n),
      (n) =>
        service.sync("key:bench", {
          reference: `NEW-${n % 500}`,
          events: [{ type: "license", status: "complete", summary: "NLR" }]
        }),
      { concurrency: 8, discard: true }
    ))
    const concurrentSeconds = (performance.now() - concurrentStarted) / 1000

    return {
      description: `list_compliance_transactions page of 50 out of ${total} transactions of one workspace ` +
        `(+${others} of another) on PostgreSQL, in process, ${rounds} rounds each; keyset cursor vs OFFSET ` +
        `baseline at the same depths; then ${syncs} syncs sequential and 8 at a time`,
      goal: "page of 50 p99 under 10 ms",
      load_ms: loadMillis,
      list_first_page_ms: first,
      list_deep_page_by_cursor_ms: deep,
      list_flagged_first_page_ms: flagged,
      offset_baseline_deep_page_ms: offsetBaseline,
      p99_ratio_cursor_over_offset: Math.round((deep.p99 / Math.max(offsetBaseline.p99, 0.01)) * 100) / 100,
      sync_per_second: {
        sequential: Math.round(syncs / sequentialSeconds),
        concurrency_8_same_500_references: Math.round(syncs / concurrentSeconds)
      }
    }
  } finally {
    await runtime.dispose()
    await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
  }
}
