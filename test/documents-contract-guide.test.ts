import { describe, expect, it } from "@effect/vitest"
import { Option, SchemaAST } from "effect"
import { readFileSync } from "node:fs"
import { contractDocuments, contracts } from "../src/domain/documents/index.ts"
import { DefaultResultChars } from "../src/mcp/Budget.ts"

const memo = readFileSync(new URL("../skills/svc-classify/templates/classification-memo.md", import.meta.url), "utf8")

/** Each key's description, read back from the payload schema's annotations. */
const descriptions = (slug: keyof typeof contracts): Map<string, string | undefined> => {
  const ast = contracts[slug].schema.ast as SchemaAST.TypeLiteral
  return new Map(ast.propertySignatures.map((property) => {
    // an optional key's type is the annotated schema or, after `optional`, a union holding it
    const own = SchemaAST.getDescriptionAnnotation(property.type)
    const held = SchemaAST.isUnion(property.type)
      ? property.type.types.map((member) => SchemaAST.getDescriptionAnnotation(member)).find(Option.isSome)
      : undefined
    const found: Option.Option<string> = Option.isSome(own) ? own : held ?? Option.none()
    return [String(property.name), Option.getOrUndefined(found)] as const
  }))
}

describe("document contracts describe their keys, and the classification memo template uses them", () => {
  it("fills the classification memo template with contract keys only", () => {
    const placeholders = [...memo.matchAll(/\{\{([A-Z0-9_]+)\}\}/g)].map((match) => match[1]!)
    expect(placeholders.length).toBeGreaterThan(40)
    const keys = new Set(contracts.classification.fields.map((field) => field.key))
    expect(placeholders.filter((placeholder) => !keys.has(placeholder))).toEqual([])
    // the keys the document cannot stand without are in the template
    for (const required of contractDocuments.classification.required) expect(placeholders, required).toContain(required)
  })

  it.each(Object.keys(contracts) as Array<keyof typeof contracts>)(
    "%s: every key says where it belongs and what to write, and the contract stays within one result",
    (slug) => {
      const contract = contracts[slug]
      const described = descriptions(slug)
      const document = contractDocuments[slug]
      const placed = document.sections.flatMap((section) => section.keys.map((key) => [key, section.title] as const))
      expect(placed.map(([key]) => key).sort()).toEqual(contract.fields.map((field) => field.key).sort())
      for (const [key, where] of placed) {
        expect(described.get(key)?.startsWith(`${where}: `), key).toBe(true)
        expect(described.get(key)!.length, key).toBeGreaterThan(where.length + 3)
      }
      expect(JSON.stringify(document).length).toBeLessThanOrEqual(DefaultResultChars)
    }
  )

  it("names the order-of-review step of each step key", () => {
    const step = contractDocuments.classification.sections.find((section) => section.keys.includes("STEP4_FINDING"))
    expect(step?.title).toBe("Order of review › Step 4 — Remaining CCL entries — most specific ECCN")
    expect(descriptions("classification").get("STEP4_FINDING")).toBe(
      "Order of review › Step 4 — Remaining CCL entries — most specific ECCN: Step 4 finding"
    )
  })
})
