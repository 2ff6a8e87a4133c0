import { describe, expect, it } from "@effect/vitest"
import { Effect, Either, Option } from "effect"
import { contractDocument, MaxUnknownKeyWarnings, validatePayload } from "../src/domain/documents/Contract.ts"
import { contracts } from "../src/domain/documents/index.ts"
import { sanitizeHtml } from "../src/render/Html.ts"
import { Credits, layerMemory as creditsMemory } from "../src/services/Credits.ts"
import { fileNameFor } from "../src/services/DocumentRendering.ts"
import { KeyStore, layerMemory as keysMemory } from "../src/services/KeyStore.ts"

describe("contracts", () => {
  it("classification has 172 keys, 8 required, risk and flag enums", () => {
    const document = contractDocument(contracts.classification)
    expect(Object.keys(document.fields)).toHaveLength(172)
    expect([...document.required].sort()).toEqual(
      [
        "COMPANY_NAME",
        "DATE",
        "DOC_NUMBER",
        "FINAL_ECCN",
        "FINAL_JURISDICTION",
        "FROM_NAME_TITLE",
        "ITEM_NAME_MODEL",
        "VERSION"
      ]
    )
    expect(document.enums.risk?.values).toEqual(["risk-low", "risk-medium", "risk-high", "risk-critical"])
    expect(document.enums.flag?.values).toEqual(["flag-yes", "flag-no", "flag-unknown", "flag-na"])
    expect(document.enums.flag?.fields).toContain("ENC_PRESENT")
    for (
      const group of [
        "STEP1_",
        "STEP6_",
        "ENC_",
        "SW_",
        "TECH_",
        "LICENSE_",
        "SCREEN_",
        "RED_FLAGS_",
        "AI_",
        "REGULATORY_CURRENCY_",
        "PRIMARY_ANALYST_",
        "SME_"
      ]
    ) {
      expect(Object.keys(document.fields).some((key) => key.startsWith(group))).toBe(true)
    }
    expect(Array.isArray(document.fields.SCREEN_PARTIES)).toBe(true)
  })

  it("every contract's placeholder document validates against its own schema", () => {
    for (const contract of Object.values(contracts)) {
      const result = validatePayload(contract, contractDocument(contract).fields)
      expect(Either.isRight(result), contract.slug).toBe(true)
    }
  })

  it("names every bad field, including rows of malformed arrays; unknown keys are warnings", () => {
    const result = validatePayload(contracts.classification, {
      COMPANY_NAME: " ",
      DATE: "20 November",
      OVERALL_RISK: "risk-extreme",
      SCREEN_PARTIES: [{ PARTY: "A" }, { PARTY: "B", RESULT: "maybe" }],
      KEY_FINDINGS: "not a table"
    })
    expect(Either.isLeft(result)).toBe(true)
    const names = Either.getLeft(result).pipe(Option.getOrThrow).map((issue) => issue.name)
    expect(names).toEqual(expect.arrayContaining([
      "COMPANY_NAME",
      "DOC_NUMBER",
      "DATE",
      "OVERALL_RISK",
      "SCREEN_PARTIES[1].RESULT",
      "KEY_FINDINGS"
    ]))
    const ok = validatePayload(contracts.tcp, { ...contractDocument(contracts.tcp).fields, TYPO_KEY: "x" })
    expect(Either.getOrThrow(ok).warnings).toHaveLength(1)
  })

  it("hands the renderer only contract keys, at the top and in rows, and caps the unknown-key warnings", () => {
    const fields = contractDocument(contracts.tcp).fields
    const extras = Object.fromEntries(Array.from({ length: MaxUnknownKeyWarnings + 5 }, (_, i) => [`EXTRA_${i}`, i]))
    const valid = Either.getOrThrow(validatePayload(contracts.tcp, {
      ...fields,
      ...extras,
      CONTROLLED_ITEMS: [{ ITEM: "RTL", NOTE: { nested: [1] } }]
    }))
    expect(Object.keys(valid.values).sort()).toEqual(Object.keys(fields).sort())
    expect(valid.values.CONTROLLED_ITEMS).toEqual([{ ITEM: "RTL" }])
    expect(valid.warnings).toHaveLength(MaxUnknownKeyWarnings + 1)
    expect(valid.warnings[0]).toBe("unknown key \"CONTROLLED_ITEMS[0].NOTE\" ignored")
    expect(valid.warnings.at(-1)).toBe("6 more unknown keys ignored")
  })

  it("phrases a refused value as every other input's decode failure, without Effect's wording", () => {
    const refused = Either.getLeft(validatePayload(contracts.tcp, { DATE: "20 November", CONTROLLED_ITEMS: {} }))
    expect(Option.getOrThrow(refused).filter((issue) => /Expected|actual/.test(issue.reason))).toEqual([])
    expect(Option.getOrThrow(refused)).toContainEqual({ name: "TCP_OWNER", in: "body", reason: "is required" })
  })
})

