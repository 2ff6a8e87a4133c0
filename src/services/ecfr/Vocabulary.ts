import type { XmlElement } from "./Xml.ts"

/**
 * What an element of the eCFR XML vocabulary (GPO e-CFR XML user guide, plus the HTML-like table
 * markup eCFR embeds) means for rendering. Both renderers (HTML and plain text) work from this one
 * classification; anything unlisted is treated as a transparent wrapper around its text.
 */
export type Kind =
  | { readonly kind: "paragraph"; readonly className?: string }
  | { readonly kind: "heading"; readonly level: 3 | 4 | 5 | 6 }
  | { readonly kind: "block"; readonly tag: "div" | "blockquote"; readonly className?: string }
  | { readonly kind: "table" }
  | { readonly kind: "caption" }
  | { readonly kind: "rowGroup"; readonly tag: "thead" | "tbody" | "tfoot" }
  | { readonly kind: "row"; readonly header: boolean }
  | { readonly kind: "cell"; readonly header: boolean }
  | { readonly kind: "inline"; readonly tag: "em" | "strong" | "sup" | "sub" | "span"; readonly className?: string }
  | { readonly kind: "break" }
  | { readonly kind: "graphic" }
  | { readonly kind: "drop" }
  | { readonly kind: "transparent" }

const paragraph = (className?: string): Kind =>
  className === undefined ? { kind: "paragraph" } : { kind: "paragraph", className }
const container = (className: string, tag: "div" | "blockquote" = "div"): Kind => ({ kind: "block", tag, className })
const inline = (tag: "em" | "strong" | "sup" | "sub"): Kind => ({ kind: "inline", tag })
const transparent: Kind = { kind: "transparent" }

const byName: Record<string, Kind> = {
  P: paragraph(),
  PSPACE: paragraph(),
  HED: paragraph("heading"),
  HED1: paragraph("heading"),
  CITA: paragraph("citation"),
  APPRO: paragraph("approval"),
  BCAP: paragraph("caption"),
  TNOTE: paragraph("table-note"),
  TDESC: paragraph("table-note"),
  AMDDATE: paragraph("amended"),
  HD1: { kind: "heading", level: 3 },
  HD2: { kind: "heading", level: 4 },
  HD3: { kind: "heading", level: 5 },
  HD4: { kind: "heading", level: 6 },
  HD5: { kind: "heading", level: 6 },
  HD6: { kind: "heading", level: 6 },
  NOTE: container("note"),
  NOTES: container("note"),
  EXAMPLE: container("example"),
  BOXTXT: container("box"),
  FTNT: container("footnote"),
  EFTNT: container("footnote"),
  EDNOTE: container("editorial-note"),
  EFFDNOT: container("effective-date-note"),
  CROSSREF: container("cross-reference"),
  AUTH: container("authority"),
  SOURCE: container("source"),
  LDRWK: container("leaders"),
  EXTRACT: container("extract", "blockquote"),
  DIV: { kind: "block", tag: "div" },
  TABLE: { kind: "table" },
  GPOTABLE: { kind: "table" },
  CAPTION: { kind: "caption" },
  TTITLE: { kind: "caption" },
  THEAD: { kind: "rowGroup", tag: "thead" },
  TBODY: { kind: "rowGroup", tag: "tbody" },
  TFOOT: { kind: "rowGroup", tag: "tfoot" },
  TR: { kind: "row", header: false },
  ROW: { kind: "row", header: false },
  BOXHD: { kind: "row", header: true },
  TH: { kind: "cell", header: true },
  CHED: { kind: "cell", header: true },
  TD: { kind: "cell", header: false },
  ENT: { kind: "cell", header: false },
  I: inline("em"),
  EM: inline("em"),
  B: inline("strong"),
  STRONG: inline("strong"),
  SU: inline("sup"),
  SUP: inline("sup"),
  SUB: inline("sub"),
  BR: { kind: "break" },
  IMG: { kind: "graphic" },
  GPH: { kind: "graphic" },
  // the heading of a DIV is rendered by the caller, never as body text
  HEAD: { kind: "drop" },
  SCRIPT: { kind: "drop" },
  STYLE: { kind: "drop" },
  IFRAME: { kind: "drop" },
  OBJECT: { kind: "drop" },
  EMBED: { kind: "drop" },
  TEMPLATE: { kind: "drop" },
  SVG: { kind: "drop" }
}

/** GPO typeface codes of `<E T="…">`: 02 bold, 03 italic, 04/05 caps and small caps, 51/52 super/subscript. */
const typeface = (code: string | undefined): Kind => {
  switch (code) {
    case "02":
      return inline("strong")
    case "03":
      return inline("em")
    case "04":
    case "05":
      return { kind: "inline", tag: "span", className: "small-caps" }
    case "51":
      return inline("sup")
    case "52":
      return inline("sub")
    default:
      return transparent
  }
}

/** Flush, indented and flush-right paragraph variants: FP, FP-1, FP1-2, FP2-3, FP-DASH, FRP, FL-2, P-1 … */
const paragraphVariant = /^(?:FP|FRP|FL|P)[-0-9A-Z]*$/

export const kindOf = (element: XmlElement): Kind => {
  const name = element.name.toUpperCase()
  if (name === "E") return typeface(element.attributes.T)
  const known = byName[name]
  if (known !== undefined) return known
  if (paragraphVariant.test(name)) return paragraph(name === "FP" ? "flush" : name.toLowerCase())
  return transparent
}
