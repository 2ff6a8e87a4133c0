import type { Content } from "../../src/render/Content.ts"
import type { Block, Run } from "../../src/render/Html.ts"

/**
 * The same document as HTML for the Chromium baseline: cover, contents, numbered sections with
 * the same facts grids, prose, tables (`thead` repeats on every printed page) and the same
 * pictures (passed in as SVG), plus a fixed draft watermark.
 */
const escape = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;")

const runs = (list: ReadonlyArray<Run>) =>
  list.map((run) => {
    let html = escape(run.text).replace(/\n/g, "<br>")
    if (run.bold) html = `<strong>${html}</strong>`
    if (run.italic) html = `<em>${html}</em>`
    if (run.link) html = `<a href="${escape(run.link)}">${html}</a>`
    return html
  }).join("")

const blocks = (list: ReadonlyArray<Block>): string =>
  list.map((block) => {
    if (block.kind === "paragraph") return `<p>${runs(block.runs)}</p>`
    if (block.kind === "list") {
      const tag = block.ordered ? "ol" : "ul"
      return `<${tag}>${block.items.map((item) => `<li>${blocks(item)}</li>`).join("")}</${tag}>`
    }
    return `<table>${
      block.rows.map((row) => `<tr>${row.cells.map((cell) => `<td>${runs(cell)}</td>`).join("")}</tr>`).join("")
    }</table>`
  }).join("")

/** satori's SVG is sized in user units, which are points in the PDF: scaled to the same width here. */
const picture = (svg: string, width: number) =>
  `<div class="picture" style="width:${width}pt">${
    svg.replace(/^<svg /, "<svg style=\"width:100%;height:auto\" ")
  }</div>`

export const documentHtml = (
  content: Content,
  pictures: { readonly card?: string; readonly sections: ReadonlyArray<string | undefined> },
  draft: boolean
): string => {
  const contract = content.contract
  const label = (key: string) => escape(contract.fieldsByKey.get(key)!.label)
  const facts = (keys: ReadonlyArray<string>) => {
    const rows = keys.filter((key) => content.has(key)).map((key) => {
      const shown = content.display(key)!
      const value = shown.tone ? `<span class="badge ${shown.tone}">${escape(shown.value)}</span>` : escape(shown.value)
      return `<tr><th>${label(key)}</th><td>${value}</td></tr>`
    })
    return rows.length === 0 ? "" : `<table class="facts">${rows.join("")}</table>`
  }
  const body: Array<string> = []
  const toc: Array<string> = []
  contract.sections.forEach((section, index) => {
    const number = index + 1
    toc.push(`<li>${number}. ${escape(section.title)}</li>`)
    body.push(`<h1>${number}. ${escape(section.title)}</h1>`)
    const svg = pictures.sections[index]
    if (svg) body.push(picture(svg, 492))
    section.parts.forEach((part, p) => {
      if (part.title) body.push(`<h2>${number}.${p + 1} ${escape(part.title)}</h2>`)
      let pending: Array<string> = []
      const flush = () => {
        body.push(facts(pending))
        pending = []
      }
      for (const key of Object.keys(part.fields)) {
        const field = contract.fieldsByKey.get(key)!
        if (field.kind === "text" || field.kind === "date" || field.kind === "choice") {
          pending.push(key)
          continue
        }
        flush()
        if (field.kind === "table") {
          const rows = content.rows(key)
          if (rows.length === 0) continue
          const columns = field.columns!
          body.push(
            `<div class="caption">${escape(field.label)}</div><table class="data"><thead><tr>${
              columns.map((c) => `<th>${escape(c.label)}</th>`).join("")
            }</tr></thead><tbody>${
              rows.map((row) => `<tr>${columns.map((c) => `<td>${escape(row[c.key] ?? "")}</td>`).join("")}</tr>`).join(
                ""
              )
            }</tbody></table>`
          )
        } else if (content.has(key)) {
          body.push(`<div class="caption">${escape(field.label)}</div>${blocks(content.blocks(key))}`)
        }
      }
      flush()
    })
  })
  const subject = escape(content.text(contract.presentation.subjectKey) ?? "")
  const certificate = contract.presentation.layout === "certificate"
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${subject}</title><style>
@page { size: Letter; margin: 78pt 60pt 70pt 60pt; }
body { font-family: "IBM Plex Serif", serif; font-size: 9.8pt; line-height: 1.4; color: #1F2933; margin: 0; }
h1, h2, .caption, table, .cover { font-family: "IBM Plex Sans", sans-serif; }
h1 { font-size: 15pt; color: #0B2545; border-bottom: 1.2pt solid #0B2545; break-after: avoid; }
h2 { font-size: 11.2pt; color: #1D5C85; break-after: avoid; }
.caption { font-size: 7.4pt; text-transform: uppercase; letter-spacing: .5pt; color: #52606D; margin-top: 8pt; }
table { width: 100%; border-collapse: collapse; font-size: 8.2pt; margin: 4pt 0 10pt; }
th, td { text-align: left; padding: 4pt 5pt; border-bottom: .4pt solid #D9E2EC; vertical-align: top; }
thead th { background: #EDF2F7; text-transform: uppercase; font-size: 7.4pt; color: #52606D; border-bottom: .8pt solid #1D5C85; }
table.facts th { width: 30%; }
tbody tr:nth-child(even) { background: #F7F9FB; }
tr { break-inside: avoid; }
.badge { border-radius: 8pt; padding: 1pt 6pt; font-weight: 600; }
.good { background: #E3F2E9; color: #1E6B45 } .caution { background: #FBF0D5; color: #8A5A00 }
.warning { background: #FCE6D8; color: #A2440F } .danger { background: #FBE3E1; color: #9F1F14 }
.neutral { background: #EAEEF2; color: #3E4C59 }
.cover { background: #0B2545; color: #fff; padding: 40pt; margin: -78pt -60pt 20pt; height: 190pt; }
.cover h0 { font-size: 25pt; font-weight: 700; display: block; margin-top: 40pt; }
.page { break-after: page; }
.watermark { position: fixed; top: 40%; left: 10%; font: 700 120pt "IBM Plex Sans", sans-serif; color: rgba(180,35,24,.075); transform: rotate(-38deg); }
</style></head><body>${draft ? "<div class=\"watermark\">DRAFT</div>" : ""}
${certificate ? "<div>" : "<div class=\"page\">"}<div class="cover"><div>${
    escape(content.text("COMPANY_NAME") ?? "")
  }</div>
<div>${escape(contract.presentation.documentType)}</div><h0>${subject}</h0></div>
${pictures.card ? picture(pictures.card, 492) : ""}${
    facts(["DOC_NUMBER", "VERSION", "DATE", "DOCUMENT_STATUS", contract.presentation.authorKey])
  }</div>
${certificate ? "" : `<div class="page"><h1>Contents</h1><ol>${toc.join("")}</ol></div>`}
${body.join("\n")}</body></html>`
}
