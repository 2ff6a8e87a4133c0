import { FetchHttpClient, HttpClient, HttpClientRequest } from "@effect/platform"
import { RpcClient, RpcSerialization } from "@effect/rpc"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Either, Exit, Fiber, Layer, Option, Redacted, Scope, Stream } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { request as httpRequest } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { RenderChunkBytes, RenderRpcs } from "../src/domain/RenderBackend.ts"
import * as RenderBackend from "../src/layers/RenderBackend.ts"
import * as AppConfig from "../src/services/AppConfig.ts"
import * as Credits from "../src/services/Credits.ts"
import * as Renderer from "../src/services/Renderer.ts"
import { parsePdf } from "./support/ParsePdf.ts"
import { type RunningServer, startServer } from "./support/TestServer.ts"
import { accountStores, keysCommand } from "./support/TestStore.ts"

const dataDir = mkdtempSync(join(tmpdir(), "render-backend-test-"))
const keys = keysCommand(dataDir)
const newKey = async (credits: number) => {
  const output = await keys("create", "--label", "rpc", "--credits", String(credits))
  return { key: /api key: (\S+)/.exec(output)![1]!, keyId: /key id:\s+(\S+)/.exec(output)![1]! }
}
const balance = (keyId: string) =>
  Effect.runPromise(
    Effect.flatMap(Credits.Credits, (c) => c.balance(keyId)).pipe(Effect.provide(accountStores(dataDir)))
  )
const until = async (condition: () => boolean | Promise<boolean>) => {
  for (let i = 0; i < 500 && !(await condition()); i++) await new Promise((resolve) => setTimeout(resolve, 10))
}

const secret = "s3cret-".repeat(6)
const tcp = (facility: string) => ({
  COMPANY_NAME: "Northwind",
  DOC_NUMBER: "TCP-1",
  VERSION: "1",
  DATE: "2026-11-19",
  TCP_OWNER: "Jane Doe",
  FACILITY: facility,
  TECHNOLOGY_DESCRIPTION: "<p>Encryption firmware source.</p>",
  DEEMED_EXPORT_ANALYSIS: "<p>No foreign persons.</p>",
  MARKING: "Marked on every page.",
  TRANSMISSION: "Encrypted only.",
  BRIEFING_ACKNOWLEDGMENT: "Signed yearly.",
  AUDIT_PROCEDURES: "Yearly audit."
})

/** The backend's renderer: in process, counting renders; a payload for the facility "stall" never finishes. */
const backendCounts = { renders: 0, stalled: 0, interrupted: 0 }
const backendRenderer = Layer.effect(
  Renderer.Renderer,
  Effect.map(Renderer.makeInProcess({ concurrency: 2 }), (inner): Renderer.RendererShape => ({
    render: (request) =>
      Effect.suspend(() => {
        backendCounts.renders++
        if (request.payload.values.FACILITY !== "stall") return inner.render(request)
        backendCounts.stalled++
        return Effect.never.pipe(Effect.onInterrupt(() => Effect.sync(() => backendCounts.interrupted++)))
      })
  }))
)

const startBackend = async (options: Partial<RenderBackend.RenderBackendOptions> = {}) => {
  const scope = Effect.runSync(Scope.make())
  const { url } = await Effect.runPromise(
    RenderBackend.serve({ port: 0, host: "127.0.0.1", secret: Option.some(Redacted.make(secret)), ...options }).pipe(
      Effect.provide(backendRenderer),
      Scope.extend(scope)
    )
  )
  return { url, close: () => Effect.runPromise(Scope.close(scope, Exit.void)) }
}

/** A raw POST to the backend that declares `length` body bytes and sends none of them. */
const declareOnly = (url: string, headers: Record<string, string | number>) =>
  new Promise<number>((resolve, reject) => {
    const request = httpRequest(`${url}/rpc`, { method: "POST", headers }, (response) => {
      response.resume()
      resolve(response.statusCode ?? 0)
      request.destroy()
    })
    request.on("error", reject)
    request.flushHeaders()
  })

/** Renders through `Renderer.layerRemote`, as an instance does, without the REST surface. */
const renderRemote = (options: Renderer.RemoteOptions, facility = "Boston lab") =>
  Effect.runPromise(
    Effect.flatMap(
      Renderer.Renderer,
      (renderer) => renderer.render({ slug: "tcp", draft: true, payload: { values: tcp(facility), warnings: [] } })
    ).pipe(Effect.provide(Renderer.layerRemote(options)), Effect.provide(FetchHttpClient.layer), Effect.either)
  )

