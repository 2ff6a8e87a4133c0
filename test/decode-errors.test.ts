import { HttpApi, HttpApiBuilder, HttpApiEndpoint, HttpApiGroup, HttpLayerRouter } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Schema } from "effect"
import { InvalidRequest } from "../src/domain/Problem.ts"
import { EndpointGroups } from "../src/domain/Service.ts"
import { AppMiddleware } from "../src/http/Middleware.ts"
import * as RouteCatalog from "../src/http/RouteCatalog.ts"
import * as AccessPolicy from "../src/services/AccessPolicy.ts"
import * as Auth from "../src/services/Auth.ts"
import * as DataGeneration from "../src/services/DataGeneration.ts"
import * as RateLimiter from "../src/services/RateLimiter.ts"
import * as WebApp from "./support/WebApp.ts"

// A probe API with typed path and query parameters, mounted under the real global middleware.
class ProbeGroup extends HttpApiGroup.make("probe").add(
  HttpApiEndpoint.get("item", "/api/items/:id")
    .setPath(Schema.Struct({ id: Schema.NumberFromString.pipe(Schema.int()) }))
    .setUrlParams(Schema.Struct({
      q: Schema.String,
      per_page: Schema.optional(Schema.NumberFromString.pipe(Schema.between(1, 20)))
    }))
    .addSuccess(Schema.Struct({ id: Schema.Number }))
) {}
class ProbeApi extends HttpApi.make("probe").add(ProbeGroup).addError(InvalidRequest) {}

const ProbeHandlers = HttpApiBuilder.group(
  ProbeApi,
  "probe",
  (handlers) => handlers.handle("item", ({ path }) => Effect.succeed({ id: path.id }))
)

const app = Layer.mergeAll(HttpLayerRouter.addHttpApi(ProbeApi).pipe(Layer.provide(ProbeHandlers)), AppMiddleware).pipe(
  Layer.provide(Layer.mergeAll(
    Layer.succeed(RouteCatalog.RouteCatalog, RouteCatalog.make(RouteCatalog.fromHttpApi(ProbeApi), EndpointGroups)),
    RateLimiter.layer,
    DataGeneration.layer,
    AccessPolicy.layerOpen,
    Auth.layerFixed({})
  ))
)

describe("schema decode failures", () => {
  it.layer(WebApp.layer(app))((it) => {
    it.effect("answer 400 problem documents naming each bad parameter and where it was", () =>
      Effect.gen(function*() {
        const { body, response } = yield* WebApp.fetchJson("/api/items/abc?per_page=99")
        expect(response.status).toBe(400)
        expect(response.headers.get("content-type")).toBe("application/problem+json")
        expect(body.type).toBe(`${WebApp.baseUrl}/problems/invalid-request`)
        expect(body.instance).toBe(response.headers.get("x-request-id"))
        expect(body.invalidParams).toEqual([{ name: "id", in: "path", reason: expect.any(String) }])
        expect(body.detail).toContain("id")
      }))

    it.effect("name missing and out-of-range query parameters", () =>
      Effect.gen(function*() {
        const missing = yield* WebApp.fetchJson("/api/items/7")
        expect(missing.body.invalidParams).toEqual([{ name: "q", in: "query", reason: "is required" }])
        const range = yield* WebApp.fetchJson("/api/items/7?q=x&per_page=99")
        expect(range.body.invalidParams.map((p: { name: string }) => p.name)).toEqual(["per_page"])
      }))

    it.effect("valid requests pass", () =>
      Effect.gen(function*() {
        expect((yield* WebApp.fetchJson("/api/items/7?q=x&per_page=5")).body).toEqual({ id: 7 })
      }))
  })
})
