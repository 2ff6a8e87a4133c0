import type { Tags } from "./Tags.ts"
import { Colors, Page, Type } from "./Theme.ts"
import type { Writer } from "./Writer.ts"

/** What the running header, footer and cover show on every page. */
export interface FrameInfo {
  readonly company: string
  readonly documentType: string
  readonly docNumber: string
  readonly version: string
  readonly handling: string | undefined
  readonly draft: boolean
}

export const DraftNotice = "DRAFT — watermarked preview, not for reliance"

const tocLineHeight = 19
const tocPerPage = Math.floor((Page.height - Page.top - Page.bottom - 60) / tocLineHeight)

export const tocPagesFor = (entries: number) => Math.max(1, Math.ceil(entries / tocPerPage))

/**
 * The contents pages reserved after the cover, filled once every heading knows its page; `place`
 * is the structure element reserved for them in reading order.
 */
export const drawContents = (w: Writer, firstPage: number, place: ReturnType<Tags["reserve"]>): void => {
  place.group(() => {
    const heading = (title: string) => {
      w.font("sansSemiBold", Type.h1, Colors.navy)
      w.doc.text(title, w.left, w.y, { width: w.width })
    }
    w.doc.switchToPage(firstPage)
    w.y = Page.top
    w.tags.content("H1", () => heading("Contents"))
    w.tags.group("TOC", () => drawEntries(w, firstPage, heading))
  })
  place.end()
}

const drawEntries = (w: Writer, firstPage: number, heading: (title: string) => void) => {
  const doc = w.doc
  w.toc.forEach((entry, index) => {
    const pageOffset = Math.floor(index / tocPerPage)
    if (index % tocPerPage === 0) {
      // the first page's heading is the section's; a continuation repeats it as page furniture
      if (pageOffset > 0) {
        doc.switchToPage(firstPage + pageOffset)
        w.y = Page.top
        w.tags.artifact(() => heading("Contents (continued)"), "Pagination")
      }
      const rule = w.y + 3
      w.rule(rule, 1.2, Colors.navy)
      w.y = rule + 14
    }
    const indent = entry.level === 1 ? 0 : 18
    const y = w.y
    const page = String(entry.page + 1)
    const face = entry.level === 1 ? "sansSemiBold" : "sans"
    const size = entry.level === 1 ? 10 : 9.2
    w.font(face, size, Colors.ink)
    const pageWidth = doc.widthOfString(page)
    const titleWidth = Math.min(w.widthOf(entry.title, face), w.width - indent - 60)
    const title = w.fitLine(entry.title, face, size, titleWidth)
    w.tags.content("TOCI", (element) => {
      w.font(face, size, Colors.ink)
      w.write(title.text, face, w.left + indent, y, { lineBreak: false })
      w.font(face, size, Colors.ink)
      doc.text(` ${page}`, w.left + w.width - pageWidth - doc.widthOfString(" "), y, { lineBreak: false })
      // the link is part of the entry, so a reader of the structure can follow it
      doc.goTo(w.left + indent, y - 2, w.width - indent, 14, entry.destination, {
        structParent: element
      } as PDFKit.Mixins.AnnotationOption)
    })
    const dotsFrom = w.left + indent + titleWidth + 6
    const dotsTo = w.left + w.width - pageWidth - 6
    if (dotsTo > dotsFrom) {
      w.tags.artifact(() =>
        doc.moveTo(dotsFrom, y + 9).lineTo(dotsTo, y + 9).dash(0.6, { space: 2.4 }).lineWidth(0.6)
          .strokeColor(Colors.faint).stroke().undash()
      )
    }
    w.y = y + tocLineHeight
  })
}

/** Running header and footer on every page but the cover, and the draft watermark on every page. */
export const decoratePages = (w: Writer, frame: FrameInfo, options: { readonly skipFirst: boolean }): void => {
  const doc = w.doc
  const range = doc.bufferedPageRange()
  const total = range.count
  for (let index = range.start; index < range.start + total; index++) {
    doc.switchToPage(index)
    w.tags.artifact(() =>
      decoratePage(w, frame, index - range.start, total, options.skipFirst && index === range.start)
    )
  }
}

const decoratePage = (w: Writer, frame: FrameInfo, index: number, total: number, cover: boolean) => {
  const doc = w.doc
  // the footer sits in the bottom margin: lift the margin so pdfkit does not break the page
  const margins = doc.page.margins
  doc.page.margins = { ...margins, top: 0, bottom: 0 }
  if (frame.draft) watermark(w)
  if (!cover) {
    const headerY = 40
    // the document number keeps its full width; the company and type take what is left
    const number = w.fitLine(`${frame.docNumber}  ·  Version ${frame.version}`, "sans", 7.6, w.width * 0.45, 6.4)
    const numberWidth = w.widthOf(number.text, "sans")
    doc.fillColor(Colors.muted)
    w.write(number.text, "sans", w.left + w.width - numberWidth, headerY, { lineBreak: false })
    w.font("sansSemiBold", 7.4, Colors.muted)
    const title = w.fitLine(
      `${frame.company.toUpperCase()}  ·  ${frame.documentType.toUpperCase()}`,
      "sansSemiBold",
      7.4,
      w.width - numberWidth - 18,
      6.4
    )
    w.write(title.text, "sansSemiBold", w.left, headerY, { lineBreak: false })
    doc.moveTo(w.left, headerY + 13).lineTo(w.left + w.width, headerY + 13).lineWidth(0.5).strokeColor(Colors.rule)
      .stroke()
  }
  const footerY = Page.height - 44
  doc.moveTo(w.left, footerY - 6).lineTo(w.left + w.width, footerY - 6).lineWidth(0.5).strokeColor(Colors.rule)
    .stroke()
  // right: number, version and page, never shortened; left: the handling notice in the rest, shrunk or cut
  const right = w.fitLine(
    `${frame.docNumber} v${frame.version}  ·  Page ${index + 1} of ${total}`,
    "sans",
    7.4,
    w.width * 0.5,
    6.4
  )
  const rightWidth = w.widthOf(right.text, "sans")
  doc.fillColor(Colors.muted)
  w.write(right.text, "sans", w.left + w.width - rightWidth, footerY, { lineBreak: false })
  const leftFont = frame.draft ? "sansSemiBold" : "sans"
  const left = w.fitLine(
    frame.draft ? DraftNotice : frame.handling ?? "",
    leftFont,
    7.4,
    w.width - rightWidth - 18,
    6
  )
  doc.fillColor(frame.draft ? Colors.watermark : Colors.muted)
  w.write(left.text, leftFont, w.left, footerY + (7.4 - left.size) / 2, { lineBreak: false })
  doc.page.margins = margins
}

const watermark = (w: Writer) => {
  const doc = w.doc
  doc.save()
  doc.rotate(-38, { origin: [Page.width / 2, Page.height / 2] })
  doc.fillOpacity(0.075)
  w.font("sansBold", 120, Colors.watermark)
  const width = doc.widthOfString("DRAFT")
  doc.text("DRAFT", Page.width / 2 - width / 2, Page.height / 2 - 70, { lineBreak: false })
  doc.restore()
}
