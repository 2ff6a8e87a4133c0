import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Context, Effect, Exit, Layer, Logger, LogLevel, Redacted, Scope } from "effect"
import { randomBytes } from "node:crypto"
import pg from "pg"
import { migrated } from "../../src/layers/Store.ts"
import { issueSecret } from "../../src/services/accounts/Secrets.ts"
import * as SqlCredits from "../../src/services/accounts/SqlCredits.ts"
import * as AppConfig from "../../src/services/AppConfig.ts"
import { Credits } from "../../src/services/Credits.ts"
import * as KeysCommand from "../../src/services/KeysCommand.ts"
import { Prefix } from "../../src/services/oauth/Grants.ts"
import { makeSignIns } from "../../src/services/oauth/SignIns.ts"
import { makeSignInThrottle } from "../../src/services/oauth/SignInThrottle.ts"
import * as Postgres from "../../src/services/store/Postgres.ts"
import * as UserDirectory from "../../src/services/UserDirectory.ts"
import { minimalClassificationPayload } from "../fixtures/documents/classification.ts"
import { startTcpRelay, type TcpRelay } from "../support/Instances.ts"
import { modernPost } from "../support/mcp/McpTestApp.ts"
import { authorizationRequest } from "../support/OAuthDriver.ts"
import { adminUrl, databaseConfig } from "../support/SqlEngines.ts"
import { type RunningServer, startServer, testConfig } from "../support/TestServer.ts"

const onAdmin = async <A>(f: (client: pg.Client) => Promise<A>): Promise<A> => {
  const client = new pg.Client({ connectionString: adminUrl })
  await client.connect()
  try {
    return await f(client)
  } finally {
    await client.end()
  }
}

/** The store of the server under test, at `url` (the relay), giving up on a connection after a second. */
const storeAt = (url: string) =>
  migrated(Postgres.layer(Redacted.make(url), { ...databaseConfig(url), connectTimeoutMillis: 1_000 }), "postgresql")

/**
 * One server on a PostgreSQL reached through a relay the test cuts: while the store is away, a
 * credential that only the store can check is neither accepted nor refused but answered with an
 * honest 503 (REST problem, MCP JSON-RPC error, OAuth error), with Retry-After, and nothing is
 * charged; callers without credentials keep reading.
 */
