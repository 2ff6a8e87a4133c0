import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { createHash } from "node:crypto"
import { forRuntime } from "../../src/layers/Main.ts"
import { PublicServices } from "../../src/layers/Public.ts"
import { publicAppWith } from "../../src/layers/Test.ts"
import { layerFixed } from "../../src/services/Auth.ts"
import { Credits, type CreditsShape } from "../../src/services/Credits.ts"
import { DocumentFiles } from "../../src/services/DocumentFiles.ts"
import { DocumentPayers } from "../../src/services/DocumentPayers.ts"
import { requiredTcpPayload } from "../fixtures/documents/tcp.ts"
import { ledgerOf } from "../support/Ledger.ts"
import { modernRequest } from "../support/mcp/McpTestApp.ts"
import { bearers, principals } from "../support/Principals.ts"
import { randomPdf, slowRenderer } from "../support/SlowRenderer.ts"
import { type RunningServer, startServer } from "../support/TestServer.ts"
import { testStore } from "../support/TestStore.ts"

/**
 * Issue 19 item 3 over MCP: a final document is paid for once its download link exists. Clients
 * abort `tools/call create_tcp_pdf` at times spread across a render that takes `renderMs`; the
 * ledger must move by exactly the links created, never twice for one call.
 */
const account = "key_test"
const renderMs = 300

const document = randomPdf(32 * 1024)

/** What the server did, seen through the services the MCP tool calls (replacements over the real ones). */
const seen = { linksCreated: 0, paysStarted: 0, paysSettled: 0 }

const CountingFiles = Layer.effect(
  DocumentFiles,
  Effect.map(DocumentFiles, (files) => ({
    ...files,
    put: (stored: Parameters<typeof files.put>[0]) => Effect.tap(files.put(stored), () => void seen.linksCreated++)
  }))
)

/** Marks when a paid render's credit is settled (committed or given back), however the call ended. */
const SettlingPayers = Layer.effect(
  DocumentPayers,
  Effect.map(DocumentPayers, (payers) => ({
    payerOf: (principal: Parameters<typeof payers.payerOf>[0]) =>
      Effect.map(payers.payerOf(principal), (payer) => ({
        ...payer,
        pay: <A, E, R>(work: Effect.Effect<A, E, R>) =>
          Effect.suspend(() => {
            seen.paysStarted++
            return payer.pay(work)
          }).pipe(Effect.ensuring(Effect.sync(() => void seen.paysSettled++)))
      }))
  }))
)

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

const createCall = () =>
  modernRequest("tools/call", {
    name: "create_tcp_pdf",
    arguments: { payload: requiredTcpPayload, allow_incomplete: true }
  }, {
    authorization: `Bearer ${bearers.apiKey}`
  })

describe("MCP billing exactly once, on delivery", () => {
  let server: RunningServer
  let credits: CreditsShape
  beforeAll(async () => {
    const probe = Layer.effectDiscard(Effect.map(Credits, (service) => void (credits = service)))
    const app = Layer.mergeAll(
      publicAppWith(
        Layer.mergeAll(layerFixed(principals), slowRenderer(renderMs, document), CountingFiles, SettlingPayers)
      ),
      probe.pipe(Layer.provide(PublicServices))
    )
    server = await startServer({ app: forRuntime(app, "node test", testStore) })
  }, 60_000)
  afterAll(() => server.close())

  const run = <A>(effect: Effect.Effect<A>) => Effect.runPromise(effect)
  const ledger = () => ledgerOf(credits, account)

  /** The link the client received, or undefined when it went away first. */
  const call = async (abortAfterMs?: number): Promise<{ url: string; sha256: string; bytes: number } | undefined> => {
    const controller = new AbortController()
    const timer = abortAfterMs === undefined ? undefined : setTimeout(() => controller.abort(), abortAfterMs)
    try {
      const response = await fetch(`${server.url}/mcp`, { ...createCall(), signal: controller.signal })
      const body = await response.json()
      return body.result?.structuredContent
    } catch (error) {
      if (controller.signal.aborted) return undefined
      throw error
    } finally {
      clearTimeout(timer)
    }
  }

  /**
   * Waits until the server is done with every call so far: a request answered after the aborted
   * one was handed over, then every credit it held settled.
   */
  const quiet = async () => {
    await (await fetch(`${server.url}/mcp`, modernRequest("ping"))).arrayBuffer()
    while (seen.paysStarted !== seen.paysSettled) await sleep(5)
  }

  const attempt = async (abortAfterMs?: number) => {
    await run(credits.add(account, 1))
    const before = await ledger()
    const links = seen.linksCreated
    const received = await call(abortAfterMs)
    await quiet()
    const after = await ledger()
    return {
      at: abortAfterMs,
      received: received !== undefined,
      charged: after.spent - before.spent,
      // a credit leaves the balance only as a debit
      balanceMoved: before.balance - after.balance,
      linksCreated: seen.linksCreated - links
    }
  }

  it(
    "a call answered with its link is charged once, for the renderer's document (the test double reaches MCP)",
    async () => {
      await run(credits.add(account, 1))
      const before = await ledger()
      const link = await call()
      await quiet()
      const after = await ledger()
      expect(link).toMatchObject({
        bytes: document.byteLength,
        sha256: createHash("sha256").update(document).digest("hex")
      })
      expect({ spent: after.spent - before.spent, balance: before.balance - after.balance }).toEqual({
        spent: 1,
        balance: 1
      })
      const served = await fetch(link!.url)
      expect(new Uint8Array(await served.arrayBuffer())).toEqual(document)
    },
    60_000
  )

  it("aborts swept across the whole render: the ledger moves by the links created, never twice", async () => {
    const outcomes = []
    // from the request itself to past the end of the render
    for (let at = 0; at <= renderMs * 1.5; at += renderMs / 8) outcomes.push(await attempt(at))
    for (const outcome of outcomes) {
      expect(outcome.charged).toBe(outcome.linksCreated)
      expect(outcome.balanceMoved).toBe(outcome.charged)
      expect(outcome.charged).toBeLessThanOrEqual(1)
      // a document the client received was paid for
      if (outcome.received) expect(outcome.charged).toBe(1)
    }
    // well before the render could end, nothing was created and nothing is owed
    expect(outcomes.filter((o) => o.at! <= renderMs / 2).every((o) => !o.received && o.charged === 0)).toBe(true)
    // past the end of the render the sweep reaches delivered documents too
    expect(outcomes.some((o) => o.received)).toBe(true)
  }, 60_000)
})
