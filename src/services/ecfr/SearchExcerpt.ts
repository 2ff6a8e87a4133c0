import { escapeHtml } from "./RenderHtml.ts"

const named: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: "\"", apos: "'", nbsp: "\u00a0" }

/** Decodes the character references eCFR search puts in its HTML snippets. */
export const decodeEntities = (text: string): string =>
  text.replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z]{2,6});/gi, (whole, ref: string) => {
    if (ref[0] !== "#") return named[ref.toLowerCase()] ?? whole
    const code = ref[1] === "x" || ref[1] === "X" ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10)
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole
  })

const token = /<strong>|<\/strong>|<span class="elipsis">(?:…|&hellip;|\.\.\.)<\/span>/gi

/**
 * An eCFR search snippet made safe: `<strong>` highlights are kept (balanced), eCFR's ellipsis spans
 * become "…", and everything else — text and any other markup — is escaped.
 */
export const sanitizeExcerpt = (raw: string): string => {
  let html = ""
  let open = 0
  let last = 0
  for (const match of raw.matchAll(token)) {
    html += escapeHtml(decodeEntities(raw.slice(last, match.index)))
    last = match.index + match[0].length
    const tag = match[0].toLowerCase()
    if (tag === "<strong>") {
      if (open === 0) html += "<strong>"
      open++
    } else if (tag === "</strong>") {
      if (open === 1) html += "</strong>"
      open = Math.max(0, open - 1)
    } else {
      html += "…"
    }
  }
  html += escapeHtml(decodeEntities(raw.slice(last)))
  return open > 0 ? `${html}</strong>` : html
}

/** A heading from eCFR search as plain text: tags removed, references decoded, whitespace collapsed. */
export const plainHeading = (raw: string | null | undefined): string =>
  decodeEntities((raw ?? "").replace(/<[^>]*>/g, "")).replace(/\s+/g, " ").trim()
