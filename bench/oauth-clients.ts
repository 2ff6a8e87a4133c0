import type { Effect as Fx } from "effect"
import { execFileSync } from "node:child_process"
import { createHash, randomBytes } from "node:crypto"
import { existsSync, mkdirSync } from "node:fs"
import { join, resolve } from "node:path"
import { pathToFileURL } from "node:url"

const clientCount = Number(process.env.BENCH_OAUTH_CLIENTS ?? 5000)
const exchanges = Number(process.env.BENCH_OAUTH_CLIENTS_EXCHANGES ?? 40)

/**
 * Token-endpoint CPU with `clientCount` registered clients, before and after the clients moved out
 * of the OAuth document into `oauth_clients` (migration 70), in the same process: "before" is the
 * source tree of the commit before that migration (extracted with `git archive`), "after" this
 * tree. Each side gets an in-memory PGlite store, the same clients (seeded directly: the old code
 * rewrote the whole document per registration, so registering 5,000 through it takes minutes),
 * one user and one client that signs in `exchanges` times. Only the `token` calls are timed, by
 * this process's user+system CPU (`process.cpuUsage`): code exchanges and refresh exchanges.
 */
const beforeTree = () => {
  const introduced = execFileSync("git", [
    "log",
    "-1",
    "--format=%H",
    "-S70_oauth_clients",
    "--",
    "src/services/store/migrations/hardening.ts"
  ], { encoding: "utf8" }).trim()
  const ref = process.env.BENCH_OAUTH_CLIENTS_BEFORE ?? `${introduced}^`
  const sha = execFileSync("git", ["rev-parse", ref], { encoding: "utf8" }).trim()
  // under bench/results (ignored by git) so its imports resolve to this checkout's node_modules
  const directory = resolve("bench", "results", `.before-${sha.slice(0, 12)}`)
  if (!existsSync(join(directory, "src"))) {
    mkdirSync(directory, { recursive: true })
    execFileSync("sh", ["-c", `git archive ${sha} src | tar -x -C ${JSON.stringify(directory)}`])
  }
  return { sha, root: join(directory, "src") }
}

const load = (root: string, path: string) => import(pathToFileURL(join(root, path)).href)

const metadataOf = (i: number) => ({
  redirect_uris: [`https://client-${i}.example/callback`],
  application_type: "web",
  token_endpoint_auth_method: "none",
  grant_types: ["authorization_code", "refresh_token"],
  response_types: ["code"],
  client_name: `Registered client ${i}`,
  client_uri: `https://client-${i}.example`
})

const clientsToSeed = () => {
  const issuedAt = Date.now() - 3600_000
  // one fewer than the total: the bench's own client registers through the service (cap 5,000)
  return Array.from({ length: clientCount - 1 }, (_, i) => ({
    clientId: `svc_client_seed${String(i).padStart(6, "0")}`,
    issuedAt,
    metadata: metadataOf(i)
  }))
}