describe("PostgreSQL unreachable: credentials cannot be checked", () => {
  const database = `ecds_t_${randomBytes(6).toString("hex")}`
  let relay: TcpRelay
  let url: string
  let server: RunningServer
  let key: string
  const scope = Effect.runSync(Scope.make())
  let store: ReturnType<typeof storeAt>

  beforeAll(async () => {
    await onAdmin((client) => client.query(`CREATE DATABASE ${database}`))
    relay = await startTcpRelay(Number(new URL(adminUrl).port || 5432))
    const viaRelay = new URL(adminUrl)
    viaRelay.port = String(relay.port)
    viaRelay.pathname = `/${database}`
    url = viaRelay.href
    store = storeAt(url)
    const config = testConfig()
    const created = await Effect.runPromise(
      KeysCommand.run(["create", "--label", "outage", "--credits", "3"]).pipe(
        Effect.provide(
          KeysCommand.stores.pipe(Layer.provideMerge(store), Layer.provideMerge(AppConfig.layerWith(config)))
        ),
        Effect.scoped,
        Logger.withMinimumLogLevel(LogLevel.Warning)
      )
    )
    key = /api key: (\S+)/.exec(created)![1]!
    server = await startServer({ config, store })
  }, 120_000)

  afterAll(async () => {
    await server?.close()
    await Effect.runPromise(Scope.close(scope, Exit.void))
    await relay?.close()
    await onAdmin((client) => client.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`))
  }, 60_000)

  const balance = () =>
    onAdmin(async () => {
      const client = new pg.Client({ connectionString: new URL(`/${database}`, adminUrl).href })
      await client.connect()
      try {
        const rows = await client.query(
          "SELECT balance, (SELECT count(*)::int FROM credit_holds) AS holds FROM credit_accounts"
        )
        return rows.rows[0] as { balance: number; holds: number }
      } finally {
        await client.end()
      }
    })

  it("answers 503 with Retry-After where the credential matters, serves free reads, charges nothing", async () => {
    const before = await balance()
    await relay.cut()
    try {
      // MCP: the call needs the key, which cannot be checked: a JSON-RPC error at 503, not a 401
      const call = await modernPost(server, "tools/call", {
        name: "create_classification_pdf",
        arguments: { payload: minimalClassificationPayload }
      }, { authorization: `Bearer ${key}` })
      expect(call.status).toBe(503)
      expect(call.headers.get("retry-after")).toBe("5")
      expect(call.headers.get("www-authenticate")).toBeNull()
      const rpc = await call.json()
      expect(rpc.error).toMatchObject({ code: -32001, data: { status: 503, error: "store_unavailable" } })
      expect(rpc.error.data.type).toBe(`${server.url}/problems/store-unavailable`)

      // an OAuth access token is checked against the same store
      const token = issueSecret(Prefix.access).value
      const byToken = await modernPost(server, "tools/call", { name: "get_eccn", arguments: { eccn: "5A002" } }, {
        authorization: `Bearer ${token}`
      })
      expect(byToken.status).toBe(503)

      // what anonymous callers may do, the caller still may: the catalogue is listed (its free part)
      const listed = await modernPost(server, "tools/list", {}, { authorization: `Bearer ${key}` })
      expect(listed.status).toBe(200)
      const names: Array<string> = (await listed.json()).result.tools.map((tool: { name: string }) => tool.name)
      expect(names).not.toContain("create_pdf")
      expect(names).toContain("get_eccn")

      // REST: a paid render with the key is 503 problem+json, a free read without credentials 200
      const render = await fetch(`${server.url}/pdf/classification`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify(minimalClassificationPayload)
      })
      expect(render.status).toBe(503)
      expect(render.headers.get("content-type")).toContain("application/problem+json")
      expect(render.headers.get("retry-after")).toBe("5")
      expect(await render.json()).toMatchObject({ status: 503, error: "store_unavailable" })
      const index = await fetch(`${server.url}/`)
      expect(index.status).toBe(200)
      await index.arrayBuffer()

      // OAuth: the token endpoint says temporarily_unavailable (RFC 6749), the sign-in page 503
      const exchanged = await fetch(`${server.url}/oauth/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ grant_type: "authorization_code", client_id: "svc_client_x", code: "x" })
      })
      expect(exchanged.status).toBe(503)
      expect(exchanged.headers.get("retry-after")).toBe("5")
      expect(await exchanged.json()).toMatchObject({ error: "temporarily_unavailable" })
      const page = await fetch(`${server.url}/oauth/authorize?client_id=svc_client_x&response_type=code`)
      expect(page.status).toBe(503)
      expect(page.headers.get("retry-after")).toBe("5")
      expect(await page.text()).toContain("Try again in a few seconds")
    } finally {
      await relay.restore()
    }
    // nothing was debited or held while the store was away
    expect(await balance()).toEqual(before)
  }, 60_000)

  it("a credit that cannot be taken is StoreUnavailable and the work never starts", async () => {
    const context = await Effect.runPromise(Layer.buildWithScope(SqlCredits.layer().pipe(Layer.provide(store)), scope))
    const credits = Context.get(context, Credits)
    const keyId = /svc_live_([0-9a-f]{12})_/.exec(key)![1]!
    expect(await Effect.runPromise(credits.balance(keyId))).toBe(3)
    await relay.cut()
    let started = false
    try {
      const exit = await Effect.runPromiseExit(credits.spend(keyId, Effect.sync(() => (started = true))))
      expect(exit).toMatchObject({
        _tag: "Failure",
        cause: { _tag: "Fail", error: { _tag: "StoreUnavailable", status: 503 } }
      })
      expect(started).toBe(false)
    } finally {
      await relay.restore()
    }
    expect(await Effect.runPromise(credits.balance(keyId))).toBe(3)
    expect((await balance()).holds).toBe(0)
  }, 60_000)

  it("a sign-in whose user directory cannot be asked is 'unavailable', not a wrong password", async () => {
    // the pending sign-in and the throttle on a direct connection, the user directory behind the relay:
    // the store goes away between the throttle's count and the password check
    const direct = new URL(adminUrl)
    direct.pathname = `/${database}`
    const context = await Effect.runPromise(Layer.buildWithScope(storeAt(direct.href), scope))
    const viaRelay = await Effect.runPromise(Layer.buildWithScope(store, scope))
    const users = await Effect.runPromise(Effect.provide(UserDirectory.makeEmbedded, viaRelay))
    await Effect.runPromise(
      Effect.orDie(users.add({ email: "owner@example.com", password: "the-right-password-1", tier: "free" }))
    )
    const policy = { freeAttempts: 10, firstDelayMillis: 1000, maxDelayMillis: 8000 }
    const signIns = await Effect.runPromise(Effect.provide(
      Effect.flatMap(
        makeSignInThrottle({ account: policy, address: policy, windowMillis: 60_000 }),
        (throttle) => makeSignIns(users.directory, throttle)
      ),
      context
    ))
    const attempt = (password: string) =>
      Effect.runPromise(Effect.provide(
        Effect.gen(function*() {
          const handle = yield* Effect.orDie(signIns.open(authorizationRequest()))
          return yield* signIns.decide(
            { handle, email: "owner@example.com", password, approve: true, address: "192.0.2.7" },
            { issuer: "https://ecds.example", consent: () => Effect.succeed("the consent page") }
          )
        }),
        context
      ))
    await relay.cut()
    try {
      for (const password of ["the-right-password-1", "a-wrong-password"]) {
        expect(await attempt(password)).toEqual({
          _tag: "Throttled",
          consent: "the consent page",
          status: 503,
          retryAfterSeconds: 30,
          message: "Sign-in is unavailable for a moment. Try again shortly."
        })
      }
    } finally {
      await relay.restore()
    }
    // once the directory answers again, the same attempts are told apart as before
    expect(await attempt("a-wrong-password")).toMatchObject({
      _tag: "Retry",
      message: "The email address or password is not correct."
    })
    expect(await attempt("the-right-password-1")).toMatchObject({ _tag: "Redirect" })
  }, 60_000)
})
