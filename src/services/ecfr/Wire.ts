import { Schema } from "effect"
import type { CfrTreeNode, SectionVersion } from "../../domain/Cfr.ts"

/**
 * The eCFR API's JSON wire formats (see the reference on upstream formats) and their normalization
 * into the service's own shapes. Decoding is lenient about extra fields and nulls, strict about
 * what the service relies on.
 */

export const IsoDate = Schema.String.pipe(Schema.pattern(/^\d{4}-\d{2}-\d{2}$/))

export const TitlesResponse = Schema.Struct({
  titles: Schema.Array(Schema.Struct({
    number: Schema.Int,
    latest_issue_date: Schema.NullOr(IsoDate),
    up_to_date_as_of: Schema.optional(Schema.NullOr(IsoDate)),
    reserved: Schema.optional(Schema.Boolean)
  }))
})

interface WireNode {
  readonly identifier: string
  readonly label?: string | null | undefined
  readonly label_level?: string | null | undefined
  readonly label_description?: string | null | undefined
  readonly type: string
  readonly reserved?: boolean | null | undefined
  readonly descendant_range?: string | null | undefined
  readonly received_on?: string | null | undefined
  readonly children?: ReadonlyArray<WireNode> | null | undefined
}

const optionalText = Schema.optional(Schema.NullOr(Schema.String))

export const StructureNode: Schema.Schema<WireNode> = Schema.Struct({
  identifier: Schema.String,
  label: optionalText,
  label_level: optionalText,
  label_description: optionalText,
  type: Schema.String,
  reserved: Schema.optional(Schema.NullOr(Schema.Boolean)),
  descendant_range: optionalText,
  received_on: optionalText,
  children: Schema.optional(Schema.NullOr(Schema.Array(Schema.suspend((): Schema.Schema<WireNode> => StructureNode))))
})

const clean = (text: string | null | undefined) => (text ?? "").replace(/\s+/g, " ").trim()

const normalizeNode = (node: WireNode): CfrTreeNode => {
  const label = clean(node.label)
  return {
    identifier: clean(node.identifier),
    label,
    label_level: clean(node.label_level) || label,
    label_description: clean(node.label_description) || label,
    type: node.type,
    ...(typeof node.reserved === "boolean" ? { reserved: node.reserved } : {}),
    ...(node.descendant_range ? { descendant_range: clean(node.descendant_range) } : {}),
    ...(node.received_on ? { received_on: node.received_on } : {}),
    ...(node.children ? { children: node.children.map(normalizeNode) } : {})
  }
}

/**
 * The node of one part in a structure response. eCFR answers `?part=N` with the whole title pruned
 * to the ancestors of the part; an unscoped whole-title response is accepted too.
 */
export const findPartNode = (root: WireNode, part: number): CfrTreeNode | undefined => {
  const wanted = String(part)
  const pending: Array<WireNode> = [root]
  while (pending.length > 0) {
    const node = pending.pop()!
    if (node.type === "part" && clean(node.identifier) === wanted) return normalizeNode(node)
    if (node.children) pending.push(...node.children)
  }
  return undefined
}

export const VersionsResponse = Schema.Struct({
  content_versions: Schema.Array(Schema.Struct({
    amendment_date: IsoDate,
    issue_date: IsoDate,
    identifier: Schema.String,
    name: Schema.optional(Schema.NullOr(Schema.String)),
    part: Schema.optional(Schema.NullOr(Schema.String)),
    substantive: Schema.optional(Schema.NullOr(Schema.Boolean)),
    removed: Schema.optional(Schema.NullOr(Schema.Boolean)),
    type: Schema.optional(Schema.NullOr(Schema.String))
  }))
})

const byIdentifier = (a: SectionVersion, b: SectionVersion) =>
  a.identifier.localeCompare(b.identifier, "en", { numeric: true })

/** The latest version of each section and supplement of a part, in citation order. */
export const latestVersions = (
  response: typeof VersionsResponse.Type,
  part: number
): ReadonlyArray<SectionVersion> => {
  const latest = new Map<string, SectionVersion>()
  for (const version of response.content_versions) {
    if (version.part !== undefined && version.part !== null && clean(version.part) !== String(part)) continue
    const entry: SectionVersion = {
      identifier: clean(version.identifier),
      name: clean(version.name),
      type: version.type ?? "section",
      amendmentDate: version.amendment_date,
      issueDate: version.issue_date,
      substantive: version.substantive ?? false,
      removed: version.removed ?? false
    }
    const known = latest.get(entry.identifier)
    const newer = known === undefined || entry.amendmentDate > known.amendmentDate ||
      (entry.amendmentDate === known.amendmentDate && entry.issueDate > known.issueDate)
    if (newer) latest.set(entry.identifier, entry)
  }
  return [...latest.values()].sort(byIdentifier)
}

const nullableText = Schema.optional(Schema.NullOr(Schema.String))
const HierarchyFields = Schema.Struct({
  title: nullableText,
  part: nullableText,
  section: nullableText,
  appendix: nullableText
})

export const SearchResponse = Schema.Struct({
  results: Schema.Array(Schema.Struct({
    starts_on: Schema.NullOr(IsoDate),
    ends_on: Schema.optional(Schema.NullOr(IsoDate)),
    type: Schema.optional(Schema.NullOr(Schema.String)),
    hierarchy: HierarchyFields,
    headings: Schema.optional(Schema.NullOr(HierarchyFields)),
    full_text_excerpt: nullableText,
    score: Schema.optional(Schema.NullOr(Schema.Number)),
    removed: Schema.optional(Schema.NullOr(Schema.Boolean))
  })),
  meta: Schema.Struct({
    current_page: Schema.optional(Schema.NullOr(Schema.Int)),
    total_pages: Schema.optional(Schema.NullOr(Schema.Int)),
    total_count: Schema.optional(Schema.NullOr(Schema.Int))
  })
})
export type SearchResponse = typeof SearchResponse.Type
