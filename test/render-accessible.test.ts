import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import { execFileSync } from "node:child_process"
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import sax from "sax"
import { getDocument } from "unpdf/pdfjs"
import { afterAll } from "vitest"
import type { DocumentSlug } from "../src/domain/Documents.ts"
import { contractDocument, validatePayload } from "../src/domain/documents/Contract.ts"
import { contracts } from "../src/domain/documents/index.ts"
import { renderDocument } from "../src/render/Document.ts"
import { classificationPayload } from "./fixtures/documents/classification.ts"

/**
 * The tagged structure and the PDF/A identification of every document type, read back with
 * independent parsers: pdf.js (structure tree, marked content, document information), sax (the
 * XMP packet must be well-formed XML), poppler's pdffonts (every font embedded) and qpdf (syntax,
 * and the catalog's output intent, viewer preferences and mark information as JSON).
 */
const work = mkdtempSync(join(tmpdir(), "render-accessible-"))
afterAll(() => rmSync(work, { recursive: true, force: true }))

const slugs = Object.keys(contracts) as Array<DocumentSlug>

const placeholders = (slug: DocumentSlug) => contractDocument(contracts[slug]).fields as Record<string, unknown>

const render = async (slug: DocumentSlug, values: Record<string, unknown>, draft = false) => {
  const valid = validatePayload(contracts[slug], values)
  if (Either.isLeft(valid)) throw new Error(`${slug}: ${JSON.stringify(valid.left)}`)
  const { bytes } = await renderDocument(contracts[slug], valid.right, { draft, now: new Date("2026-11-20T00:00:00Z") })
  return bytes
}

interface Node {
  readonly role?: string
  readonly alt?: string
  readonly type?: string
  readonly id?: string
  readonly children?: ReadonlyArray<Node>
}

interface Read {
  readonly pages: number
  readonly info: Record<string, unknown>
  /** Every structure element in reading order, with the text of its own marked content. */
  readonly elements: Array<{ role: string; alt?: string; text: string; children: Array<string> }>
  /** Text shown outside any structure element or artifact. */
  readonly untagged: Array<string>
  readonly artifacts: Array<string>
}

/** Walks each page's structure tree and its text with the marked-content sequences around it. */
const read = async (bytes: Uint8Array): Promise<Read> => {
  const doc = await getDocument({ data: bytes.slice(), isEvalSupported: false, useSystemFonts: false }).promise
  const elements: Read["elements"] = []
  const untagged: Array<string> = []
  const artifacts: Array<string> = []
  for (let number = 1; number <= doc.numPages; number++) {
    const page = await doc.getPage(number)
    const textByMark = new Map<string, string>()
    const stack: Array<{ id: string | null; tag: string }> = []
    const content = await page.getTextContent({ includeMarkedContent: true })
    for (const item of content.items) {
      if ("type" in item) {
        if (item.type === "endMarkedContent") stack.pop()
        else stack.push({ id: item.id ?? null, tag: (item as { readonly tag?: string }).tag ?? "" })
        continue
      }
      if (item.str.trim() === "") continue
      const mark = [...stack].reverse().find((entry) => entry.id !== null || entry.tag === "Artifact")
      if (mark === undefined) untagged.push(`p${number} ${item.str}`)
      else if (mark.id === null) artifacts.push(item.str)
      else textByMark.set(mark.id, (textByMark.get(mark.id) ?? "") + item.str)
    }
    const tree = (await page.getStructTree()) as Node | null
    const marks = new Set<string>()
    const walk = (node: Node) => {
      if (node.type === "content" && node.id) marks.add(node.id)
      if (node.role !== undefined && node.role !== "Root") {
        const text = (node.children ?? []).flatMap((child) =>
          child.type === "content" ? textByMark.get(child.id!) ?? "" : []
        )
          .join("")
        elements.push({
          role: node.role,
          ...(node.alt !== undefined ? { alt: node.alt } : {}),
          text,
          children: (node.children ?? []).flatMap((child) => child.role ?? [])
        })
      }
      node.children?.forEach(walk)
    }
    if (tree) walk(tree)
    // text marked with an id the tree does not reference is as good as untagged
    for (const id of textByMark.keys()) if (!marks.has(id)) untagged.push(`p${number} ${textByMark.get(id)}`)
  }
  const { info } = await doc.getMetadata()
  await doc.destroy()
  return { pages: doc.numPages, info: info as Record<string, unknown>, elements, untagged, artifacts }
}