describe("remote rendering backend over @effect/rpc", () => {
  let backend: Awaited<ReturnType<typeof startBackend>>
  let instance: RunningServer
  let wrongSecret: RunningServer
  const renderFinal = (server: RunningServer, key: string, body: unknown, signal?: AbortSignal) =>
    server.get("/pdf/tcp", {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify(body),
      ...(signal ? { signal } : {})
    })

  beforeAll(async () => {
    backend = await startBackend()
    const remote = { dataDir, renderBackendUrl: Option.some(backend.url) }
    instance = await startServer({ config: { ...remote, renderBackendSecret: Option.some(Redacted.make(secret)) } })
    wrongSecret = await startServer({
      config: { ...remote, renderBackendSecret: Option.some(Redacted.make("x".repeat(40))) }
    })
  })
  afterAll(async () => {
    await Promise.all([instance.close(), wrongSecret.close()])
    await backend.close()
    rmSync(dataDir, { recursive: true, force: true })
  })

  it("renders a final through the backend, streamed in chunks, for one credit", async () => {
    const { key, keyId } = await newKey(1)
    const response = await renderFinal(instance, key, { ...tcp("Boston lab"), EXTRA: 1 })
    expect(response.status).toBe(200)
    expect(response.headers.get("x-render-warnings")).toBe("1")
    const bytes = new Uint8Array(await response.arrayBuffer())
    expect(bytes.length).toBeGreaterThan(RenderChunkBytes)
    expect((await parsePdf(bytes)).text.join(" ")).toContain("Boston lab")
    expect(await balance(keyId)).toBe(0)
  })

  it("refuses a missing or wrong secret before reading the body; the instance charges nothing", async () => {
    const renders = backendCounts.renders
    expect(await declareOnly(backend.url, { "content-length": 100_000 })).toBe(401)
    expect(await declareOnly(backend.url, { "content-length": 100_000, authorization: "Bearer nope" })).toBe(401)
    const { key, keyId } = await newKey(1)
    const refused = await renderFinal(wrongSecret, key, tcp("Boston lab"))
    expect(refused.status).toBe(502)
    const problem = await refused.json()
    expect(problem.type).toMatch(/render-backend-unavailable$/)
    expect(problem.detail).toContain("RENDER_BACKEND_SECRET")
    expect(await balance(keyId)).toBe(1)
    const missing = await renderRemote({ url: backend.url, secret: Option.none() })
    expect(Either.isLeft(missing) && missing.left.detail).toContain("credential")
    expect(backendCounts.renders).toBe(renders)
  })

  it("refuses oversize: a request over its cap unread, a PDF over either side's cap", async () => {
    const authorization = `Bearer ${secret}`
    expect(await declareOnly(backend.url, { authorization, "content-length": 3 * 1024 * 1024 })).toBe(413)
    expect(await declareOnly(backend.url, { authorization, "transfer-encoding": "chunked" })).toBe(411)
    const small = await renderRemote({
      url: backend.url,
      secret: Option.some(Redacted.make(secret)),
      maxPdfBytes: 1000
    })
    expect(Either.isLeft(small) && small.left.detail).toContain("size limit")
    const capped = await startBackend({ maxPdfBytes: 1000 })
    try {
      const refused = await renderRemote({ url: capped.url, secret: Option.some(Redacted.make(secret)) })
      expect(Either.isLeft(refused) && refused.left.detail).toContain("the PDF exceeded the size limit")
    } finally {
      await capped.close()
    }
  })

  it("stops the backend's render when the client goes away mid-render, and gives the credit back", async () => {
    const { key, keyId } = await newKey(1)
    const abort = new AbortController()
    const pending = renderFinal(instance, key, tcp("stall"), abort.signal).catch(() => undefined)
    await until(() => backendCounts.stalled === 1)
    expect(backendCounts.stalled).toBe(1)
    expect(await balance(keyId)).toBe(0)
    abort.abort()
    await pending
    await until(async () => backendCounts.interrupted === 1 && (await balance(keyId)) === 1)
    expect(backendCounts.interrupted).toBe(1)
    expect(await balance(keyId)).toBe(1)
  })

  it("lets a reader stop after the first chunk; the connection is released and the next render works", async () => {
    const protocol = Layer.effect(
      RpcClient.Protocol,
      Effect.flatMap(HttpClient.HttpClient, (client) =>
        RpcClient.makeProtocolHttp(
          HttpClient.mapRequest(client, (request) =>
            HttpClientRequest.bearerToken(HttpClientRequest.prependUrl(request, `${backend.url}/rpc`), secret))
        ))
    ).pipe(Layer.provide([RpcSerialization.layerMsgPack, FetchHttpClient.layer]))
    const order = { slug: "tcp" as const, draft: true, warnings: [], values: tcp("Boston lab") }
    const [first, whole] = await Effect.runPromise(
      Effect.gen(function*() {
        const client = yield* RpcClient.make(RenderRpcs)
        const first = yield* Stream.runCollect(Stream.take(client.Render(order), 2))
        const whole = yield* Stream.runCollect(client.Render(order))
        return [[...first], [...whole]] as const
      }).pipe(Effect.scoped, Effect.provide(protocol))
    )
    expect(first.map((part) => part._tag)).toEqual(["RenderedHead", "RenderedBytes"])
    const head = whole[0]
    expect(head?._tag === "RenderedHead" && head.bytes).toBe(
      whole.reduce((sum, part) => sum + (part._tag === "RenderedBytes" ? part.data.length : 0), 0)
    )
  })

  it("answers 429 with Retry-After past its budget of wrong credentials per address; the right secret still renders", async () => {
    const limited = await startBackend({ maxUnauthenticatedPerMinute: 3 })
    try {
      const renders = backendCounts.renders
      const wrong = { "content-length": 10, authorization: "Bearer nope" }
      for (let attempt = 0; attempt < 3; attempt++) expect(await declareOnly(limited.url, wrong)).toBe(401)
      const refused = await fetch(`${limited.url}/rpc`, {
        method: "POST",
        headers: { authorization: "Bearer x" },
        body: "{}"
      })
      expect(refused.status).toBe(429)
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0)
      expect(await declareOnly(limited.url, { "content-length": 10 })).toBe(429)
      // an instance with the wrong secret behind that address hears why
      const instanceRefused = await renderRemote({
        url: limited.url,
        secret: Option.some(Redacted.make("y".repeat(40)))
      })
      expect(Either.isLeft(instanceRefused) && instanceRefused.left.detail).toContain("repeated wrong credentials")
      expect(backendCounts.renders).toBe(renders)
      const rendered = await renderRemote({ url: limited.url, secret: Option.some(Redacted.make(secret)) })
      expect(Either.isRight(rendered)).toBe(true)
    } finally {
      await limited.close()
    }
  })

  it("refuses a render beyond the running and queued ones as busy at once, and admits again when they end", async () => {
    const bounded = await startBackend({ maxQueued: 1 })
    const options = { url: bounded.url, secret: Option.some(Redacted.make(secret)) }
    const renderIn = (facility: string) =>
      Effect.flatMap(
        Renderer.Renderer,
        (renderer) => renderer.render({ slug: "tcp", draft: true, payload: { values: tcp(facility), warnings: [] } })
      ).pipe(Effect.provide(Renderer.layerRemote(options)), Effect.provide(FetchHttpClient.layer))
    try {
      const stalled = backendCounts.stalled
      // two running plus one queued fill the admission (this test renderer stalls them all)
      const held = [0, 1, 2].map(() => Effect.runFork(renderIn("stall")))
      await until(() => backendCounts.stalled === stalled + 3)
      expect(backendCounts.stalled).toBe(stalled + 3)
      const busy = await renderRemote(options)
      expect(Either.isLeft(busy) && busy.left.detail).toContain("busy")
      await Promise.all(held.map((fiber) => Effect.runPromise(Fiber.interrupt(fiber))))
      await until(async () => Either.isRight(await renderRemote(options)))
      expect(Either.isRight(await renderRemote(options))).toBe(true)
    } finally {
      await bounded.close()
    }
  })

  it("refuses to start unauthenticated off loopback; an instance pointed elsewhere needs the secret", async () => {
    const exit = await Effect.runPromiseExit(
      RenderBackend.serve({ port: 0, host: "0.0.0.0", secret: Option.none() }).pipe(
        Effect.provide(backendRenderer),
        Effect.scoped
      )
    )
    expect(Exit.isFailure(exit) && JSON.stringify(exit.cause)).toContain("RenderBackendUnprotected")
    const config = (env: Record<string, string>) =>
      Effect.runPromise(Effect.either(AppConfig.read.pipe(Effect.withConfigProvider(ConfigProvider.fromJson(env)))))
    const remote = await config({ RENDER_BACKEND_URL: "http://render.internal:8788" })
    expect(Either.isLeft(remote) && AppConfig.describeError(remote.left, {}).join()).toContain("RENDER_BACKEND_SECRET")
    expect(Either.isRight(await config({ RENDER_BACKEND_URL: "http://127.0.0.1:8788" }))).toBe(true)
    const short = await config({ RENDER_BACKEND_SECRET: "short" })
    expect(Either.isLeft(short)).toBe(true)
  })

  it("answers 502 without charging when the backend is down", async () => {
    await backend.close()
    const { key, keyId } = await newKey(1)
    const response = await renderFinal(instance, key, tcp("Boston lab"))
    expect(response.status).toBe(502)
    expect((await response.json()).type).toMatch(/render-backend-unavailable$/)
    expect(await balance(keyId)).toBe(1)
  })
})
