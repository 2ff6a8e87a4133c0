import { Effect } from "effect"
import type { CfrSection, SectionsPayload, VersionsPayload } from "../../domain/Cfr.ts"
import { InvalidRequest } from "../../domain/Problem.ts"
import { type SupportedPartInfo, supportedParts } from "../../domain/Service.ts"
import type { EcfrSourceShape, Served } from "../EcfrSource.ts"
import type { UpstreamClient } from "../Upstream.ts"
import type { CursorCodec } from "./Cursor.ts"
import type { Mirror } from "./Mirror.ts"
import * as Search from "./Search.ts"
import type { Snapshot } from "./Snapshot.ts"

const infoOf = (part: number): SupportedPartInfo => supportedParts.find((p) => p.part === part)!

/** Derived payloads are built once per snapshot: later calls return the same objects. */
const memo = <A>(build: (snapshot: Snapshot) => A) => {
  const built = new WeakMap<Snapshot, A>()
  return (snapshot: Snapshot): A => {
    let value = built.get(snapshot)
    if (value === undefined) {
      value = build(snapshot)
      built.set(snapshot, value)
    }
    return value
  }
}

const sectionsPayload = memo((snapshot): SectionsPayload => ({
  part: snapshot.part,
  label: infoOf(snapshot.part).label,
  count: snapshot.sections.length,
  sections: snapshot.sections.map((s) => ({ identifier: s.identifier, label: s.label, content: s.plain }))
}))

const versionsPayload = memo((snapshot): VersionsPayload => ({
  part: snapshot.part,
  title: snapshot.title,
  label: infoOf(snapshot.part).label,
  latestAmendmentDate: snapshot.versions.reduce<string | null>(
    (latest, v) => latest === null || v.amendmentDate > latest ? v.amendmentDate : latest,
    null
  ),
  count: snapshot.versions.length,
  sections: snapshot.versions
}))

const invalidSection = (reason: string) =>
  new InvalidRequest({
    detail: `Invalid parameter: section (${reason})`,
    invalidParams: [{ name: "section", in: "path", reason }]
  })

/** `Supp. 4`, `Supplement No. 4`, `supplement 4 to part 774`: the short forms agents write for a supplement. */
const supplementForm = /^supp(?:lement)?\.?\s*(?:no\.?\s*)?(\d{1,2})(?:\s*(?:,|to)?\s*(?:part\s*)?(\d{1,4}))?$/i

/**
 * The identifier under which a part holds a section, appendix or supplement: `740.1` as is, and
 * the supplement identifiers `get_ecfr_part` lists (`Supplement No. 4 to Part 774`) exactly, in
 * any case, or in a short form (`Supp. 4`). Undefined when it names nothing of the form.
 */
export const canonicalSectionId = (part: number, raw: string): string | undefined => {
  const id = raw.trim().replace(/\s+/g, " ")
  if (/^\d{1,4}\.\d{1,4}[a-z]?$/.test(id)) return id.startsWith(`${part}.`) ? id : undefined
  const supplement = supplementForm.exec(id)
  if (supplement !== null) {
    return supplement[2] === undefined || Number(supplement[2]) === part
      ? `Supplement No. ${Number(supplement[1])} to Part ${part}`
      : undefined
  }
  return /^(?:appendix|supplement) .{1,60}$/i.test(id) ? id : undefined
}

const sectionOf = (snapshot: Snapshot, raw: string, appendices: boolean): Effect.Effect<CfrSection, InvalidRequest> => {
  const id = canonicalSectionId(snapshot.part, raw)
  if (id === undefined || (!appendices && !/^\d/.test(id))) {
    const form = `a section ${snapshot.part}.<number> (e.g. ${snapshot.part}.1)`
    return Effect.fail(invalidSection(
      appendices
        ? `must be ${form} or a supplement or appendix as the part's structure lists it (e.g. Supplement No. 1 ` +
          `to Part ${snapshot.part})`
        : `must have the form ${snapshot.part}.<number>, e.g. ${snapshot.part}.1`
    ))
  }
  const section = snapshot.sectionIndex.get(id) ??
    snapshot.sections.find((candidate) => candidate.identifier.toLowerCase() === id.toLowerCase())
  return section === undefined
    ? Effect.fail(invalidSection(`part ${snapshot.part} has no section ${id}`))
    : Effect.succeed(section)
}

const map = <A, B>(served: Served<A>, f: (value: A) => B): Served<B> => ({ ...served, value: f(served.value) })

/** The EcfrSource operations over a mirror of the parts and eCFR search. */
export const make = (deps: {
  readonly mirror: Mirror
  readonly search: UpstreamClient
  readonly codec: CursorCodec
  readonly deadlineMillis: number
}): Omit<EcfrSourceShape, "cacheReport"> => {
  const { mirror } = deps
  const search = Search.make({ client: deps.search, codec: deps.codec, deadlineMillis: deps.deadlineMillis })
  const served = <A>(part: number, f: (snapshot: Snapshot) => A) => Effect.map(mirror.get(part), (s) => map(s, f))
  return {
    partXml: (part) => served(part, (s) => s.xml),
    structure: (part) => served(part, (s) => s.structure),
    sections: (part) => served(part, sectionsPayload),
    versions: (part) => served(part, versionsPayload),
    section: (part, id, options) =>
      Effect.flatMap(
        mirror.get(part),
        (s) => Effect.map(sectionOf(s.value, id, options?.appendices ?? false), (section) => map(s, () => section))
      ),
    searchPart: (part, request) => {
      const info = infoOf(part)
      const scope: Search.SearchScope = {
        key: `part:${part}`,
        title: info.title,
        part,
        local: Effect.map(mirror.get(part), (s) => [s.value])
      }
      return Effect.map(search.search(scope, request), (page) => ({
        part,
        title: info.title,
        label: info.label,
        query: request.q,
        ...page
      }))
    },
    searchTitle: (title, request) => {
      const scope: Search.SearchScope = { key: `title:${title}`, title, local: mirror.stored(title) }
      return Effect.map(search.search(scope, request), (page) => ({ title, query: request.q, ...page }))
    }
  }
}
