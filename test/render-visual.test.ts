import { afterAll, describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import { execFileSync } from "node:child_process"
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import type { DocumentSlug } from "../src/domain/Documents.ts"
import { contractDocument, validatePayload } from "../src/domain/documents/Contract.ts"
import { contracts } from "../src/domain/documents/index.ts"
import { renderDocument } from "../src/render/Document.ts"
import { Page } from "../src/render/pdf/Theme.ts"
import { classificationPayload } from "./fixtures/documents/classification.ts"
import { fullCertificate } from "./fixtures/documents/hardCases.ts"

/**
 * Renders the hard cases (mixed scripts, long status labels, a 12-party certificate, a 40-row table,
 * 5,000-character notes, the wide Supplement No. 8 table), reads every word's box back from the PDF
 * with pdftotext (poppler-utils) and checks that none lies outside the page's text area or on top of
 * another; rasterizes chosen pages with pdftoppm and compares them with committed goldens.
 * `UPDATE_GOLDENS=1` rewrites the goldens.
 */
const goldens = join(dirname(fileURLToPath(import.meta.url)), "fixtures", "documents", "goldens")
const work = mkdtempSync(join(tmpdir(), "render-visual-"))
const poppler = (tool: string, args: ReadonlyArray<string>) => execFileSync(tool, [...args], { maxBuffer: 64 << 20 })

const notes = Array.from(
  { length: 50 },
  (_, i) => `Note ${i + 1}: the reviewer compared the specification sheet with 5A002.a.1 and 5D002.c.1; no change.`
).join(" ")
  .slice(0, 5_000)

const cases: ReadonlyArray<{ name: string; slug: DocumentSlug; values: Record<string, unknown>; pages: number }> = [
  { name: "certificate-12-scripts", slug: "restricted-party-screening", values: fullCertificate(), pages: 1 },
  {
    name: "memo-40-rows-long-notes",
    slug: "classification",
    values: {
      ...classificationPayload,
      ITEM_NAME_MODEL: "Sentinel 4200 VPN gateway with hardware security module and management software (NW-S4200-HSM)",
      CONFIDENTIALITY: "Company confidential — export compliance record; handle under the technology control plan " +
        "and do not forward outside the trade compliance function",
      METHOD_LIMITATIONS: notes,
      SCREEN_PARTIES: Array.from({ length: 40 }, (_, i) => ({
        PARTY: i % 4 === 0
          ? "東芝デバイス＆ストレージ株式会社"
          : i % 4 === 1
          ? "شركة النور للتجارة"
          : `Distributor ${i + 1} GmbH`,
        ROLE: "Ultimate consignee",
        COUNTRY: "Germany",
        RESULT: i % 3 === 0 ? "screen-false-positive" : "screen-clear",
        NOTES: "Reviewed"
      }))
    },
    pages: 0
  },
  {
    name: "encryption-report",
    slug: "encryption-report",
    values: contractDocument(contracts["encryption-report"]).fields as Record<string, unknown>,
    pages: 0
  }
]

interface Word {
  readonly page: number
  readonly text: string
  readonly xMin: number
  readonly yMin: number
  readonly xMax: number
  readonly yMax: number
}

const words = (pdf: string): Array<Word> => {
  const html = poppler("pdftotext", ["-bbox", pdf, "-"]).toString("utf8")
  const out: Array<Word> = []
  let page = 0
  for (const line of html.split("\n")) {
    if (line.includes("<page ")) page++
    const match = /<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">(.*)<\/word>/.exec(line)
    if (match) {
      const [, xMin, yMin, xMax, yMax, text] = match
      out.push({ page, text: text!, xMin: Number(xMin), yMin: Number(yMin), xMax: Number(xMax), yMax: Number(yMax) })
    }
  }
  return out
}

/** Overlap of two word boxes as a share of the smaller one (pdftotext boxes are the font's full line height). */
const overlap = (a: Word, b: Word) => {
  const x = Math.min(a.xMax, b.xMax) - Math.max(a.xMin, b.xMin)
  const y = Math.min(a.yMax, b.yMax) - Math.max(a.yMin, b.yMin)
  if (x <= 0 || y <= 0) return 0
  const smaller = Math.min((a.xMax - a.xMin) * (a.yMax - a.yMin), (b.xMax - b.xMin) * (b.yMax - b.yMin))
  return smaller > 0 ? (x * y) / smaller : 0
}

/** A grey-scale page as pdftoppm writes it (binary PGM). */
const pgm = (bytes: Buffer) => {
  const header = /^P5\s+(\d+)\s+(\d+)\s+(\d+)\s/.exec(bytes.subarray(0, 40).toString("latin1"))!
  return { width: Number(header[1]), height: Number(header[2]), pixels: bytes.subarray(header[0].length) }
}

const rasterize = (pdf: string, page: number) => {
  const prefix = join(work, `page-${page}`)
  poppler("pdftoppm", ["-gray", "-r", "24", "-f", String(page), "-l", String(page), "-singlefile", pdf, prefix])
  return readFileSync(`${prefix}.pgm`)
}

const rendered = new Map<string, Promise<string>>()

/** Renders a case once per run to a file; the checks and the golden comparison share it. */
const renderCase = (c: (typeof cases)[number]): Promise<string> => {
  const known = rendered.get(c.name)
  if (known) return known
  const file = (async () => {
    const valid = validatePayload(contracts[c.slug], c.values)
    if (Either.isLeft(valid)) throw new Error(`${c.name}: ${JSON.stringify(valid.left)}`)
    const { bytes } = await renderDocument(contracts[c.slug], valid.right, {
      draft: false,
      now: new Date("2026-11-20T00:00:00Z")
    })
    const pdf = join(work, `${c.name}.pdf`)
    writeFileSync(pdf, bytes)
    return pdf
  })()
  rendered.set(c.name, file)
  return file
}

describe.runIf(existsSync("/usr/bin/pdftoppm") || process.env.CI === "true")("document pictures", () => {
  for (const c of cases) {
    it(`${c.name}: every word inside the text area and none printed over another`, async () => {
      const pdf = await renderCase(c)
      const all = words(pdf)
      const pages = Math.max(...all.map((word) => word.page))
      if (c.pages > 0) expect(pages).toBe(c.pages)
      const outside = all.filter((word) =>
        word.xMin < Page.marginX - 1 || word.xMax > Page.width - Page.marginX + 1 || word.yMax > Page.height - 20
      )
      expect(outside.map((word) => `p${word.page} ${word.text}`)).toEqual([])
      const clashes: Array<string> = []
      for (let page = 1; page <= pages; page++) {
        const onPage = all.filter((word) => word.page === page)
        onPage.forEach((a, i) => {
          for (const b of onPage.slice(i + 1)) {
            if (overlap(a, b) > 0.35) clashes.push(`p${page} "${a.text}" over "${b.text}"`)
          }
        })
      }
      expect(clashes).toEqual([])
    }, 180_000)
  }

  it("first pages match their goldens within tolerance", async () => {
    for (const name of ["certificate-12-scripts", "memo-40-rows-long-notes"]) {
      const image = rasterize(await renderCase(cases.find((c) => c.name === name)!), 1)
      const golden = join(goldens, `${name}-p1.pgm`)
      if (process.env.UPDATE_GOLDENS === "1" || !existsSync(golden)) {
        mkdirSync(goldens, { recursive: true })
        writeFileSync(golden, image)
      }
      const expected = pgm(readFileSync(golden))
      const actual = pgm(image)
      expect([actual.width, actual.height]).toEqual([expected.width, expected.height])
      let difference = 0
      for (let i = 0; i < actual.pixels.length; i++) difference += Math.abs(actual.pixels[i]! - expected.pixels[i]!)
      // mean absolute difference per pixel, out of 255: fonts hinting and anti-aliasing move a few grey levels
      expect(difference / actual.pixels.length, name).toBeLessThan(3)
    }
  }, 60_000)

  afterAll(() => rmSync(work, { recursive: true, force: true }))
})
