import type { Content } from "./Content.ts"
import { coverCard } from "./graphics/Graphics.ts"
import type { Fallback } from "./pdf/FallbackFonts.ts"
import { decoratePages } from "./pdf/Frame.ts"
import { regularDensity, type TableDensity, tableHeight } from "./pdf/Table.ts"
import { Colors, Page, Type } from "./pdf/Theme.ts"
import { Writer } from "./pdf/Writer.ts"
import { coverFacts, frameOf, incompleteMark, infoOf, type RenderOptions } from "./Report.ts"
import { dataTable, drawDataTable, drawFacts, drawSignOff, signOffHeight } from "./Sections.ts"

const statementKeys = ["OWNERSHIP_REVIEW", "ADJUDICATION_NOTES"] as const
const statementSize = Type.small + 0.6

/** From regular down to the smallest type a party table may take to keep the certificate on one page. */
const densities: ReadonlyArray<TableDensity> = [
  regularDensity,
  { size: 7.6, padY: 3.4 },
  { size: 7.1, padY: 2.8 },
  { size: 6.8, padY: 2.3 },
  { size: 6.5, padY: 1.9 }
]

const factsDensity: TableDensity = { size: 7.6, padY: 3 }

const proseHeight = (w: Writer, text: string | undefined, size: number) => {
  if (text === undefined) return 0
  w.font("serif", size)
  const body = w.heightOf(text, "serif", { width: w.width, lineGap: Type.bodyGap * (size / Type.body) })
  return captionHeight + body + size * 0.55 * text.split(/\n\s*\n/).length
}

const captionHeight = Type.label + 6

/**
 * Certification, signature and date lines: the block that must not be split. (A draft says so in
 * its watermark and on the footer of every page; it takes no room here.)
 */
const certificationHeight = (w: Writer, content: Content) =>
  proseHeight(w, content.text("CERTIFICATION_STATEMENT"), Type.body) + signOffHeight

const statementWidth = (w: Writer) => (w.width - 18) / 2

/** The ownership review and the adjudication side by side, each under its caption. */
const statementsHeight = (w: Writer, content: Content) =>
  Math.max(
    0,
    ...statementKeys.map((key) => {
      const text = content.text(key)
      if (text === undefined) return 0
      w.font("serif", statementSize)
      return captionHeight + w.heightOf(text, "serif", { width: statementWidth(w), lineGap: 1.4 }) + 8
    })
  )

const drawStatements = (w: Writer, content: Content) => {
  const present = statementKeys.filter((key) => content.has(key))
  if (present.length === 0) return
  const height = statementsHeight(w, content)
  if (w.y + height > w.bottom) {
    // too long for the rest of the page: one after the other, flowing across pages
    for (const key of present) {
      w.caption(content.contract.fieldsByKey.get(key)!.label)
      w.blocks(content.blocks(key), { size: statementSize })
    }
    return
  }
  const top = w.y
  present.forEach((key, i) => {
    const x = w.left + i * (statementWidth(w) + 18)
    w.tags.content("P", () => {
      w.font("sansSemiBold", Type.label, Colors.muted)
      w.doc.text(content.contract.fieldsByKey.get(key)!.label.toUpperCase(), x, top, { characterSpacing: 0.5 })
    })
    w.tags.content("P", () => {
      w.font("serif", statementSize, Colors.ink)
      w.write(content.text(key)!, "serif", x, top + captionHeight, { width: statementWidth(w), lineGap: 1.4 })
    })
  })
  w.y = top + height
}

/** Everything after the party table. */
const closingHeight = (w: Writer, content: Content) => statementsHeight(w, content) + certificationHeight(w, content)

/** On every page but the last: where the certification is, so a page read alone is not taken for the whole. */
const continuationNotes = (w: Writer, pages: number) => {
  const range = w.doc.bufferedPageRange()
  for (let index = range.start; index < range.start + pages - 1; index++) {
    w.doc.switchToPage(index)
    const margins = w.doc.page.margins
    w.doc.page.margins = { ...margins, bottom: 0 }
    w.tags.artifact(() => {
      w.font("sansSemiBold", Type.label, Colors.muted)
      w.doc.text(
        `Continued on page ${
          index - range.start + 2
        }. The certification and signature on page ${pages} cover every page.`,
        w.left,
        w.bottom + 4,
        { width: w.width, lineBreak: false }
      )
    }, "Pagination")
    w.doc.page.margins = margins
  }
}

