import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import { getDocument } from "unpdf/pdfjs"
import { validatePayload } from "../src/domain/documents/Contract.ts"
import { contracts } from "../src/domain/documents/index.ts"
import { renderDocument } from "../src/render/Document.ts"
import { coverCard, type Picture, reviewFlow, riskSummary } from "../src/render/graphics/Graphics.ts"
import { loadFallback } from "../src/render/pdf/FallbackFonts.ts"
import { parseSvg } from "../src/render/pdf/Svg.ts"
import { Writer } from "../src/render/pdf/Writer.ts"
import { classificationPayload } from "./fixtures/documents/classification.ts"

/**
 * Pictures are drawn from satori's SVG as vector paths and text; an SVG with anything the vector
 * path does not draw is rasterized instead, with its description as invisible text.
 */
const text = async (bytes: Uint8Array) => {
  const doc = await getDocument({ data: bytes.slice(), isEvalSupported: false, useSystemFonts: false }).promise
  const pages: Array<string> = []
  for (let i = 1; i <= doc.numPages; i++) {
    const content = await (await doc.getPage(i)).getTextContent()
    pages.push(content.items.map((item) => ("str" in item ? item.str : "")).join(" "))
  }
  await doc.destroy()
  return pages
}

const images = (bytes: Uint8Array) => (Buffer.from(bytes).toString("latin1").match(/\/Subtype \/Image/g) ?? []).length

const withPicture = async (picture: Picture) => {
  const w = new Writer({ Title: "Picture" }, await loadFallback([], () => true), { archival: false })
  w.addPage()
  w.image(picture)
  await w.placePictures()
  return w.finish()
}

const square = (inside: string) =>
  `<svg width="120" height="60" viewBox="0 0 120 60" xmlns="http://www.w3.org/2000/svg">${inside}</svg>`

describe("pictures from SVG", () => {
  it("every graphic satori lays out for us is drawn as vectors", async () => {
    const steps = [1, 2, 3, 4].map((number) => ({
      number,
      title: `Step & check ${number}`,
      outcome: { label: "Described", tone: "warning" as const },
      finding: "Found <nothing> \"odd\""
    }))
    const pictures = [
      coverCard([{ label: "ECCN", value: "5A002.a.1" }, { label: "Risk", value: "Medium", tone: "caution" }], 492),
      coverCard([{ label: "Result", value: "Clear", tone: "good" }], 492, { compact: true }),
      riskSummary({ label: "Overall", level: 1, value: "Medium", tone: "caution" }, [
        { label: "Jurisdiction", level: 0, value: "Low", tone: "good" }
      ], 492),
      reviewFlow(steps, "Result: EAR · 5A002.a.1", 492)
    ]
    for (const picture of pictures) expect(parseSvg(await picture.svg)).toBeDefined()

    const valid = validatePayload(contracts.classification, classificationPayload)
    if (Either.isLeft(valid)) throw new Error("fixture does not validate")
    const { bytes } = await renderDocument(contracts.classification, valid.right, { draft: false, now: new Date() })
    expect(images(bytes)).toBe(0)
    // the cover card's words are real text, once (no invisible copy)
    const cover = (await text(bytes))[0]!
    expect(cover.match(/5A002\.a\.1/g)).toHaveLength(1)
  })

  it("refuses what it does not draw: masks in use, transforms, opacity, gradients, images, italic, unknown clips, bad markup", () => {
    const refused = [
      square(
        `<mask id="m"><rect x="0" y="0" width="10" height="10" fill="#fff"/></mask><rect mask="url(#m)" x="0" y="0" width="10" height="10" fill="#000"/>`
      ),
      square(`<rect transform="rotate(4)" x="0" y="0" width="10" height="10" fill="#000"/>`),
      square(`<rect opacity="0.5" x="0" y="0" width="10" height="10" fill="#000"/>`),
      square(`<rect x="0" y="0" width="10" height="10" fill="rgba(0,0,0,0.5)"/>`),
      square(`<linearGradient id="g"/><rect x="0" y="0" width="10" height="10" fill="#000"/>`),
      square(`<image x="0" y="0" width="10" height="10"/>`),
      square(`<text x="0" y="10" font-style="italic" font-size="9" fill="#000">Slanted</text>`),
      square(`<text x="0" y="10" font-family="Comic Sans" font-size="9" fill="#000">Other</text>`),
      square(`<rect clip-path="url(#nowhere)" x="0" y="0" width="10" height="10" fill="#000"/>`),
      square(`<polygon points="1,2,3" fill="#000"/>`),
      square(`<rect x="0" y="0" width="10" height="10" fill="#000">`),
      `${square("")}<svg width="1" height="1"></svg>`,
      `<svg width="1" height="1"><rect x="0"/><?xml-stylesheet href="x"?></svg>`
    ]
    for (const svg of refused) expect(parseSvg(svg)).toBeUndefined()
    expect(parseSvg(square(
      `<defs><clipPath id="c"><path d="M0,0h10v10h-10z M2,2h6v6h-6z" clip-rule="evenodd"/></clipPath></defs>` +
        `<g clip-path="url(#c)"><rect x="0" y="0" width="10" height="10" fill="#0B2545"/></g>` +
        `<text x="12" y="10" font-weight="600" font-size="9" letter-spacing="0.5" fill="#1F2933">A &amp; B</text>`
    ))).toBeDefined()
  })

  it("draws a supported SVG as text and paths, and rasterizes any other with its description as invisible text", async () => {
    const vector = await withPicture({
      svg: Promise.resolve(square(`<text x="4" y="20" font-size="10" fill="#000">Drawn &amp; read</text>`)),
      width: 120,
      height: 60,
      alt: "A drawn word"
    })
    expect(images(vector)).toBe(0)
    expect((await text(vector))[0]).toContain("Drawn & read")

    const raster = await withPicture({
      svg: Promise.resolve(square(`<rect opacity="0.5" x="0" y="0" width="120" height="60" fill="#1D5C85"/>`)),
      width: 120,
      height: 60,
      alt: "A translucent square"
    })
    expect(images(raster)).toBe(1)
    expect((await text(raster))[0]).toContain("A translucent square")
  })
})