const measure = async (root: string, layout: "document" | "rows") => {
  const { Effect, Layer, Logger, LogLevel } = await import("effect")
  const { SqlClient } = await import("@effect/sql/SqlClient")
  const AppConfig = await load(root, "services/AppConfig.ts")
  const Pglite = await load(root, "services/store/Pglite.ts")
  const Migrations = await load(root, "services/store/Migrations.ts")
  const UserDirectory = await load(root, "services/UserDirectory.ts")
  const OAuthServer = await load(root, "services/OAuthServer.ts")
  const SqlDocument = await load(root, "services/accounts/SqlDocument.ts")
  const Accounts = await load(root, "domain/Accounts.ts")
  const Grants = await load(root, "services/oauth/Grants.ts")

  const seeded = clientsToSeed()
  const program = Effect.gen(function*() {
    const sql = yield* SqlClient
    yield* Migrations.run
    if (layout === "document") {
      const document = yield* SqlDocument.make({
        name: "oauth",
        schema: Accounts.OAuthDocument,
        empty: Grants.emptyDocument
      })
      yield* document.update((current: { clients: object }) => [
        undefined,
        { ...current, clients: Object.fromEntries(seeded.map((client) => [client.clientId, client])) }
      ])
    } else {
      for (let i = 0; i < seeded.length; i += 500) {
        yield* sql`INSERT INTO oauth_clients ${
          sql.insert(
            seeded.slice(i, i + 500).map((client) => ({
              clientId: client.clientId,
              issuedAt: client.issuedAt,
              secretHash: null,
              metadata: JSON.stringify(client.metadata)
            }))
          )
        }`
      }
    }
    const users = yield* UserDirectory.makeEmbedded
    yield* users.add({ email: "bench@example.com", password: "bench-password-1", tier: "paid" })
    const server = yield* OAuthServer.make
    const redirect = "http://127.0.0.1:9/callback"
    const client = yield* server.register({
      client_name: "bench",
      redirect_uris: [redirect],
      application_type: "native",
      grant_types: ["authorization_code", "refresh_token"],
      token_endpoint_auth_method: "none"
    })
    const timed = { code: 0, refresh: 0 }
    const cpu = <A>(key: keyof typeof timed, effect: Fx.Effect<A, unknown, never>) =>
      Effect.gen(function*() {
        const start = process.cpuUsage()
        const result = yield* effect
        const used = process.cpuUsage(start)
        timed[key] += used.user + used.system
        return result
      })
    const request = { authorization: undefined, userAgent: "bench" }
    for (let i = 0; i < exchanges; i++) {
      const verifier = randomBytes(32).toString("base64url")
      const consent = yield* server.beginAuthorization(
        new URLSearchParams({
          response_type: "code",
          client_id: client.client_id,
          redirect_uri: redirect,
          code_challenge: createHash("sha256").update(verifier).digest("base64url"),
          code_challenge_method: "S256"
        })
      )
      const decided = yield* server.completeAuthorization({
        handle: consent.handle,
        email: "bench@example.com",
        password: "bench-password-1",
        approve: true,
        address: undefined
      })
      const code = new URL(decided.location).searchParams.get("code")!
      const tokens = yield* cpu<{ readonly refresh_token: string }>(
        "code",
        server.token(
          new URLSearchParams({
            grant_type: "authorization_code",
            code,
            redirect_uri: redirect,
            code_verifier: verifier,
            client_id: client.client_id
          }),
          request
        )
      )
      yield* cpu(
        "refresh",
        server.token(
          new URLSearchParams({
            grant_type: "refresh_token",
            refresh_token: tokens.refresh_token,
            client_id: client.client_id
          }),
          request
        )
      )
    }
    return {
      codeExchangeCpuUs: Math.round(timed.code / exchanges),
      refreshExchangeCpuUs: Math.round(timed.refresh / exchanges)
    }
  })
  const layer = Layer.mergeAll(
    UserDirectory.layerEmbedded,
    AppConfig.layerWith({
      publicBaseUrl: "http://127.0.0.1:9",
      authUrl: "http://127.0.0.1:9"
    })
  ).pipe(Layer.provideMerge(Pglite.layer({})))
  const runnable = program.pipe(Effect.provide(layer), Effect.scoped, Logger.withMinimumLogLevel(LogLevel.Warning))
  return Effect.runPromise(runnable as Fx.Effect<Measured, unknown>)
}

interface Measured {
  readonly codeExchangeCpuUs: number
  readonly refreshExchangeCpuUs: number
}

export const run = async () => {
  const before = beforeTree()
  const rounds: Array<{ readonly before: Measured; readonly after: Measured }> = []
  // alternated, so a change in the machine's load falls on both sides alike
  for (let round = 0; round < 2; round++) {
    const old = await measure(before.root, "document")
    const now = await measure(resolve("src"), "rows")
    rounds.push({ before: old, after: now })
    console.log(`  round ${round + 1}: before ${JSON.stringify(old)} after ${JSON.stringify(now)}`)
  }
  const median = (values: ReadonlyArray<number>) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
  const summary = (pick: (side: Measured) => number) => {
    const old = median(rounds.map((round) => pick(round.before)))
    const now = median(rounds.map((round) => pick(round.after)))
    return { beforeUs: old, afterUs: now, ratio: Number((old / now).toFixed(2)) }
  }
  return {
    clients: clientCount,
    exchanges,
    beforeCommit: before.sha,
    codeExchange: summary((side) => side.codeExchangeCpuUs),
    refreshExchange: summary((side) => side.refreshExchangeCpuUs),
    rounds,
    loadAverage: (await import("node:os")).loadavg()
  }
}