describe("HTML subset", () => {
  it("keeps paragraphs, emphasis, lists, links and tables; drops scripts, handlers and external resources", () => {
    const { blocks, dropped } = sanitizeHtml(
      "<p onclick=\"steal()\">Hello <strong>bold</strong> <a href=\"https://ecfr.gov\">eCFR</a> " +
        "<a href=\"javascript:alert(1)\">bad</a></p><script>alert(1)</script><style>p{}</style>" +
        "<img src=\"https://tracker.example/x.png\"><ul><li>one</li><li>two</li></ul>" +
        "<table><tr><th>A</th></tr><tr><td>1</td></tr></table><div>kept text</div>"
    )
    const text = JSON.stringify(blocks)
    expect(text).not.toContain("alert")
    expect(text).not.toContain("tracker")
    expect(text).not.toContain("steal")
    expect(text).toContain("https://ecfr.gov")
    expect(text).not.toContain("javascript:")
    expect(text).toContain("kept text")
    expect(blocks.map((block) => block.kind)).toEqual(["paragraph", "list", "table", "paragraph"])
    // onclick, javascript: href, script, style, img, div
    expect(dropped).toBe(6)
  })
})

describe("file names", () => {
  it("derives a safe ASCII name from the document number", () => {
    expect(fileNameFor("ECM-2026-0142", "1.2", false)).toBe("ECM-2026-0142-v1.2.pdf")
    expect(fileNameFor("../../etc/passwd", undefined, true)).toBe("etc-passwd-DRAFT.pdf")
    expect(fileNameFor("A\"; filename=evil.exe\r\nX: y", "1", false)).toBe("A-filename-evil.exe-X-y-v1.pdf")
    expect(fileNameFor("Ünïcødé №5", "", false)).toBe("Unic-de-No5.pdf")
    expect(fileNameFor("", "", false)).toBe("document.pdf")
  })
})

describe("keys and credits", () => {
  it.effect("stores only a hash and verifies keys in constant time", () =>
    Effect.gen(function*() {
      const keys = yield* KeyStore
      const { key, record } = yield* keys.create({ label: "t", plan: "enterprise" })
      expect(key).toMatch(/^svc_live_[0-9a-f]{12}_[A-Za-z0-9_-]{32}$/)
      expect(JSON.stringify(yield* keys.list)).not.toContain(key.slice(22))
      expect(Option.isSome(yield* keys.verify(key))).toBe(true)
      expect(Option.isNone(yield* keys.verify(`${key.slice(0, -1)}${key.endsWith("A") ? "B" : "A"}`))).toBe(true)
      expect(Option.isNone(yield* keys.verify("svc_live_nonsense"))).toBe(true)
      expect((yield* keys.setStatus(record.keyId, "inactive")).status).toBe("inactive")
    }).pipe(Effect.provide(keysMemory)))

  it.effect("spends a credit once per delivered result and refunds failures", () =>
    Effect.gen(function*() {
      const credits = yield* Credits
      yield* credits.add("k", 2)
      const results = yield* Effect.all(
        Array.from({ length: 5 }, () => Effect.either(credits.spend("k", Effect.yieldNow()))),
        { concurrency: "unbounded" }
      )
      expect(results.filter(Either.isRight)).toHaveLength(2)
      expect(yield* credits.balance("k")).toBe(0)
      yield* credits.add("k", 1)
      yield* Effect.either(credits.spend("k", Effect.fail("render failed")))
      expect(yield* credits.balance("k")).toBe(1)
    }).pipe(Effect.provide(creditsMemory)))
})
