import type { Content } from "./Content.ts"
import { coverCard } from "./graphics/Graphics.ts"
import type { Fallback } from "./pdf/FallbackFonts.ts"
import { decoratePages, DraftNotice } from "./pdf/Frame.ts"
import { Colors, Page, Type } from "./pdf/Theme.ts"
import { Writer } from "./pdf/Writer.ts"
import { coverFacts, frameOf, infoOf, type RenderOptions } from "./Report.ts"
import { drawDataTable, drawFacts } from "./Sections.ts"

const statementKeys = ["OWNERSHIP_REVIEW", "ADJUDICATION_NOTES"] as const

/** A one-page certificate: band, result card, facts, parties, statements and the signature block. */
export const renderCertificate = async (
  content: Content,
  fallback: Fallback,
  options: RenderOptions
): Promise<Uint8Array> => {
  const contract = content.contract
  const presentation = contract.presentation
  const w = new Writer(infoOf(content, options.now), fallback)
  const doc = w.doc
  const facts = coverFacts(content)
  const card = facts.length > 0 ? coverCard(facts, w.width) : undefined

  w.addPage()
  doc.rect(0, 0, Page.width, 118).fill(Colors.navy)
  doc.rect(0, 118, Page.width, 4).fill(Colors.accent)
  // number and date keep their full width; the company name takes the rest of the line
  w.font("sans", 8.8, "#C9D8E6")
  const number = w.fitLine(
    `No. ${content.text("DOC_NUMBER") ?? ""}  ·  ${content.display("DATE")?.value ?? ""}`,
    "sans",
    8.8,
    w.width * 0.55,
    7
  )
  const numberWidth = w.widthOf(number.text, "sans")
  w.write(number.text, "sans", w.left + w.width - numberWidth, 34, { lineBreak: false })
  w.font("sansSemiBold", 8.8, "#C9D8E6")
  const company = w.fitLine(
    (content.text("COMPANY_NAME") ?? "").toUpperCase(),
    "sansSemiBold",
    8.8,
    w.width - numberWidth - 20,
    7
  )
  w.write(company.text, "sansSemiBold", w.left, 34, { lineBreak: false })
  w.font("sansBold", 21, "#FFFFFF")
  doc.text(presentation.documentType, w.left, 62, { width: w.width })
  w.font("sans", 10, "#8FB3CF")
  const subject = w.fitLine(content.text(presentation.subjectKey) ?? "", "sans", 10, w.width, 7.5)
  w.write(subject.text, "sans", w.left, 90, { lineBreak: false })
  w.y = 138
  if (card) w.image(card)
  drawFacts(w, content, [
    "SCREENED_BY",
    "SCREENING_TOOL",
    "LISTS_SEARCHED",
    "MATCH_THRESHOLD",
    "VALID_UNTIL",
    "VERSION"
  ])

  drawDataTable(w, content, contract.fieldsByKey.get("PARTIES")!)
  for (const key of statementKeys) {
    if (!content.has(key)) continue
    w.caption(contract.fieldsByKey.get(key)!.label)
    w.blocks(content.blocks(key), { size: Type.small + 0.6 })
  }
  if (content.has("CERTIFICATION_STATEMENT")) {
    w.caption("Certification")
    w.blocks(content.blocks("CERTIFICATION_STATEMENT"), { size: Type.body })
  }
  w.ensure(46)
  const line = w.y + 26
  doc.moveTo(w.left, line).lineTo(w.left + 220, line).lineWidth(0.6).strokeColor(Colors.ink).stroke()
  w.font("sans", Type.small, Colors.muted)
  w.write(content.text("SCREENED_BY") ?? "", "sans", w.left, line + 4, { width: 260 })
  doc.text(content.display("SCREENING_DATE")?.value ?? content.display("DATE")?.value ?? "", w.left + 300, line + 4, {
    width: w.width - 300
  })
  if (options.draft) {
    w.y = line + 20
    w.callout(`${DraftNotice}.`, "danger")
  }
  const pages = doc.bufferedPageRange().count
  if (pages > 1) content.warnings.push(`the certificate runs to ${pages} pages; shorten the statements or parties`)
  await w.placePictures()
  decoratePages(w, frameOf(content, options.draft), { skipFirst: true })
  return w.finish()
}