/** The XMP packet, parsed strictly: element name → text. */
const xmp = (bytes: Uint8Array) => {
  const source = Buffer.from(bytes).toString("utf8")
  const packet = source.slice(source.indexOf("<x:xmpmeta"), source.indexOf("</x:xmpmeta>") + "</x:xmpmeta>".length)
  const values = new Map<string, string>()
  const parser = sax.parser(true)
  let current = ""
  parser.onopentag = (tag) => (current = tag.name)
  parser.ontext = (text) => {
    if (text.trim() !== "") values.set(current, (values.get(current) ?? "") + text.trim())
  }
  parser.write(packet).close()
  return values
}

const qpdfJson = (file: string) =>
  JSON.parse(execFileSync("qpdf", ["--json=2", "--json-key=qpdf", file], { maxBuffer: 64 << 20 }).toString()) as {
    qpdf: [unknown, Record<string, { value?: Record<string, unknown>; stream?: { dict: Record<string, unknown> } }>]
  }

const tools = existsSync("/usr/bin/qpdf") && existsSync("/usr/bin/pdffonts")

describe("tagged PDF", () => {
  it(
    "every document type: all text in a structure element or an artifact, headings in order, tables with header cells, figures with alt text",
    async () => {
      for (const slug of slugs) {
        const bytes = await render(slug, placeholders(slug))
        const doc = await read(bytes)
        expect(doc.untagged, slug).toEqual([])
        expect(doc.info.Language, slug).toBe("en-US")
        const roles = new Set(doc.elements.map((element) => element.role))
        expect(roles.has("Document") && roles.has("H1") && roles.has("P") && roles.has("Table"), slug).toBe(true)
        // the running header and footer are artifacts
        expect(doc.artifacts.some((text) => text.includes("Page 1 of")), slug).toBe(true)
        for (const table of doc.elements.filter((element) => element.role === "Table")) {
          expect(table.children.every((role) => role === "TR"), slug).toBe(true)
        }
        for (const row of doc.elements.filter((element) => element.role === "TR")) {
          expect(row.children.length > 0 && row.children.every((role) => role === "TH" || role === "TD"), slug).toBe(
            true
          )
        }
        // every table reads its first row as header cells (a column header, or the label of a facts row)
        const tables = doc.elements.flatMap((element, i) => element.role === "Table" ? [i] : [])
        for (const index of tables) expect(doc.elements[index + 1]!.children[0], slug).toBe("TH")
        const figures = doc.elements.filter((element) => element.role === "Figure")
        expect(figures.length, slug).toBeGreaterThan(0)
        for (const figure of figures) expect(figure.alt?.length ?? 0, slug).toBeGreaterThan(20)
        const headings = doc.elements.filter((element) => element.role === "H1" || element.role === "H2")
        expect(headings[0]!.role, slug).toBe("H1")
        if (contracts[slug].presentation.layout === "certificate") continue
        // reports: the cover title, "Contents", then the sections in the order the contents list them
        expect(headings[1]!.text, slug).toBe("Contents")
        const entries = doc.elements.filter((element) => element.role === "TOCI").map((entry) => entry.text)
        const sections = headings.slice(2).map((heading) => heading.text)
        expect(entries.length, slug).toBe(sections.length)
        sections.forEach((title, i) => expect(entries[i]!.startsWith(title), `${slug}: ${title}`).toBe(true))
        expect(sections[0], slug).toMatch(/^1\. /)
      }
    },
    60_000
  )

  it("lists and HTML tables from rich text keep their structure; the cover card's facts are text too", async () => {
    const bytes = await render("classification", {
      ...classificationPayload,
      EXECUTIVE_SUMMARY: "<p>Findings:</p><ul><li>Item A</li><li>Item B</li></ul>" +
        "<table><tr><th>Parameter</th><th>Value</th></tr><tr><td>Key length</td><td>256 bits</td></tr></table>"
    })
    const doc = await read(bytes)
    expect(doc.untagged).toEqual([])
    const list = doc.elements.find((element) => element.role === "L")!
    expect(list.children).toEqual(["LI", "LI"])
    const items = doc.elements.filter((element) => element.role === "LI")
    expect(items[0]!.children).toEqual(["Lbl", "LBody"])
    const headers = doc.elements.filter((element) => element.role === "TH").map((cell) => cell.text)
    expect(headers).toEqual(expect.arrayContaining(["PARAMETER", "VALUE"]))
    const card = doc.elements.find((element) => element.role === "Figure")!
    expect(card.alt).toContain("5A002.a.1")
    // searchable and copyable: the ECCN on the cover card is in the text of the figure
    expect(card.text).toContain("5A002.a.1")
  }, 30_000)

  it("a draft is tagged but not archival; its watermark is an artifact", async () => {
    const bytes = await render("tcp", placeholders("tcp"), true)
    const doc = await read(bytes)
    expect(doc.untagged).toEqual([])
    expect(doc.artifacts).toContain("DRAFT")
    expect(xmp(bytes).has("pdfaid:part")).toBe(false)
  }, 30_000)
})

