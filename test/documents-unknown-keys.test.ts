import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { publicAppWith } from "../src/layers/Test.ts"
import { layerFixed } from "../src/services/Auth.ts"
import { Renderer } from "../src/services/Renderer.ts"
import { requiredTcpPayload } from "./fixtures/documents/tcp.ts"
import { callToolApp } from "./support/mcp/McpTestApp.ts"
import { bearers, principals } from "./support/Principals.ts"
import * as WebApp from "./support/WebApp.ts"

/**
 * One payload contract on every surface (issue 19 item 1): SPEC lets a render payload carry
 * additional keys and counts non-fatal payload issues as warnings, so an unknown key at any depth is
 * a warning naming its path on REST, MCP `create_pdf` and MCP `create_<slug>_pdf` alike, and the
 * published schemas (OpenAPI `<Type>Payload`, the per-type tool's `payload`) say extra keys are
 * accepted.
 */
let lastWarnings: ReadonlyArray<string> = []

/** Reports the payload's warnings as the real renderer does, and keeps them: REST sends only their count. */
const RecordingRenderer = Layer.succeed(Renderer, {
  render: ({ payload }) =>
    Effect.sync(() => {
      lastWarnings = payload.warnings
      return {
        bytes: new TextEncoder().encode("%PDF-1.7\n"),
        warnings: payload.warnings.length,
        warningMessages: payload.warnings
      }
    })
})

const app = publicAppWith(Layer.mergeAll(layerFixed(principals), RecordingRenderer))
const key = { authorization: `Bearer ${bearers.apiKey}` }

const withExtras = {
  ...requiredTcpPayload,
  EXTRA_NOTE: "x",
  CONTROLLED_ITEMS: [{ ITEM: "ASIC RTL" }, { ITEM: "Test bench", NOTE: "x" }]
}
// contract keys first (and the unknown keys of their rows), then the payload's other keys
const expectedWarnings = ["unknown key \"CONTROLLED_ITEMS[1].NOTE\" ignored", "unknown key \"EXTRA_NOTE\" ignored"]
const { TCP_OWNER: _owner, ...withoutOwner } = requiredTcpPayload
const refusable = { ...withoutOwner, DATE: "19 November" }

const rest = (payload: unknown) =>
  WebApp.fetchApp("/pdf/tcp?draft=1", {
    method: "POST",
    headers: { ...key, "content-type": "application/json" },
    body: JSON.stringify(payload)
  })

/** The three ways to ask for the same draft, each answering `{ warnings }` or `{ refused }` as text. */
const surfaces = {
  rest: (payload: unknown) =>
    Effect.gen(function*() {
      lastWarnings = []
      const response = yield* rest(payload)
      if (response.status !== 200) {
        const problem = yield* Effect.promise(() => response.json())
        return { refused: problem.invalidParams.map((issue: { name: string }) => issue.name) }
      }
      expect(response.headers.get("x-render-warnings")).toBe(String(lastWarnings.length))
      return { warnings: lastWarnings }
    }),
  create_pdf: (payload: unknown) => mcp("create_pdf", { document: "tcp", payload, draft: true }),
  create_tcp_pdf: (payload: unknown) => mcp("create_tcp_pdf", { payload, draft: true })
}

const mcp = (name: string, args: unknown) =>
  Effect.map(callToolApp(name, args), (response) => {
    expect(response.error).toBeUndefined()
    if (response.result.isError) return { refused: response.result.content[0].text as string }
    return { warnings: response.result.structuredContent.warnings.messages as ReadonlyArray<string> }
  })

describe("unknown payload keys mean the same on every surface", () => {
  it.layer(WebApp.layer(app))((it) => {
    it.effect(
      "an unknown key at the top and inside a row is a warning naming its path, on REST and both MCP tools",
      () =>
        Effect.gen(function*() {
          for (const [surface, call] of Object.entries(surfaces)) {
            expect({ surface, outcome: yield* call(withExtras) }).toEqual({
              surface,
              outcome: { warnings: expectedWarnings }
            })
          }
        }),
      60_000
    )

    it.effect(
      "a missing required key and a bad value are refused the same way everywhere, naming them",
      () =>
        Effect.gen(function*() {
          expect(yield* surfaces.rest(refusable)).toEqual({ refused: ["DATE", "TCP_OWNER"] })
          const generic = yield* surfaces.create_pdf(refusable)
          const perType = yield* surfaces.create_tcp_pdf(refusable)
          expect(generic).toEqual(perType)
          expect(perType).toEqual({
            refused:
              "Invalid arguments: `payload.DATE` must be a date written YYYY-MM-DD; `payload.TCP_OWNER` is required"
          })
        }),
      60_000
    )

    it.effect("OpenAPI and the per-type tool publish the same open payload schema", () =>
      Effect.gen(function*() {
        const { body: openapi } = yield* WebApp.fetchJson("/openapi.json", { headers: key })
        const { body: discovery } = yield* WebApp.fetchJson("/.well-known/mcp", { headers: key })
        const published = openapi.components.schemas.TcpPayload
        const tool = discovery.tools.find((entry: { name: string }) => entry.name === "create_tcp_pdf")
        const payload = tool.inputSchema.properties.payload
        const openness = (schema: any) => ({
          top: schema.additionalProperties,
          row: schema.properties.CONTROLLED_ITEMS.items.additionalProperties
        })
        expect(openness(published)).toEqual({ top: true, row: true })
        expect(openness(payload)).toEqual(openness(published))
      }), 60_000)
  })
})
