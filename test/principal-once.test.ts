import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import type { Principal } from "../src/domain/Principal.ts"
import * as TestApp from "../src/layers/Test.ts"
import { Auth, layerFixed } from "../src/services/Auth.ts"
import { Entitlement } from "../src/services/ServiceJwt.ts"
import { modernMeta } from "./support/mcp/McpTestApp.ts"
import { bearers, principals } from "./support/Principals.ts"
import * as WebApp from "./support/WebApp.ts"

const service = "svc_jwt_test_service"
const table: Record<string, Principal> = {
  ...principals,
  [service]: { _tag: "Service", subject: "svc", entitlements: [Entitlement.mcp, Entitlement.pdf] }
}

/** The fixed principals behind an Auth that counts every resolution it is asked for. */
let resolutions = 0
const countingAuth = Layer.effect(
  Auth,
  Effect.map(Auth, (fixed) => ({
    authenticate: (authorization: string | undefined) =>
      Effect.suspend(() => {
        resolutions++
        return fixed.authenticate(authorization)
      })
  }))
).pipe(Layer.provide(layerFixed(table)))

const publicApp = TestApp.publicAppWith(countingAuth)

/** The enclave deployment's own services (access policy, document payers), with the counting Auth. */
const enclaveApp = TestApp.enclaveAppWith(countingAuth)

const toolsList = (bearer: string): RequestInit => ({
  method: "POST",
  headers: {
    authorization: `Bearer ${bearer}`,
    "content-type": "application/json",
    "mcp-protocol-version": "2026-07-28",
    "mcp-method": "tools/list"
  },
  body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: modernMeta } })
})

/** The status of a request, and how many times the request's bearer was resolved to answer it. */
const resolvedFor = (path: string, init: RequestInit) =>
  Effect.gen(function*() {
    resolutions = 0
    const response = yield* WebApp.fetchApp(path, init)
    yield* Effect.promise(() => response.arrayBuffer())
    return { status: response.status, resolutions }
  })

const withBearer = (bearer: string): RequestInit => ({ headers: { authorization: `Bearer ${bearer}` } })

describe("the principal is resolved once per request", () => {
  it.layer(WebApp.layer(publicApp))("public deployment", (it) => {
    it.effect(
      "access policy, rate limit, OpenAPI and MCP disclosure, documents and MCP share one resolution",
      () =>
        Effect.gen(function*() {
          const key = withBearer(bearers.apiKey)
          expect(yield* resolvedFor("/api/regulatory-status", key)).toEqual({ status: 200, resolutions: 1 })
          expect(yield* resolvedFor("/openapi.json", key)).toEqual({ status: 200, resolutions: 1 })
          expect(yield* resolvedFor("/.well-known/mcp", key)).toEqual({ status: 200, resolutions: 1 })
          expect(yield* resolvedFor("/pdf/classification/contract", key)).toEqual({ status: 200, resolutions: 1 })
          expect(yield* resolvedFor("/mcp", toolsList(bearers.apiKey))).toEqual({ status: 200, resolutions: 1 })
        }),
      120_000
    )

    it.effect("a request without credentials is resolved once too", () =>
      Effect.gen(function*() {
        expect(yield* resolvedFor("/openapi.json", {})).toEqual({ status: 200, resolutions: 1 })
        expect(yield* resolvedFor("/pdf/classification/contract", {})).toEqual({ status: 402, resolutions: 1 })
      }), 120_000)
  })

  // the enclave's own JWT resolver is built (its key set URL is never fetched: the fixed table answers)
  const enclaveConfig = {
    deployment: "enclave" as const,
    serviceJwt: {
      issuer: Option.some("https://issuer.enclave.example"),
      audience: "urn:svc:enclave",
      jwksUrl: Option.some("http://127.0.0.1:9/jwks.json"),
      publicKeys: Option.none(),
      algorithms: ["RS256"]
    }
  }
  it.layer(WebApp.layer(enclaveApp, enclaveConfig))("enclave access policy", (it) => {
    it.effect("the policy and the route read the same principal", () =>
      Effect.gen(function*() {
        expect(yield* resolvedFor("/mcp", toolsList(service))).toEqual({ status: 200, resolutions: 1 })
        expect(yield* resolvedFor("/pdf/classification/contract", withBearer(service)))
          .toEqual({ status: 200, resolutions: 1 })
        expect(yield* resolvedFor("/api/regulatory-status", withBearer(bearers.apiKey)))
          .toEqual({ status: 401, resolutions: 1 })
      }), 120_000)
  })
})
