import MiniSearch from "minisearch"
import type { CfrTreeNode, SearchResult } from "../../domain/Cfr.ts"
import { escapeHtml } from "./RenderHtml.ts"
import type { Snapshot } from "./Snapshot.ts"

interface IndexedSection {
  readonly identifier: string
  readonly label: string
  readonly text: string
}

interface PartIndex {
  readonly search: MiniSearch<IndexedSection>
  readonly headings: ReadonlyMap<string, string>
  readonly amended: ReadonlyMap<string, string>
}

const collectHeadings = (node: CfrTreeNode, into: Map<string, string>) => {
  if (node.type === "section" || node.type === "appendix") into.set(node.identifier, node.label_description)
  node.children?.forEach((child) => collectHeadings(child, into))
  return into
}

/** Built on first use for each snapshot and dropped with it. */
const indexes = new WeakMap<Snapshot, PartIndex>()

const indexOf = (snapshot: Snapshot): PartIndex => {
  const known = indexes.get(snapshot)
  if (known !== undefined) return known
  const search = new MiniSearch<IndexedSection>({
    idField: "identifier",
    fields: ["label", "text"],
    searchOptions: { boost: { label: 2 }, combineWith: "AND" }
  })
  search.addAll(snapshot.sections.map((s) => ({ identifier: s.identifier, label: s.label, text: s.plain })))
  const index: PartIndex = {
    search,
    headings: collectHeadings(snapshot.structure, new Map()),
    amended: new Map(snapshot.versions.map((v) => [v.identifier, v.amendmentDate]))
  }
  indexes.set(snapshot, index)
  return index
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

const excerptLength = 240

/** A window of the text around the first match, HTML-escaped, every matched term in `<strong>`. */
export const highlightExcerpt = (text: string, terms: ReadonlyArray<string>): string => {
  const flat = text.replace(/\s+/g, " ").trim()
  if (terms.length === 0) return escapeHtml(flat.slice(0, excerptLength))
  const pattern = new RegExp(`\\b(${terms.map(escapeRegExp).join("|")})\\b`, "gi")
  const first = Math.max(0, flat.search(pattern))
  let start = Math.max(0, first - excerptLength / 3)
  if (start > 0) start = flat.indexOf(" ", start) + 1 || start
  let end = Math.min(flat.length, start + excerptLength)
  if (end < flat.length) end = flat.lastIndexOf(" ", end) > start ? flat.lastIndexOf(" ", end) : end
  const window = flat.slice(start, end)
  let html = ""
  let last = 0
  for (const match of window.matchAll(pattern)) {
    html += `${escapeHtml(window.slice(last, match.index))}<strong>${escapeHtml(match[0])}</strong>`
    last = match.index + match[0].length
  }
  html += escapeHtml(window.slice(last))
  return `${start > 0 ? "…" : ""}${html}${end < flat.length ? "…" : ""}`
}

/** Full-text search over stored snapshots (used while eCFR search is unavailable), best first. */
export const searchSnapshots = (snapshots: ReadonlyArray<Snapshot>, q: string): Array<SearchResult> =>
  snapshots.flatMap((snapshot) => {
    const index = indexOf(snapshot)
    return index.search.search(q).flatMap((hit): Array<SearchResult> => {
      const section = snapshot.sectionIndex.get(String(hit.id))
      if (section === undefined) return []
      return [{
        type: section.type,
        score: Math.round(hit.score * 1000) / 1000,
        part: snapshot.part,
        section: section.identifier,
        sectionHeading: index.headings.get(section.identifier) ?? section.label,
        partHeading: snapshot.structure.label_description,
        excerpt: highlightExcerpt(section.plain || section.label, hit.terms),
        startsOn: index.amended.get(section.identifier) ?? snapshot.issueDate,
        endsOn: null
      }]
    })
  }).sort((a, b) => b.score - a.score)
