import PDFDocument from "pdfkit"

export interface PdfPage {
  readonly heading?: string
  readonly paragraphs: ReadonlyArray<string>
}

const render = (draw: (doc: PDFKit.PDFDocument) => void): Promise<Uint8Array> =>
  new Promise((resolve, reject) => {
    const doc = new PDFDocument({ size: "LETTER", margin: 72, info: { Title: "Synthetic test document" } })
    const chunks: Array<Buffer> = []
    doc.on("data", (chunk: Buffer) => chunks.push(chunk))
    doc.on("end", () => resolve(new Uint8Array(Buffer.concat(chunks))))
    doc.on("error", reject)
    draw(doc)
    doc.end()
  })

/** A small text PDF: per page an optional large heading, then body paragraphs. */
export const textPdf = (pages: ReadonlyArray<PdfPage>): Promise<Uint8Array> =>
  render((doc) => {
    pages.forEach((page, i) => {
      if (i > 0) doc.addPage()
      if (page.heading) doc.font("Helvetica-Bold").fontSize(18).text(page.heading).moveDown()
      doc.font("Helvetica").fontSize(11)
      for (const paragraph of page.paragraphs) doc.text(paragraph).moveDown()
    })
  })

/** A PDF with drawings but no text layer, like a scan. */
export const imageOnlyPdf = (): Promise<Uint8Array> =>
  render((doc) => {
    doc.rect(72, 72, 300, 200).fill("#777777")
    doc.circle(300, 400, 60).stroke()
  })
