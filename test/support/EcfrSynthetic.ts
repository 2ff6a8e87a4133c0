import type { FakeRoute } from "./FakeUpstream.ts"

const vocabulary = ("placeholder item equipment software technology component system assembly material " +
  "device unit control function value range parameter specification output input frequency power signal " +
  "module circuit process production development use test inspection measurement capacity rate level " +
  "accuracy resolution limit threshold design structure element fiber layer surface coating temperature " +
  "pressure density weight length width height diameter volume area speed time interval cycle stage mode " +
  "source target receiver transmitter sensor detector processor memory storage interface network protocol " +
  "encryption key algorithm function data record file format version release update note paragraph entry " +
  "reference heading category group list column row table item section supplement part general specific " +
  "related additional other described above below including excluding except where when which that each " +
  "any all more less than equal to greater with without for from into onto over under between among")
  .split(" ")

/** A deterministic pseudo-random sentence, so the text compresses like prose rather than a repeated line. */
const sentences = (seed: number) => {
  let state = seed * 2654435761 >>> 0
  const next = () => (state = (state * 1103515245 + 12345) >>> 0) % vocabulary.length
  return (words: number) => {
    const picked = Array.from({ length: words }, () => vocabulary[next()]!)
    return `${picked.join(" ")}.`
  }
}

/**
 * A large part in the eCFR XML envelope with generic placeholder text, for load tests: the markup
 * mix (headings, flush paragraphs, typefaces, tables, notes) imitates the Commerce Control List in
 * Supplement No. 1 to Part 774, the largest supported part (about 2 MB).
 */
export const syntheticPartXml = (part: number, targetBytes: number): string => {
  const sentence = sentences(part)
  const entry = (n: number) =>
    `<FP-2><B>Entry ${String(n).padStart(4, "0")} ${sentence(6)}</B></FP-2>\n` +
    `<FP-1><E T="04">Placeholder Requirements</E></FP-1>\n` +
    `<DIV width="100%"><DIV class="gpotbl_div"><TABLE border="1" class="gpo_table" frame="void" width="100%">` +
    `<THEAD><TR><TH class="center" scope="col">Placeholder column</TH><TH class="center" scope="col">Second column</TH>` +
    `</TR></THEAD><TBODY><TR><TD class="left">${sentence(5)}</TD><TD class="left">Column ${n % 3 + 1}</TD></TR>` +
    `<TR><TD class="left">${sentence(4)}</TD><TD class="left">N/A</TD></TR></TBODY></TABLE></DIV></DIV>\n` +
    `<FP-1><I>Placeholder field:</I> ${sentence(10)}</FP-1>\n` +
    `<FP><I>Items:</I></FP>\n` +
    ["a", "b", "c", "d"].map((item) => `<P>${item}. ${sentence(24)}</P>\n`).join("") +
    `<NOTE><HED><I>Note:</I></HED><P>${sentence(14)}</P></NOTE>\n`
  const entries: Array<string> = []
  let size = 0
  for (let n = 1; size < targetBytes; n++) {
    if (n % 100 === 1) entries.push(`<HD1>Placeholder Category ${Math.floor(n / 100)}</HD1>\n`)
    const text = entry(n)
    entries.push(text)
    size += text.length
  }
  const supplement = (n: number, body: string) =>
    `<DIV9 N="Supplement No. ${n} to Part ${part}" TYPE="APPENDIX">\n` +
    `<HEAD>Supplement No. ${n} to Part ${part}&#x2014;Placeholder Supplement ${n}\n</HEAD>\n${body}</DIV9>\n`
  return `<?xml version="1.0"?>\n<DIV5 N="${part}" TYPE="PART" VOLUME="3">\n<HEAD>PART ${part}&#x2014;PLACEHOLDER\n</HEAD>\n` +
    `<DIV8 N="${part}.1" TYPE="SECTION">\n<HEAD>&#xA7; ${part}.1 Introduction.</HEAD>\n` +
    `<P>(a) Placeholder introduction of the synthetic part.</P>\n</DIV8>\n` +
    `<DIV8 N="${part}.2" TYPE="SECTION">\n<HEAD>&#xA7; ${part}.2 [Reserved]</HEAD>\n</DIV8>\n` +
    supplement(1, entries.join("")) +
    [2, 3, 4, 5, 6, 7].map((n) => supplement(n, `<P>Placeholder text of supplement ${n}.</P>\n`)).join("") +
    `</DIV5>\n`
}

const node = (identifier: string, label: string, type: string, children?: Array<unknown>) => ({
  identifier,
  label,
  label_level: label.split("—")[0],
  label_description: label.split("—")[1] ?? label,
  reserved: label.includes("[Reserved]"),
  type,
  ...(children ? { children } : {})
})

/** The structure (rooted at title 15) and versions documents of the synthetic part. */
export const syntheticDocuments = (part: number) => {
  const sections = [
    node(`${part}.1`, `§ ${part}.1 Introduction.`, "section"),
    node(`${part}.2`, `§ ${part}.2 [Reserved]`, "section"),
    ...[1, 2, 3, 4, 5, 6, 7].map((n) =>
      node(
        `Supplement No. ${n} to Part ${part}`,
        `Supplement No. ${n} to Part ${part}—Placeholder Supplement ${n}`,
        "appendix"
      )
    )
  ]
  const structure = node("15", "Title 15—Commerce and Foreign Trade", "title", [
    node(String(part), `Part ${part}—Placeholder`, "part", sections)
  ])
  const versions = {
    content_versions: sections.map((s) => ({
      date: "2026-11-14",
      amendment_date: "2026-11-14",
      issue_date: "2026-11-18",
      identifier: s.identifier,
      name: s.label,
      part: String(part),
      substantive: true,
      removed: false,
      subpart: null,
      title: "15",
      type: s.type
    })),
    meta: { title: "15", part: String(part) }
  }
  return { structure: JSON.stringify(structure), versions: JSON.stringify(versions) }
}

/** Fake eCFR routes serving one synthetic title-15 part (structure, full XML, versions). */
export const syntheticPartRoute = (part: number, targetBytes: number): FakeRoute => {
  const xml = syntheticPartXml(part, targetBytes)
  const { structure, versions } = syntheticDocuments(part)
  const json = { "content-type": "application/json" }
  return (_request, url) => {
    if (url.searchParams.get("part") !== String(part)) return undefined
    if (url.pathname.includes("/structure/")) return { headers: json, body: structure }
    if (url.pathname.includes("/full/")) return { headers: { "content-type": "application/xml" }, body: xml }
    if (url.pathname.includes("/versions/")) return { headers: json, body: versions }
    return undefined
  }
}
