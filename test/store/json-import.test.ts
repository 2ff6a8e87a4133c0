import { SqlClient } from "@effect/sql/SqlClient"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { OAuthDocument } from "../../src/domain/Accounts.ts"
import { OAuthDocument as OAuthDocumentSchema, UsersDocument } from "../../src/domain/Accounts.ts"
import * as DocumentStore from "../../src/services/accounts/DocumentStore.ts"
import * as JsonImport from "../../src/services/accounts/JsonImport.ts"
import { hashPassword } from "../../src/services/accounts/Secrets.ts"
import * as SqlCredits from "../../src/services/accounts/SqlCredits.ts"
import * as SqlKeys from "../../src/services/accounts/SqlKeys.ts"
import * as AppConfig from "../../src/services/AppConfig.ts"
import * as Credits from "../../src/services/Credits.ts"
import * as KeyStore from "../../src/services/KeyStore.ts"
import { emptyDocument, issueTokens } from "../../src/services/oauth/Grants.ts"
import * as OAuthServer from "../../src/services/OAuthServer.ts"
import * as UserDirectory from "../../src/services/UserDirectory.ts"
import { captureLogs } from "../support/LogCapture.ts"
import { engines } from "../support/SqlEngines.ts"

/** Writes DATA_DIR the way the previous version did: its own JSON key and credit stores. */
const previousVersionData = Effect.gen(function*() {
  const dataDir = mkdtempSync(join(tmpdir(), "ecds-import-"))
  const layer = Layer.mergeAll(KeyStore.layerJsonFile, Credits.layerJsonFile).pipe(
    Layer.provide(AppConfig.layerWith({ dataDir }))
  )
  const written = yield* Effect.gen(function*() {
    const keys = yield* KeyStore.KeyStore
    const credits = yield* Credits.Credits
    const first = yield* keys.create({ label: "alpha", plan: "enterprise" })
    const second = yield* keys.create({ label: "beta", plan: "starter" })
    yield* keys.setStatus(second.record.keyId, "billing_issue")
    yield* credits.add(first.record.keyId, 5)
    yield* credits.spend(first.record.keyId, Effect.void)
    yield* credits.add("user:usr_1", 3)
    return { first, second }
  }).pipe(Effect.provide(layer))
  // the account documents, through the file document store that wrote them
  const now = Date.now()
  const users = yield* DocumentStore.make({
    path: join(dataDir, "accounts", "users.json"),
    schema: UsersDocument,
    empty: { version: 1, users: {} }
  })
  const passwordHash = yield* Effect.promise(() => hashPassword("correct horse battery"))
  yield* users.update(() => [undefined, {
    version: 1 as const,
    users: { usr_1: { id: "usr_1", email: "ada@example.com", tier: "free" as const, passwordHash, createdAt: now } }
  }])
  const oauth = yield* DocumentStore.make({
    path: join(dataDir, "accounts", "oauth.json"),
    schema: OAuthDocumentSchema,
    empty: emptyDocument
  })
  const grant = {
    id: "grt_1",
    clientId: "svc_client_1",
    userId: "usr_1",
    scopes: ["mcp"],
    resource: "http://127.0.0.1:9/mcp",
    source: { applicationType: "native", redirectUri: "http://127.0.0.1/callback" },
    createdAt: now
  }
  const accessToken = yield* oauth.update((document): readonly [string, OAuthDocument] => {
    const withClient: OAuthDocument = {
      ...document,
      clients: {
        svc_client_1: {
          clientId: "svc_client_1",
          issuedAt: now,
          metadata: {
            redirect_uris: ["http://127.0.0.1/callback"],
            application_type: "native",
            token_endpoint_auth_method: "none",
            grant_types: ["authorization_code", "refresh_token"],
            response_types: ["code"],
            client_name: "Claude"
          }
        }
      },
      grants: { grt_1: grant }
    }
    const [response, next] = issueTokens(withClient, grant, true, now)
    return [response.access_token, next]
  })
  return { dataDir, ...written, accessToken }
})

/** The services a start builds: the import first, then keys and credits on the store. */
const started = (dataDir: string) =>
  Layer.mergeAll(SqlKeys.layer, SqlCredits.layer(), OAuthServer.layer).pipe(
    Layer.provideMerge(UserDirectory.layerEmbedded),
    Layer.provide(JsonImport.layer),
    Layer.provideMerge(
      AppConfig.layerWith({ dataDir, publicBaseUrl: "http://127.0.0.1:9", authUrl: "http://127.0.0.1:9" })
    )
  )

