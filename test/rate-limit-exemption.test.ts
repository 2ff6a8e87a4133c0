import { afterEach, describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { AppRoutes } from "../src/http/App.ts"
import { forRuntime } from "../src/layers/Main.ts"
import { PublicServices } from "../src/layers/Public.ts"
import { Auth, layerFixed } from "../src/services/Auth.ts"
import { makeInMemory, RateLimiter } from "../src/services/RateLimiter.ts"
import { bearers, principals } from "./support/Principals.ts"
import { type RunningServer, startServer } from "./support/TestServer.ts"
import { testStore } from "./support/TestStore.ts"

const appWith = (auth: Layer.Layer<Auth>) =>
  forRuntime(
    AppRoutes.pipe(
      Layer.provide(Layer.merge(auth, Layer.effect(RateLimiter, makeInMemory({ limit: 2, windowSeconds: 60 })))),
      Layer.provide(PublicServices)
    ),
    "node test",
    testStore
  )

const statuses = async (server: RunningServer, headers: Record<string, string>, count: number) => {
  const seen: Array<number> = []
  for (let i = 0; i < count; i++) seen.push((await server.get("/api/regulatory-status", { headers })).status)
  return seen
}

describe("rate-limit exemption for authenticated callers", () => {
  let server: RunningServer | undefined
  afterEach(async () => {
    await server?.close()
    server = undefined
  })

  it("exempts active credentials, not anonymous, unknown or inactive ones", async () => {
    server = await startServer({ app: appWith(layerFixed(principals)) })
    for (const bearer of [bearers.apiKey, bearers.oauth]) {
      const authorization = { authorization: `Bearer ${bearer}` }
      expect(await statuses(server, authorization, 4)).toEqual([200, 200, 200, 200])
      const response = await server.get("/api/regulatory-status", { headers: authorization })
      expect(response.headers.get("ratelimit-limit")).toBeNull()
    }
    expect(await statuses(server, { authorization: "Bearer svc_live_unknown" }, 3)).toEqual([200, 200, 429])
    expect(await statuses(server, { authorization: `Bearer ${bearers.inactive}` }, 1)).toEqual([429])
    expect(await statuses(server, {}, 1)).toEqual([429])
  })

  it("counts the request as anonymous when the credential cannot be checked", async () => {
    const broken = Layer.succeed(Auth, { authenticate: () => Effect.die(new Error("store unavailable")) })
    server = await startServer({ app: appWith(broken) })
    expect(await statuses(server, { authorization: `Bearer ${bearers.apiKey}` }, 3)).toEqual([200, 200, 429])
  })
})
