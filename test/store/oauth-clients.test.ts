import { SqlClient } from "@effect/sql/SqlClient"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Either, Layer, TestClock } from "effect"
import { type Grant, type OAuthClient, OAuthDocument } from "../../src/domain/Accounts.ts"
import { sha256 } from "../../src/services/accounts/Secrets.ts"
import * as SqlDocument from "../../src/services/accounts/SqlDocument.ts"
import * as AppConfig from "../../src/services/AppConfig.ts"
import { emptyDocument, issueTokens } from "../../src/services/oauth/Grants.ts"
import * as OAuthServer from "../../src/services/OAuthServer.ts"
import { runAreas } from "../../src/services/store/Migrations.ts"
import { areas } from "../../src/services/store/migrations/index.ts"
import * as UserDirectory from "../../src/services/UserDirectory.ts"
import { nativeClient } from "../support/OAuthDriver.ts"
import { engines } from "../support/SqlEngines.ts"

const limits = (maxClients: number, unusedClientHours: number) =>
  AppConfig.layerWith({
    publicBaseUrl: "https://ecds.example",
    authUrl: "https://ecds.example",
    oauthLimits: {
      signInFreeAttempts: 5,
      signInAddressFreeAttempts: 100,
      signInFirstDelaySeconds: 1,
      signInMaxDelaySeconds: 60,
      signInWindowSeconds: 900,
      requestsPerMinute: 0,
      registrationsPerHourPerAddress: 0,
      registrationsPerHour: 0,
      maxClients,
      unusedClientHours
    }
  })

/** The migrations as they were before clients got a table of their own. */
const before = areas.map((area) =>
  area.name === "hardening"
    ? {
      ...area,
      migrations: Object.fromEntries(Object.entries(area.migrations).filter(([id]) => !id.startsWith("70_")))
    }
    : area
)

const metadata = (name: string, method: "none" | "client_secret_basic") => ({
  redirect_uris: ["http://127.0.0.1:9/callback"] as const,
  application_type: "native" as const,
  token_endpoint_auth_method: method,
  grant_types: ["authorization_code", "refresh_token"] as const,
  response_types: ["code"] as const,
  client_name: name
})

const hourAgo = () => Date.now() - 3600_000

