/**
 * PDF/A asks that the XMP metadata say what the document information dictionary says. pdfkit
 * writes the values into the XML unescaped (a company called "A & B" would make the packet
 * unreadable) and leaves out the modification date: this writes the same properties escaped,
 * with `xmp:ModifyDate`. pdfkit adds the PDF/A identification and the sRGB output intent itself.
 */
const escapeXml = (value: string) =>
  value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;")

const xmpDate = (date: Date) => `${date.toISOString().split(".")[0]}Z`

interface MetadataHooks {
  info: PDFKit.DocumentInfo
  appendXML(xml: string, newLine?: boolean): void
  _addInfo(): void
}

export const escapedMetadata = (doc: PDFKit.PDFDocument): void => {
  // pdfkit's own writer is a mixin method called while the file ends; the instance's copy replaces it
  const hooks = doc as unknown as MetadataHooks
  hooks._addInfo = () => {
    const info = hooks.info
    const text = (value: unknown) => escapeXml(String(value ?? ""))
    const dates = [
      info.CreationDate ? `<xmp:CreateDate>${xmpDate(info.CreationDate)}</xmp:CreateDate>` : "",
      info.ModDate ? `<xmp:ModifyDate>${xmpDate(info.ModDate)}</xmp:ModifyDate>` : ""
    ].join("")
    hooks.appendXML(
      `<rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/">${dates}` +
        `<xmp:CreatorTool>${text(info.Creator)}</xmp:CreatorTool></rdf:Description>`
    )
    const dc = [
      info.Title
        ? `<dc:title><rdf:Alt><rdf:li xml:lang="x-default">${text(info.Title)}</rdf:li></rdf:Alt></dc:title>`
        : "",
      info.Author ? `<dc:creator><rdf:Seq><rdf:li>${text(info.Author)}</rdf:li></rdf:Seq></dc:creator>` : "",
      info.Subject
        ? `<dc:description><rdf:Alt><rdf:li xml:lang="x-default">${
          text(info.Subject)
        }</rdf:li></rdf:Alt></dc:description>`
        : ""
    ].join("")
    if (dc !== "") {
      hooks.appendXML(
        `<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/">${dc}</rdf:Description>`
      )
    }
    hooks.appendXML(
      `<rdf:Description rdf:about="" xmlns:pdf="http://ns.adobe.com/pdf/1.3/">` +
        `<pdf:Producer>${text(info.Producer)}</pdf:Producer>` +
        (info.Keywords ? `<pdf:Keywords>${text(info.Keywords)}</pdf:Keywords>` : "") +
        `</rdf:Description>`
    )
  }
}
