import type { GraphicName, SectionDef } from "../domain/documents/Contract.ts"
import { Risk } from "../domain/documents/Enums.ts"
import { ServiceName, ServiceVersion } from "../domain/Service.ts"
import type { Content } from "./Content.ts"
import { coverCard, type Fact, type FlowStep, type Picture, reviewFlow, riskSummary } from "./graphics/Graphics.ts"
import type { Fallback } from "./pdf/FallbackFonts.ts"
import { decoratePages, DraftNotice, drawContents, type FrameInfo, tocPagesFor } from "./pdf/Frame.ts"
import { Colors, Page, Type } from "./pdf/Theme.ts"
import { Writer } from "./pdf/Writer.ts"
import { drawFacts, drawSection } from "./Sections.ts"

export interface RenderOptions {
  readonly draft: boolean
  readonly now: Date
}

export const frameOf = (content: Content, draft: boolean): FrameInfo => ({
  company: content.text("COMPANY_NAME") ?? "",
  documentType: content.contract.presentation.documentType,
  docNumber: content.text("DOC_NUMBER") ?? "",
  version: content.text("VERSION") ?? "",
  handling: content.text("CONFIDENTIALITY"),
  draft
})

/** Document information every PDF carries: title, author, subject, keywords and our identity. */
export const infoOf = (content: Content, now: Date): PDFKit.DocumentInfo => {
  const presentation = content.contract.presentation
  const subject = content.text(presentation.subjectKey)
  return {
    Title: subject ? `${presentation.documentType}: ${subject}` : presentation.documentType,
    Author: content.text(presentation.authorKey) ?? content.text("COMPANY_NAME") ?? "",
    Subject: `${content.contract.title} ${content.text("DOC_NUMBER") ?? ""}, version ${content.text("VERSION") ?? ""}`,
    Keywords: ["export compliance", content.contract.slug, content.text("DOC_NUMBER") ?? ""].join(", "),
    Creator: `${ServiceName} ${ServiceVersion}`,
    CreationDate: now,
    ModDate: now
  }
}

const risksOf = (content: Content, section: SectionDef) => {
  const statusKey = content.contract.presentation.statusKey
  const keys = section.parts.flatMap((part) => Object.keys(part.fields))
  const row = (key: string) => {
    const value = content.text(key)
    if (value === undefined) return undefined
    return {
      label: content.contract.fieldsByKey.get(key)!.label.replace(/ risk$/, ""),
      level: Risk.values.indexOf(value),
      value: Risk.labels[value]!,
      tone: Risk.tones[value]!
    }
  }
  const areas = keys.filter((key) => key !== statusKey && content.contract.fieldsByKey.get(key)?.choice === Risk)
  return {
    overall: statusKey ? row(statusKey) : undefined,
    rows: areas.flatMap((key) => row(key) ?? [])
  }
}

const graphicFor = (content: Content, section: SectionDef, name: GraphicName, width: number) => {
  if (name === "risk-summary") {
    const { overall, rows } = risksOf(content, section)
    return rows.length === 0 ? undefined : riskSummary(overall, rows, width)
  }
  const steps = section.parts.map((part, index): FlowStep => {
    const fields = Object.keys(part.fields).map((key) => content.contract.fieldsByKey.get(key)!)
    const outcome = fields.find((field) => field.kind === "choice")
    const finding = fields.find((field) => field.kind === "text")
    const shown = outcome ? content.display(outcome.key) : undefined
    return {
      number: index + 1,
      title: (part.title ?? "").replace(/^Step \d+ — /, ""),
      ...(shown?.tone ? { outcome: { label: shown.value, tone: shown.tone } } : {}),
      ...(finding && content.text(finding.key) ? { finding: content.text(finding.key)! } : {})
    }
  })
  const result = content.contract.presentation.coverFacts.slice(0, 2)
    .flatMap((key) => content.display(key)?.value ?? []).join("  ·  ")
  return reviewFlow(steps, `Result: ${result}`, width)
}

