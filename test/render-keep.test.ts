import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import { execFileSync } from "node:child_process"
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll } from "vitest"
import { contractDocument, validatePayload } from "../src/domain/documents/Contract.ts"
import { contracts } from "../src/domain/documents/index.ts"
import { prepareContent } from "../src/render/Content.ts"
import { renderDocument } from "../src/render/Document.ts"
import { loadFallback } from "../src/render/pdf/FallbackFonts.ts"
import { Page } from "../src/render/pdf/Theme.ts"
import { Writer } from "../src/render/pdf/Writer.ts"
import { drawSection } from "../src/render/Sections.ts"

/**
 * Headings keep with what follows them, and a table too wide for the page is stacked: checked on
 * the words pdftotext (poppler-utils) reads back with their boxes.
 */
const work = mkdtempSync(join(tmpdir(), "render-keep-"))
afterAll(() => rmSync(work, { recursive: true, force: true }))

interface Word {
  readonly page: number
  readonly text: string
  readonly yMin: number
  readonly xMin: number
  readonly xMax: number
}

const words = (bytes: Uint8Array, name: string): Array<Word> => {
  const file = join(work, `${name}.pdf`)
  writeFileSync(file, bytes)
  const html = execFileSync("pdftotext", ["-bbox", file, "-"], { maxBuffer: 64 << 20 }).toString("utf8")
  const out: Array<Word> = []
  let page = 0
  for (const line of html.split("\n")) {
    if (line.includes("<page ")) page++
    const match = /<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="[\d.]+">(.*)<\/word>/.exec(line)
    if (match) {
      out.push({ page, text: match[4]!, xMin: Number(match[1]), yMin: Number(match[2]), xMax: Number(match[3]) })
    }
  }
  return out
}

const contract = contracts["encryption-report"]
const placeholders = contractDocument(contract).fields as Record<string, unknown>
const valid = (values: Record<string, unknown>) => {
  const result = validatePayload(contract, values)
  if (Either.isLeft(result)) throw new Error(JSON.stringify(result.left))
  return result.right
}

const longRow = {
  PRODUCT_NAME: "Sentinel 4200 gateway",
  MODEL_NUMBER: "NW-S4200",
  MANUFACTURER: "Northwind Secure Systems",
  ECCN: "5A002.a.1",
  AUTHORIZATION_TYPE: "ENC",
  ITEM_TYPE: "Network infrastructure",
  NON_US_COMPONENTS: "flag-no",
  NON_US_MANUFACTURING: "Final assembly and test by a contract manufacturer in Hsinchu, Taiwan; " +
    "firmware signed in the United States before shipment"
}

describe.runIf(existsSync("/usr/bin/pdftotext") || process.env.CI === "true")("keeping blocks together", () => {
  it(
    "a section or part heading never ends a page: it moves to the next page with the start of its first block",
    async () => {
      const payload = valid({ ...placeholders, REPORT_ROWS: [longRow, longRow] })
      const fallback = await loadFallback([], () => true)
      const sections = contract.sections.flatMap((section, index) =>
        ["reporting", "analysis"].includes(section.id) ? [{ section, number: index + 1 }] : []
      )
      expect(sections).toHaveLength(2)
      const lonely: Array<string> = []
      // the section starts at every height of the page's last 160 points, where a heading used to be left alone
      for (const { number, section } of sections) {
        for (let room = 40; room <= 160; room += 6) {
          const content = prepareContent(contract, payload.values, [], fallback)
          const w = new Writer({ Title: "keep" }, fallback, { archival: false })
          w.addPage()
          w.y = w.bottom - room
          drawSection(w, content, section, number, undefined)
          const all = words(await w.finish(), `${section.id}-${room}`)
          const headings = w.toc.map((entry) => ({ ...entry, first: entry.title.split(" ")[0]! }))
          for (const heading of headings) {
            const top = all.find((word) => word.page === heading.page + 1 && word.text === heading.first)
            if (top === undefined) throw new Error(`${heading.title} not found`)
            // the heading's own line (and a second one, if it wraps) is followed by more words on its page
            const below = all.filter((word) => word.page === top.page && word.yMin > top.yMin + 24)
            if (below.length === 0) lonely.push(`${heading.title} at ${room} pt`)
          }
        }
      }
      expect(lonely).toEqual([])
    },
    60_000
  )

  it(
    "a table whose identifiers cannot stand side by side is stacked, identifiers whole and inside the page",
    async () => {
      const wide = {
        ...longRow,
        MODEL_NUMBER: "NW-S4200-HSM-EXPORT-EU",
        MANUFACTURER: "Northwind-Secure-Systems-Incorporated",
        AUTHORIZATION_TYPE: "ENC-Unrestricted",
        NON_US_MANUFACTURING: "Taiwan"
      }
      const { bytes } = await renderDocument(contract, valid({ ...placeholders, REPORT_ROWS: [wide, wide, wide] }), {
        draft: false,
        now: new Date("2026-11-20T00:00:00Z")
      })
      const all = words(bytes, "wide")
      for (
        const identifier of ["NW-S4200-HSM-EXPORT-EU", "Northwind-Secure-Systems-Incorporated", "ENC-Unrestricted"]
      ) {
        expect(all.filter((word) => word.text === identifier), identifier).toHaveLength(3)
      }
      // one record after another: "1 OF 3" … "3 OF 3", and each column label once per record
      expect(all.filter((word) => word.text === "OF").length).toBeGreaterThanOrEqual(3)
      expect(all.filter((word) => word.text === "ECCN" && word.xMin < Page.marginX + 10).length).toBeGreaterThanOrEqual(
        3
      )
      const outside = all.filter((word) => word.xMin < Page.marginX - 1 || word.xMax > Page.width - Page.marginX + 1)
      expect(outside.map((word) => word.text)).toEqual([])
      // the contract's own rows: Supplement No. 8's eight headers do not fit either (its one row is
      // stacked), the four-column algorithms table stays a table with its header on one line
      const narrow = words(
        (await renderDocument(contract, valid(placeholders), { draft: false, now: new Date() })).bytes,
        "narrow"
      )
      expect(narrow.filter((word) => word.text === "OF")).toHaveLength(1)
      const header = ["ALGORITHM", "PURPOSE"].map((text) => narrow.find((word) => word.text === text)!.yMin)
      expect(header[0]).toBe(header[1])
    },
    30_000
  )
})
