import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Layer, Redacted, Schema, Scope } from "effect"
import { execFile } from "node:child_process"
import { writeFile } from "node:fs/promises"
import { join } from "node:path"
import { promisify } from "node:util"
import { migrated } from "../../src/layers/Store.ts"
import { make } from "../../src/services/accounts/DocumentStore.ts"
import * as Postgres from "../../src/services/store/Postgres.ts"
import { cliCommand } from "../support/CliEnv.ts"
import {
  addUsersTo,
  freeUser,
  newDataDir,
  principalOf,
  publicAppWithProbeOn,
  signInFlow
} from "../support/OAuthDriver.ts"
import { databaseConfig, scratchDatabase } from "../support/SqlEngines.ts"
import { type RunningServer, startServer } from "../support/TestServer.ts"

const Counter = Schema.Struct({ count: Schema.Int })

describe("embedded document store", () => {
  it.scopedLive(
    "loses no write when two processes' stores update one file, and each sees the other's writes",
    () =>
      Effect.gen(function*() {
        const path = join(yield* Effect.promise(newDataDir), "counter.json")
        const a = yield* make({ path, schema: Counter, empty: { count: 0 }, refreshMillis: 20 })
        const b = yield* make({ path, schema: Counter, empty: { count: 0 }, refreshMillis: 20 })
        const increment = (store: typeof a) => store.update((doc) => [undefined, { count: doc.count + 1 }] as const)
        const writes = Array.from({ length: 20 }, (_, i) => increment(i % 2 === 0 ? a : b))
        yield* Effect.all(writes, { concurrency: "unbounded" })
        expect(yield* a.update((doc) => [doc.count, doc] as const)).toBe(20)
        // a write in a later clock tick than any of b's own, so the file's version surely differs
        yield* Effect.sleep("20 millis")
        yield* increment(a)
        let seen = 0
        for (let attempt = 0; attempt < 100 && seen !== 21; attempt++) {
          yield* Effect.sleep("20 millis")
          seen = (yield* b.current).count
        }
        expect(seen).toBe(21)
      }),
    { timeout: 30_000 }
  )

  it.scoped("refuses to start on a file that does not decode, rather than replacing it", () =>
    Effect.gen(function*() {
      const path = join(yield* Effect.promise(newDataDir), "broken.json")
      yield* Effect.promise(() => writeFile(path, "{\"count\": \"many\"}"))
      const exit = yield* Effect.exit(make({ path, schema: Counter, empty: { count: 0 } }))
      expect(Exit.isFailure(exit)).toBe(true)
    }))
})

const run = promisify(execFile)

// Two processes on one store need a store server: the CLI and the service share a PostgreSQL
// database here (the embedded database belongs to one process at a time).
describe("operator CLI next to a running server on PostgreSQL", () => {
  let server: RunningServer
  let dataDir: string
  let databaseUrl: string
  const scope = Effect.runSync(Scope.make())
  beforeAll(async () => {
    dataDir = await newDataDir()
    databaseUrl = (await Effect.runPromise(Scope.extend(scratchDatabase, scope))).url
    const store = migrated(Postgres.layer(Redacted.make(databaseUrl), databaseConfig(databaseUrl)), "postgresql")
    const built = await Effect.runPromise(Layer.buildWithScope(store, scope))
    await addUsersTo(Layer.succeedContext(built), [freeUser])
    server = await startServer({ config: { dataDir }, app: publicAppWithProbeOn(Layer.succeedContext(built)) })
  }, 120_000)
  afterAll(async () => {
    await server.close()
    await Effect.runPromise(Scope.close(scope, Exit.void))
  })

  /** Each CLI run starts a Node process: a second or more of CPU on a busy machine. */
  const cliBudget = 240_000
  const cli = (...args: Array<string>) =>
    run(cliCommand[0], [...cliCommand.slice(1), "accounts", ...args], {
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: databaseUrl }
    })

  const eventually = async (check: () => Promise<boolean>) => {
    for (let attempt = 0; attempt < 50 && !(await check()); attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    expect(await check()).toBe(true)
  }

  it("changes a user's tier and revokes a client; the server follows within seconds", async () => {
    const { clientId, tokens } = await signInFlow(server.url, freeUser)
    expect(await principalOf(server.url, tokens.access_token)).toMatchObject({ tier: "free" })

    await cli("users", "set-tier", freeUser.email, "paid")
    await eventually(async () => (await principalOf(server.url, tokens.access_token)).tier === "paid")

    const listed = (await cli("clients", "list")).stdout
    expect(listed).toContain(clientId)
    expect(listed).toContain("Test MCP client")
    expect(listed).toContain("1 live of 1 connections")
    expect(listed).toContain("via http://127.0.0.1:9/callback")
    expect(listed).not.toContain(tokens.access_token)

    await cli("clients", "revoke", clientId)
    await eventually(async () => (await principalOf(server.url, tokens.access_token))._tag === "Anonymous")
    expect((await cli("clients", "list")).stdout).toContain("revoked")
  }, cliBudget)

  it("exits 2 naming the argument on bad usage, 1 when what it names does not exist", async () => {
    await expect(cli("users", "set-tier", freeUser.email, "gold")).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining("<tier> must be one of free, paid (got \"gold\")")
    })
    await expect(cli("users", "add", "bad-email")).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining("<email> must be an e-mail address such as ada@example.com (got \"bad-email\")")
    })
    await expect(cli("clients", "revoke", "svc_client_nope")).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining("error: no client svc_client_nope")
    })
  }, cliBudget)
})