const drawCover = (w: Writer, content: Content, card: Picture | undefined, draft: boolean) => {
  const doc = w.doc
  const presentation = content.contract.presentation
  w.addPage()
  w.tags.artifact(() => {
    doc.rect(0, 0, Page.width, 268).fill(Colors.navy)
    doc.rect(0, 268, Page.width, 5).fill(Colors.accent)
  })
  w.font("sansSemiBold", 9.5, "#C9D8E6")
  const company = w.fitBlock((content.text("COMPANY_NAME") ?? "").toUpperCase(), "sansSemiBold", {
    size: 9.5,
    minSize: 7.5,
    width: w.width,
    height: 40
  })
  w.tags.content("P", () => {
    w.font("sansSemiBold", company.size, "#C9D8E6")
    w.write(company.text, "sansSemiBold", w.left, 56, { width: w.width, characterSpacing: 1.2 })
  })
  w.tags.content("P", () => {
    w.font("sans", 12, "#8FB3CF")
    doc.text(presentation.documentType, w.left, 120, { width: w.width })
  })
  // the cover title keeps to the band: a long subject is set smaller before anything is cut
  w.font("sansBold", 25, "#FFFFFF")
  const subject = w.fitBlock(content.text(presentation.subjectKey) ?? "", "sansBold", {
    size: 25,
    minSize: 14,
    width: w.width,
    height: 112
  })
  w.tags.content("H1", () => {
    w.font("sansBold", subject.size, "#FFFFFF")
    w.write(subject.text, "sansBold", w.left, 140, { width: w.width })
  })
  w.y = 296
  if (card) w.image(card)
  incompleteMark(w, content)
  w.space(6)
  w.caption("Document control")
  drawFacts(w, content, ["DOC_NUMBER", "VERSION", "DATE", "DOCUMENT_STATUS", presentation.authorKey, "CONFIDENTIALITY"])
  const notice = "Prepared from public information only; it must not contain CUI or classified information. " +
    "This document records a compliance analysis and is not legal advice. Regulatory citations refer to " +
    `the Export Administration Regulations (15 CFR 730–774) and the ITAR (22 CFR 120–130) as in force on the dates stated.`
  w.y = Math.max(w.y, Page.height - 170)
  if (draft) w.callout(`${DraftNotice}. Final documents are rendered without the draft flag.`, "danger")
  w.tags.content("P", () => {
    w.font("serifItalic", Type.small, Colors.muted)
    doc.text(notice, w.left, w.y, { width: w.width })
  })
}

/** The cover's "Incomplete" mark: which judgements the payload left empty (real text, not a picture). */
export const incompleteMark = (w: Writer, content: Content): void => {
  if (content.incomplete.length === 0) return
  w.callout(
    `INCOMPLETE — nothing was provided for ${content.incomplete.length} required section(s): ` +
      `${content.incomplete.join("; ")}.`,
    "danger"
  )
}

const drawNotes = (w: Writer, warnings: ReadonlyArray<string>) => {
  w.addPage()
  w.heading(1, "Draft review notes")
  w.callout(
    "This page appears on drafts only. It lists what the renderer changed or could not use; fix the " +
      "payload before rendering the final document."
  )
  w.blocks(warnings.map((warning) => ({
    kind: "paragraph" as const,
    runs: [{ text: `• ${warning}`, bold: false, italic: false, underline: false }]
  })))
}

/** The headline facts of the cover card (or the certificate's result card). */
export const coverFacts = (content: Content): Array<Fact> =>
  content.contract.presentation.coverFacts.flatMap((key) => {
    const shown = content.display(key)
    const label = content.contract.fieldsByKey.get(key)!.label
    return shown ? [{ label, value: shown.value, ...(shown.tone ? { tone: shown.tone } : {}) }] : []
  })

/** The cover card and each section's graphic; rasterization runs while the pages are laid out. */
export const drawPictures = (content: Content, width: number) => {
  const contract = content.contract
  const facts = coverFacts(content)
  return {
    card: facts.length > 0 ? coverCard(facts, width) : undefined,
    sections: contract.sections.map((section) =>
      section.graphic ? graphicFor(content, section, section.graphic, width) : undefined
    )
  }
}

/** A report: cover, contents, numbered sections, running header and footer, draft watermark. */
export const renderReport = async (
  content: Content,
  fallback: Fallback,
  options: RenderOptions
): Promise<Uint8Array> => {
  const contract = content.contract
  const w = new Writer(infoOf(content, options.now), fallback, { archival: !options.draft })
  const pictures = drawPictures(content, w.width)
  drawCover(w, content, pictures.card, options.draft)
  const entries = contract.sections.reduce((sum, section) => sum + 1 + section.parts.filter((p) => p.title).length, 0)
  const tocPages = tocPagesFor(entries + (options.draft ? 1 : 0))
  for (let i = 0; i < tocPages; i++) w.addPage()
  const contents = w.tags.reserve("Sect")
  w.addPage()
  contract.sections.forEach((section, index) => drawSection(w, content, section, index + 1, pictures.sections[index]))
  if (options.draft && content.warnings.length > 0) w.tags.group("Sect", () => drawNotes(w, content.warnings))
  drawContents(w, 1, contents)
  await w.placePictures()
  decoratePages(w, frameOf(content, options.draft), { skipFirst: true })
  return w.finish()
}