for (const engine of engines) {
  describe(`one-time import of the DATA_DIR JSON files (${engine.name})`, () => {
    it.scopedLive(
      "imports keys, balances and usage once, logs counts but no secrets, and keys keep working",
      () =>
        Effect.gen(function*() {
          const { accessToken, dataDir, first, second } = yield* Effect.scoped(previousVersionData)
          const { lines, logger } = captureLogs()
          const store = yield* Layer.build(engine.store)
          const services = started(dataDir).pipe(Layer.provide(Layer.succeedContext(store)), Layer.provide(logger))

          const firstStart = yield* Effect.gen(function*() {
            const keys = yield* KeyStore.KeyStore
            const credits = yield* Credits.Credits
            return {
              alpha: yield* keys.verify(first.key),
              beta: yield* keys.verify(second.key),
              balance: yield* credits.balance(first.record.keyId),
              usage: yield* credits.usage(first.record.keyId),
              user: yield* credits.balance("user:usr_1"),
              signIn: yield* Effect.flatMap(
                UserDirectory.UserDirectory,
                (users) => users.signIn("Ada@Example.com", "correct horse battery")
              ),
              connection: yield* Effect.flatMap(OAuthServer.OAuthServer, (server) =>
                server.resolveAccessToken(accessToken)),
              // the client went to its own table, marked as having connected (never swept)
              clients: yield* Effect.flatMap(SqlClient, (sql) =>
                sql`SELECT client_id, connected_at IS NOT NULL AS connected FROM oauth_clients`).pipe(
                  Effect.provide(Layer.succeedContext(store))
                )
            }
          }).pipe(Effect.provide(services))
          expect(Option.getOrThrow(firstStart.alpha)).toEqual(first.record)
          expect(Option.getOrThrow(firstStart.beta).status).toBe("billing_issue")
          expect(firstStart.clients).toEqual([{ clientId: "svc_client_1", connected: true }])
          expect(firstStart.balance).toBe(4)
          expect(firstStart.usage.spent).toBe(1)
          expect(firstStart.user).toBe(3)
          expect(Option.getOrThrow(firstStart.signIn)).toMatchObject({ id: "usr_1", email: "ada@example.com" })
          // a connection made before the upgrade keeps working: its access token still resolves
          expect(Option.getOrThrow(firstStart.connection)).toMatchObject({
            _tag: "OAuthUser",
            userId: "usr_1",
            clientId: "svc_client_1"
          })
          const imported = lines.filter((line) =>
            line.startsWith("imported ")
          )
          expect(imported).toEqual([
            "imported 2 keys, 2 credit accounts (7 credits), 1 users and 1 OAuth clients from the DATA_DIR account files"
          ])
          expect(lines.join("\n")).not.toContain(first.key)
          expect(lines.join("\n")).not.toContain(first.record.hash)
          expect(lines.join("\n")).not.toContain(accessToken)

          // the ledger explains the imported balances
          const sql = yield* Effect.provide(SqlClient, Layer.succeedContext(store))
          const ledger = yield* sql<{ account: string; delta: number; kind: string }>`
          SELECT account, delta, kind FROM credit_ledger ORDER BY account`
          expect(ledger).toEqual([
            { account: first.record.keyId, delta: 4, kind: "imported" },
            { account: "user:usr_1", delta: 3, kind: "imported" }
          ])

          // a second start (the files still there, changed meanwhile) imports nothing
          yield* Effect.provide(
            Credits.Credits,
            Credits.layerJsonFile.pipe(Layer.provide(AppConfig.layerWith({ dataDir })))
          )
            .pipe(Effect.flatMap((credits) =>
              credits.add(first.record.keyId, 100)
            ))
          const secondStart = yield* Effect.flatMap(Credits.Credits, (credits) => credits.balance(first.record.keyId))
            .pipe(Effect.provide(services))
          expect(secondStart).toBe(4)
          expect(lines.filter((line) => line.startsWith("imported "))).toHaveLength(1)
        }),
      120_000
    )

    it.scopedLive(
      "refuses to start on a file it cannot read as the previous version's, and imports nothing",
      () =>
        Effect.gen(function*() {
          const dataDir = mkdtempSync(join(tmpdir(), "ecds-import-"))
          writeFileSync(join(dataDir, "keys.json"), JSON.stringify({ keys: [{ keyId: "x" }] }))
          const store = yield* Layer.build(engine.store)
          const failure = yield* Effect.flip(
            Layer.build(started(dataDir).pipe(Layer.provide(Layer.succeedContext(store))))
          )
          expect(failure).toMatchObject({ _tag: "JsonImportError" })
          expect(String((failure as JsonImport.JsonImportError).message)).toContain("keys.json does not hold")
          const sql = yield* Effect.provide(SqlClient, Layer.succeedContext(store))
          expect(yield* sql`SELECT 1 FROM store_imports`).toEqual([])
        }),
      120_000
    )

    it.scopedLive(
      "an empty DATA_DIR is recorded as imported, so files appearing or damaged later are neither merged in nor read",
      () =>
        Effect.gen(function*() {
          const dataDir = mkdtempSync(join(tmpdir(), "ecds-import-"))
          const store = yield* Layer.build(engine.store)
          const sql = yield* Effect.provide(SqlClient, Layer.succeedContext(store))
          yield* Layer.build(started(dataDir).pipe(Layer.provide(Layer.succeedContext(store))))
          const [row] = yield* sql<{ summary: unknown }>`SELECT summary FROM store_imports`
          expect(row!.summary).toEqual({
            keys: 0,
            creditAccounts: 0,
            credits: 0,
            users: 0,
            clients: 0,
            storeWasEmpty: true
          })
          // the files are left in place after an upgrade: one damaged later never stops a start, since
          // the import is done and they are not read again
          writeFileSync(join(dataDir, "keys.json"), "{\"version\":1,\"keys\":[")
          writeFileSync(join(dataDir, "credits.json"), JSON.stringify({ balances: { k: 5 } }))
          yield* Layer.build(started(dataDir).pipe(Layer.provide(Layer.succeedContext(store))))
          expect(yield* sql`SELECT account FROM credit_accounts`).toEqual([])
          expect(yield* sql`SELECT import_name FROM store_imports`).toEqual([{ importName: "data_dir_json" }])
        }),
      120_000
    )
  })
}
