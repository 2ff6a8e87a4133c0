import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { DocumentSlugs } from "../../src/domain/Documents.ts"
import { contractDocuments } from "../../src/domain/documents/index.ts"
import { PublicServices } from "../../src/layers/Public.ts"
import { publicAppWith } from "../../src/layers/Test.ts"
import { layerFixed } from "../../src/services/Auth.ts"
import { Credits, type CreditsShape } from "../../src/services/Credits.ts"
import { Renderer } from "../../src/services/Renderer.ts"
import { requiredTcpPayload } from "../fixtures/documents/tcp.ts"
import { callToolApp } from "../support/mcp/McpTestApp.ts"
import { bearers, principals } from "../support/Principals.ts"
import * as WebApp from "../support/WebApp.ts"

/**
 * Issue 19 item 1: SPEC's per-type `create_<slug>_pdf` takes the type's own contract schema (the
 * one REST validates with and OpenAPI publishes), published in `/.well-known/mcp` since tools/list
 * leaves the per-type names out.
 */
let renders = 0
let credits: CreditsShape

/** Counts renders; reports the payload's own warnings (unknown keys) as the real renderer does. */
const CountingRenderer = Layer.succeed(Renderer, {
  render: ({ payload }) =>
    Effect.sync(() => {
      renders++
      return {
        bytes: new TextEncoder().encode("%PDF-1.7\n"),
        warnings: payload.warnings.length,
        warningMessages: payload.warnings
      }
    })
})

const probe = Layer.effectDiscard(Effect.map(Credits, (service) => void (credits = service)))
const app = Layer.mergeAll(
  publicAppWith(Layer.mergeAll(layerFixed(principals), CountingRenderer)),
  probe.pipe(Layer.provide(PublicServices))
)

const toolSlug = (slug: string) => slug.replaceAll("-", "_")
const pascal = (slug: string) => slug.split("-").map((part) => part[0]!.toUpperCase() + part.slice(1)).join("")

const account = "key_test"
const ledger = Effect.gen(function*() {
  return { balance: yield* credits.balance(account), spent: (yield* credits.usage(account)).spent }
})

describe("per-type document tools take their contract's schema", () => {
  it.layer(WebApp.layer(app))((it) => {
    it.effect(
      "/.well-known/mcp publishes each create_<slug>_pdf's payload schema, the one OpenAPI publishes",
      () =>
        Effect.gen(function*() {
          const key = { headers: { authorization: `Bearer ${bearers.apiKey}` } }
          const { body: discovery } = yield* WebApp.fetchJson("/.well-known/mcp", key)
          const { body: openapi } = yield* WebApp.fetchJson("/openapi.json", key)
          const entry = (name: string) => discovery.tools.find((tool: { name: string }) => tool.name === name)
          for (const slug of DocumentSlugs) {
            const create = entry(`create_${toolSlug(slug)}_pdf`)
            expect(create.listed).toBe(false)
            const payload = create.inputSchema.properties.payload
            expect(payload.required).toEqual(contractDocuments[slug].required)
            expect(Object.keys(payload.properties)).toEqual(Object.keys(contractDocuments[slug].fields))
            const rest = openapi.components.schemas[`${pascal(slug)}Payload`]
            expect({ required: payload.required, keys: Object.keys(payload.properties) })
              .toEqual({ required: rest.required, keys: Object.keys(rest.properties) })
            expect(entry(`get_${toolSlug(slug)}_pdf_contract`)).toMatchObject({
              listed: false,
              inputSchema: { type: "object" }
            })
          }
          // listed tools carry their schema in tools/list, not here again
          expect(entry("create_pdf")).toMatchObject({ listed: true })
          expect(entry("create_pdf").inputSchema).toBeUndefined()
        }),
      120_000
    )

    it.effect(
      "an invalid payload is refused by that schema, naming the fields, before anything is rendered or charged",
      () =>
        Effect.gen(function*() {
          yield* credits.add(account, 1)
          const before = yield* ledger
          const rendersBefore = renders
          const { TCP_OWNER: _missing, ...withoutOwner } = requiredTcpPayload
          const response = yield* callToolApp("create_tcp_pdf", {
            payload: { ...withoutOwner, DATE: "19 November" },
            allow_incomplete: true
          })
          expect(response.error).toBeUndefined()
          expect(response.result.isError).toBe(true)
          expect(response.result.content[0].text).toMatch(/^Invalid arguments: .*`payload\.TCP_OWNER` is required/)
          expect(response.result.content[0].text).toContain("`payload.DATE`")
          expect(renders).toBe(rendersBefore)
          expect(yield* ledger).toEqual(before)
        }),
      120_000
    )

    it.effect(
      "a valid payload renders; an unknown key is a render warning, as over REST",
      () =>
        Effect.gen(function*() {
          const response = yield* callToolApp("create_tcp_pdf", {
            payload: { ...requiredTcpPayload, EXTRA_NOTE: "x" },
            draft: true
          })
          expect(response.result.isError ?? false).toBe(false)
          expect(response.result.structuredContent.warnings.messages).toContain("unknown key \"EXTRA_NOTE\" ignored")
        }),
      120_000
    )
  })
})