for (const engine of engines) {
  describe(`OAuth clients as rows (${engine.name})`, () => {
    it.layer(
      Layer.fresh(
        UserDirectory.layerEmbedded.pipe(Layer.provideMerge(limits(100, 24)), Layer.provideMerge(engine.empty))
      ),
      {
        timeout: 120_000
      }
    )((it) => {
      it.effect("moves the clients of a document written by the previous version over, once", () =>
        Effect.gen(function*() {
          const sql = yield* SqlClient
          yield* runAreas(before)
          const users = yield* UserDirectory.makeEmbedded
          const user = yield* Effect.orDie(
            Effect.flatten(users.add({ email: "ada@example.com", password: "pw-12345678", tier: "paid" }))
          )
          const issuedAt = hourAgo()
          const clients: Record<string, OAuthClient> = {
            svc_client_used: { clientId: "svc_client_used", issuedAt, metadata: metadata("Used", "none") },
            svc_client_idle: {
              clientId: "svc_client_idle",
              issuedAt,
              secretHash: sha256("the-idle-secret"),
              metadata: metadata("Idle", "client_secret_basic")
            },
            svc_client_gone: {
              clientId: "svc_client_gone",
              issuedAt,
              revokedAt: issuedAt + 1000,
              metadata: metadata("Gone", "none")
            }
          }
          const grant: Grant = {
            id: "grt_1",
            clientId: "svc_client_used",
            userId: user.id,
            scopes: ["mcp"],
            resource: "https://ecds.example/mcp",
            source: { applicationType: "native", redirectUri: "http://127.0.0.1:9/callback" },
            createdAt: issuedAt + 5000
          }
          // written exactly as the previous version wrote it: the clients inside the document
          const previous = yield* SqlDocument.make({ name: "oauth", schema: OAuthDocument, empty: emptyDocument })
          const accessToken = yield* Effect.orDie(previous.update((document) => {
            const [response, next] = issueTokens(
              { ...document, clients, grants: { grt_1: grant } },
              grant,
              true,
              Date.now()
            )
            return [response.access_token, next] as const
          }))

          const applied = yield* runAreas(areas)
          expect(applied.map((migration) => `${migration.area}/${migration.id}`)).toEqual(["hardening/70"])
          expect(yield* runAreas(areas)).toEqual([])

          const rows = yield* sql<{ clientId: string; connectedAt: number | null; revokedAt: number | null }>`
            SELECT client_id, connected_at, revoked_at FROM oauth_clients ORDER BY client_id`
          expect(rows).toEqual([
            { clientId: "svc_client_gone", connectedAt: null, revokedAt: issuedAt + 1000 },
            { clientId: "svc_client_idle", connectedAt: null, revokedAt: null },
            { clientId: "svc_client_used", connectedAt: issuedAt + 5000, revokedAt: null }
          ])
          const [stored] = yield* sql<{ body: { clients: unknown; grants: Record<string, unknown> } }>`
            SELECT body FROM store_documents WHERE name = 'oauth'`
          expect(stored!.body.clients).toEqual({})
          expect(Object.keys(stored!.body.grants)).toEqual(["grt_1"])

          const server = yield* OAuthServer.make
          const listed = yield* server.listClients
          expect(listed.map(({ client, grants }) => [client.clientId, grants.length])).toEqual([
            ["svc_client_gone", 0],
            ["svc_client_idle", 0],
            ["svc_client_used", 1]
          ])
          expect(listed.find(({ client }) => client.clientId === "svc_client_idle")!.client).toEqual(
            clients.svc_client_idle
          )
          // the connection made before the upgrade still works, and the moved secret still authenticates
          const principal = yield* server.resolveAccessToken(accessToken)
          expect(principal).toMatchObject({ _tag: "Some", value: { userId: user.id, clientId: "svc_client_used" } })
          const basic = (secret: string) => `Basic ${Buffer.from(`svc_client_idle:${secret}`).toString("base64")}`
          const revoke = (secret: string) =>
            Effect.either(server.revoke(new URLSearchParams({ token: "svc_oauth_unknown" }), basic(secret)))
          expect(Either.isRight(yield* revoke("the-idle-secret"))).toBe(true)
          expect(yield* revoke("a-wrong-secret")).toMatchObject({ left: { error: "invalid_client", status: 401 } })
          // the revoked client stays refused
          const refused = yield* Effect.flip(server.beginAuthorization(
            new URLSearchParams({ response_type: "code", client_id: "svc_client_gone", code_challenge: "x" })
          ))
          expect(refused._tag).toBe("ShowUser")
          // a day later the two never connected go, the connected one stays
          yield* TestClock.setTime(Date.now() + 24 * 3600_000)
          expect((yield* server.sweep).clients).toBe(2)
          expect((yield* server.listClients).map(({ client }) => client.clientId)).toEqual(["svc_client_used"])
        }))
    })

    it.layer(
      Layer.fresh(
        UserDirectory.layerEmbedded.pipe(Layer.provideMerge(limits(4, 24)), Layer.provideMerge(engine.store))
      ),
      {
        timeout: 120_000
      }
    )((it) => {
      it.effect("never registers more than the cap, with registrations racing on two instances", () =>
        Effect.gen(function*() {
          const [one, two] = [yield* OAuthServer.make, yield* OAuthServer.make]
          const outcomes = yield* Effect.all(
            Array.from({ length: 12 }, (_, i) => Effect.either((i % 2 === 0 ? one : two).register(nativeClient))),
            { concurrency: 12 }
          )
          expect(outcomes.filter(Either.isRight)).toHaveLength(4)
          for (const outcome of outcomes.filter(Either.isLeft)) {
            expect(outcome.left).toMatchObject({ error: "temporarily_unavailable", status: 503 })
          }
          expect(yield* one.listClients).toHaveLength(4)
          // a registration is found at once by the other instance, by its id alone
          const registered = outcomes.find(Either.isRight)!.right
          const consent = yield* two.beginAuthorization(
            new URLSearchParams({
              response_type: "code",
              client_id: registered.client_id,
              redirect_uri: nativeClient.redirect_uris[0]!,
              code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
              code_challenge_method: "S256"
            })
          )
          expect(consent.clientName).toBe("Test MCP client")
        }))
    })

    it.layer(
      Layer.fresh(UserDirectory.layerEmbedded.pipe(Layer.provideMerge(limits(2, 0)), Layer.provideMerge(engine.store))),
      {
        timeout: 120_000
      }
    )((it) => {
      it.effect("when full, makes room by deleting registrations that were never used", () =>
        Effect.gen(function*() {
          const server = yield* OAuthServer.make
          const sql = yield* SqlClient
          const first = yield* server.register(nativeClient)
          yield* server.register(nativeClient)
          // the first one is connected: it is never deleted to make room
          yield* sql`UPDATE oauth_clients SET connected_at = ${Date.now()} WHERE client_id = ${first.client_id}`
          const third = yield* server.register(nativeClient)
          expect((yield* server.listClients).map(({ client }) => client.clientId).sort()).toEqual(
            [first.client_id, third.client_id].sort()
          )
        }))
    })
  })
}