describe.runIf(tools || process.env.CI === "true")("PDF/A-2b finals", () => {
  it(
    "identify as PDF/A-2b in well-formed XMP that repeats the document information, with an sRGB output intent and every font embedded",
    async () => {
      for (const slug of ["restricted-party-screening", "encryption-report"] as const) {
        const bytes = await render(slug, {
          ...placeholders(slug),
          COMPANY_NAME: "Smith & <Wesson> \"Export\" Ltd",
          PREPARED_BY: "R&D Compliance"
        })
        const file = join(work, `${slug}.pdf`)
        writeFileSync(file, bytes)
        const meta = xmp(bytes)
        expect([meta.get("pdfaid:part"), meta.get("pdfaid:conformance")], slug).toEqual(["2", "B"])
        const doc = await read(bytes)
        expect(meta.get("rdf:li"), slug).toBeTruthy()
        expect(Buffer.from(bytes).toString("utf8"), slug).toContain(
          `<rdf:li xml:lang="x-default">${escape(String(doc.info.Title))}</rdf:li>`
        )
        expect(meta.get("xmp:CreateDate")).toBe("2026-11-20T00:00:00Z")
        expect(meta.get("xmp:ModifyDate")).toBe("2026-11-20T00:00:00Z")
        expect(meta.get("pdf:Keywords")).toBe(doc.info.Keywords)
        expect(meta.get("pdf:Producer")).toBe(doc.info.Producer)
        expect(meta.get("xmp:CreatorTool")).toBe(doc.info.Creator)

        expect(execFileSync("qpdf", ["--check", file]).toString()).toContain("No syntax or stream encoding errors")
        const objects = qpdfJson(file).qpdf[1]
        const trailer = objects["trailer"]!.value!
        const root = objects[`obj:${String(trailer["/Root"])}`]!.value!
        expect(root["/MarkInfo"] !== undefined && root["/StructTreeRoot"] !== undefined, slug).toBe(true)
        expect(objects[`obj:${String(root["/MarkInfo"])}`]!.value!["/Marked"]).toBe(true)
        expect(root["/Lang"]).toBe("u:en-US")
        expect(objects[`obj:${String(root["/ViewerPreferences"])}`]!.value!["/DisplayDocTitle"]).toBe(true)
        const intents = root["/OutputIntents"] as Array<string>
        expect(intents).toHaveLength(1)
        const intent = objects[`obj:${intents[0]}`]!.value!
        expect(intent["/S"]).toBe("/GTS_PDFA1")
        expect(objects[`obj:${String(intent["/DestOutputProfile"])}`]!.stream!.dict["/N"]).toBe(3)

        const fonts = execFileSync("pdffonts", [file]).toString().split("\n").slice(2).filter((line) => line.trim())
        expect(fonts.length, slug).toBeGreaterThan(2)
        // columns: name type encoding emb sub uni object ID
        for (const line of fonts) expect(line.split(/\s+/).slice(-5, -2), line).toEqual(["yes", "yes", "yes"])
      }
    },
    30_000
  )
})

const escape = (value: string) =>
  value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;")