/** A one-page certificate: band, result card, facts, parties, statements and the signature block. */
export const renderCertificate = async (
  content: Content,
  fallback: Fallback,
  options: RenderOptions
): Promise<Uint8Array> => {
  const contract = content.contract
  const presentation = contract.presentation
  const w = new Writer(infoOf(content, options.now), fallback, { archival: !options.draft })
  const doc = w.doc
  const facts = coverFacts(content)
  const card = facts.length > 0 ? coverCard(facts, w.width, { compact: true }) : undefined

  w.addPage()
  w.tags.artifact(() => {
    doc.rect(0, 0, Page.width, 104).fill(Colors.navy)
    doc.rect(0, 104, Page.width, 4).fill(Colors.accent)
  })
  // number and date keep their full width; the company name takes the rest of the line
  w.font("sans", 8.8, "#C9D8E6")
  const bandTop = 28
  const number = w.fitLine(
    `No. ${content.text("DOC_NUMBER") ?? ""}  ·  ${content.display("DATE")?.value ?? ""}`,
    "sans",
    8.8,
    w.width * 0.55,
    7
  )
  const numberWidth = w.widthOf(number.text, "sans")
  w.font("sansSemiBold", 8.8, "#C9D8E6")
  const company = w.fitLine(
    (content.text("COMPANY_NAME") ?? "").toUpperCase(),
    "sansSemiBold",
    8.8,
    w.width - numberWidth - 20,
    7
  )
  // read in the order a reader looks: who issued it, its number and date, then the title
  w.tags.content("P", () => {
    w.font("sansSemiBold", company.size, "#C9D8E6")
    w.write(company.text, "sansSemiBold", w.left, bandTop, { lineBreak: false })
  })
  w.tags.content("P", () => {
    w.font("sans", number.size, "#C9D8E6")
    w.write(number.text, "sans", w.left + w.width - numberWidth, bandTop, { lineBreak: false })
  })
  w.tags.content("H1", () => {
    w.font("sansBold", 21, "#FFFFFF")
    doc.text(presentation.documentType, w.left, 52, { width: w.width })
  })
  w.font("sans", 10, "#8FB3CF")
  const subject = w.fitLine(content.text(presentation.subjectKey) ?? "", "sans", 10, w.width, 7.5)
  w.tags.content("P", () => {
    w.font("sans", subject.size, "#8FB3CF")
    w.write(subject.text, "sans", w.left, 79, { lineBreak: false })
  })
  w.y = 120
  if (card) w.image(card)
  incompleteMark(w, content)
  drawFacts(w, content, [
    "SCREENED_BY",
    "SCREENING_TOOL",
    "LISTS_SEARCHED",
    "MATCH_THRESHOLD",
    "VALID_UNTIL",
    "VERSION"
  ], { pairs: true, density: factsDensity })

  const parties = contract.fieldsByKey.get("PARTIES")!
  const closing = closingHeight(w, content)
  // the party table takes the densest setting only when the page needs it (12 full rows do)
  const { columns, rows } = dataTable(content, parties)
  const room = w.bottom - w.y - closing - 16
  const density = densities.find((candidate) => tableHeight(w, columns, rows, { density: candidate }) <= room) ??
    densities[densities.length - 1]!
  drawDataTable(w, content, parties, density)
  drawStatements(w, content)
  // certification, signature and date stay together: on the first page, or all on the last one
  w.ensure(certificationHeight(w, content))
  if (content.has("CERTIFICATION_STATEMENT")) {
    w.caption("Certification")
    w.blocks(content.blocks("CERTIFICATION_STATEMENT"), { size: Type.body })
  }
  drawSignOff(w, {
    name: content.text("SCREENED_BY") ?? "",
    date: content.display("SCREENING_DATE")?.value ?? content.display("DATE")?.value ?? ""
  })
  const pages = doc.bufferedPageRange().count
  if (pages > 1) {
    content.warnings.push(`the certificate runs to ${pages} pages; shorten the statements or parties`)
    continuationNotes(w, pages)
  }
  await w.placePictures()
  decoratePages(w, frameOf(content, options.draft), { skipFirst: true })
  return w.finish()
}
