import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { contractDocument } from "../src/domain/documents/Contract.ts"
import { contracts } from "../src/domain/documents/index.ts"
import type { Payer } from "../src/services/DocumentPayers.ts"
import * as DocumentRendering from "../src/services/DocumentRendering.ts"
import { makeInProcess } from "../src/services/Renderer.ts"
import { minimalClassificationPayload, skeletonClassificationPayload } from "./fixtures/documents/classification.ts"
import { parsePdf } from "./support/ParsePdf.ts"

const plan = {
  name: "test",
  pricing: "1 credit",
  purchaseUrl: "https://example.test/buy",
  contact: "sales@example.test"
}

/** A credit-metered payer that counts what it was asked to pay for. */
const countingPayer = () => {
  const paid = { count: 0 }
  const payer: Payer = {
    metering: "credits",
    billingIssue: false,
    balance: Effect.sync(() => 10 - paid.count),
    pay: (work) =>
      Effect.map(Effect.tap(work, () => Effect.sync(() => paid.count++)), (value) => ({
        value,
        remaining: 10 - paid.count
      }))
  }
  return { payer, paid }
}

const render = (order: Omit<DocumentRendering.RenderOrder, "payer">, payer: Payer) =>
  Effect.gen(function*() {
    const renderer = yield* makeInProcess({ concurrency: 1 })
    const { charge, document } = yield* DocumentRendering.make(renderer, plan)({ ...order, payer }, () => Effect.void)
    return { charge, document, pdf: yield* Effect.promise(() => parsePdf(document.bytes)) }
  })

describe("completeness of judgement sections", () => {
  it.effect(
    "renders a skeleton asked for as a final as a free draft marked Incomplete, naming the empty sections",
    () =>
      Effect.gen(function*() {
        const { paid, payer } = countingPayer()
        const { charge, document, pdf } = yield* render(
          { slug: "classification", body: skeletonClassificationPayload, draft: false },
          payer
        )
        expect(document.draft).toBe(true)
        expect(document.fileName).toBe("ECM-2026-0142-v1.0-DRAFT.pdf")
        expect(paid.count).toBe(0)
        expect(charge).toEqual({ metering: "free", credits: { charged: 0, remaining: 10 } })
        expect(document.warnings.messages[0]).toBe(
          "10 required section(s) empty, rendered as a draft; ask for allow_incomplete to render a final"
        )
        const cover = pdf.text[0]!.replace(/\s+/g, " ")
        expect(cover).toContain("INCOMPLETE — nothing was provided for 10 required section(s): Purpose and scope;")
        expect(cover).toContain("AI use and regulatory currency.")
        expect(cover).toContain("DRAFT")
      }),
    { timeout: 120_000 }
  )

  it.effect(
    "renders the skeleton as a paid final with allow_incomplete, still marked Incomplete",
    () =>
      Effect.gen(function*() {
        const { paid, payer } = countingPayer()
        const { document, pdf } = yield* render(
          { slug: "classification", body: skeletonClassificationPayload, draft: false, allowIncomplete: true },
          payer
        )
        expect(document.draft).toBe(false)
        expect(paid.count).toBe(1)
        const cover = pdf.text[0]!.replace(/\s+/g, " ")
        expect(cover).toContain("INCOMPLETE — nothing was provided for 10 required section(s)")
        expect(cover).not.toContain("DRAFT")
      }),
    { timeout: 120_000 }
  )

  it.effect("renders a payload with every judgement section as a final without the mark", () =>
    Effect.gen(function*() {
      const { paid, payer } = countingPayer()
      const { document, pdf } = yield* render(
        { slug: "classification", body: minimalClassificationPayload, draft: false },
        payer
      )
      expect(document.draft).toBe(false)
      expect(paid.count).toBe(1)
      expect(pdf.text.join(" ")).not.toContain("INCOMPLETE")
    }), { timeout: 120_000 })

  it.effect(
    "marks a certificate without parties, and publishes which sections count in the contract",
    () =>
      Effect.gen(function*() {
        const { payer } = countingPayer()
        const { COMPANY_NAME, DATE, DOC_NUMBER, OVERALL_RESULT, SCREENED_BY, VERSION } =
          contractDocument(contracts["restricted-party-screening"]).fields
        const { document, pdf } = yield* render({
          slug: "restricted-party-screening",
          body: { COMPANY_NAME, DATE, DOC_NUMBER, OVERALL_RESULT, SCREENED_BY, VERSION },
          draft: false
        }, payer)
        expect(document.draft).toBe(true)
        expect(pdf.text[0]!.replace(/\s+/g, " ")).toContain(
          "INCOMPLETE — nothing was provided for 2 required section(s): Parties screened; Certification."
        )
        expect(contractDocument(contracts["restricted-party-screening"]).judgement_sections).toEqual([
          "Parties screened",
          "Certification"
        ])
        expect(contractDocument(contracts.tcp).judgement_sections).not.toContain("Document control")
      }),
    { timeout: 120_000 }
  )
})
