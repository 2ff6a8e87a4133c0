import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { request } from "node:http"
import { AppRoutes } from "../../src/http/App.ts"
import { forRuntime } from "../../src/layers/Main.ts"
import { PublicServices } from "../../src/layers/Public.ts"
import { layerFixed } from "../../src/services/Auth.ts"
import { Credits, type CreditsShape } from "../../src/services/Credits.ts"
import { requiredTcpPayload } from "../fixtures/documents/tcp.ts"
import { ledgerOf } from "../support/Ledger.ts"
import { bearers, principals } from "../support/Principals.ts"
import { randomPdf, slowRenderer } from "../support/SlowRenderer.ts"
import { type RunningServer, startServer } from "../support/TestServer.ts"
import { testStore } from "../support/TestStore.ts"

/**
 * Issue 19 item 3: over REST a final document is paid for when its last byte was handed to the
 * socket. The renderer double takes `renderMs` and produces a document far larger than the socket
 * buffers, so a client that stops reading holds the last byte back deterministically.
 */
const account = "key_test"
const renderMs = 600
const documentBytes = 64 * 1024 * 1024

const SlowLargeRenderer = slowRenderer(renderMs, randomPdf(documentBytes))

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

type Outcome = { readonly received: number; readonly complete: boolean }

/**
 * POST /pdf/tcp over a raw connection. `stop` decides when the client goes away: after `abortAfterMs`
 * from sending, or after the first body bytes when `leaveAtFirstBytes`; otherwise it reads it all.
 */
const render = (
  server: RunningServer,
  stop: { readonly abortAfterMs?: number; readonly leaveAtFirstBytes?: boolean }
): Promise<Outcome> =>
  new Promise((resolve) => {
    const url = new URL(server.url)
    const body = JSON.stringify(requiredTcpPayload)
    let received = 0
    let length = -1
    const req = request({
      host: url.hostname,
      port: url.port,
      method: "POST",
      // a final whatever the payload leaves empty: this is about payment, not completeness
      path: "/pdf/tcp?allow_incomplete=1",
      headers: {
        authorization: `Bearer ${bearers.apiKey}`,
        "content-type": "application/json",
        "content-length": Buffer.byteLength(body)
      }
    }, (res) => {
      length = Number(res.headers["content-length"] ?? -1)
      res.on("data", (chunk: Buffer) => {
        received += chunk.length
        if (stop.leaveAtFirstBytes) {
          res.pause()
          req.destroy()
        }
      })
      res.on("end", () => resolve({ received, complete: received === length }))
    })
    req.on("error", () => resolve({ received, complete: false }))
    req.on("close", () => resolve({ received, complete: length >= 0 && received === length }))
    if (stop.abortAfterMs !== undefined) setTimeout(() => req.destroy(), stop.abortAfterMs)
    req.end(body)
  })

describe("REST billing exactly once, on delivery", () => {
  let server: RunningServer
  let credits: CreditsShape
  beforeAll(async () => {
    const probe = Layer.effectDiscard(Effect.map(Credits, (service) => void (credits = service)))
    const app = Layer.mergeAll(AppRoutes, probe).pipe(
      Layer.provide(Layer.mergeAll(layerFixed(principals), SlowLargeRenderer)),
      Layer.provide(PublicServices)
    )
    server = await startServer({ app: forRuntime(app, "node test", testStore) })
  }, 60_000)
  afterAll(() => server.close())

  const run = <A>(effect: Effect.Effect<A>) => Effect.runPromise(effect)
  const ledger = () => ledgerOf(credits, account)

  /** Waits until the held credit is committed (usage counted) or given back; answers whether it was charged. */
  const settled = async (before: { readonly balance: number; readonly spent: number }) => {
    for (;;) {
      const now = await ledger()
      if (now.spent === before.spent + 1 && now.balance === before.balance - 1) return true
      if (now.spent === before.spent && now.balance === before.balance) return false
      await sleep(10)
    }
  }

  const attempt = async (stop: Parameters<typeof render>[1]) => {
    await run(credits.add(account, 1))
    const before = await ledger()
    const outcome = await render(server, stop)
    return { complete: outcome.complete, charged: await settled(before) }
  }

  it("a document read to its last byte is charged once", async () => {
    expect(await attempt({})).toEqual({ complete: true, charged: true })
  }, 120_000)

  it("aborts swept across the render are never charged", async () => {
    const outcomes = []
    // from the request itself to well before the render ends
    for (let at = 0; at <= renderMs / 2; at += renderMs / 12) outcomes.push(await attempt({ abortAfterMs: at }))
    expect(outcomes.every((o) => !o.complete && !o.charged)).toBe(true)
  }, 120_000)

  it("a client that leaves while the document is being sent is not charged", async () => {
    // the render is done and the response has started: charging at the end of the render charged this
    expect(await attempt({ leaveAtFirstBytes: true })).toEqual({ complete: false, charged: false })
  }, 120_000)

  it("the ledger equals the documents received over a mixed sequence", async () => {
    const start = await ledger()
    const stops = [{}, { abortAfterMs: 50 }, { leaveAtFirstBytes: true }, {}, { abortAfterMs: 200 }, {}]
    let complete = 0
    for (const stop of stops) if ((await attempt(stop)).complete) complete++
    const end = await ledger()
    expect(complete).toBe(3)
    expect(end.spent - start.spent).toBe(complete)
  }, 180_000)
})
