import { Effect } from "effect"
import { createHash } from "node:crypto"
import type { CfrSection, CfrTreeNode, SectionVersion } from "../../domain/Cfr.ts"
import type { SupportedPartInfo } from "../../domain/Service.ts"
import { readPartDocument } from "./PartDocument.ts"
import type { XmlSyntaxError } from "./Xml.ts"

/** Bumped when parsing or rendering changes, so stored snapshots are rebuilt from their XML. */
export const SnapshotFormat = 1

/** One part as mirrored from one eCFR issue: everything the endpoints serve, parsed once. */
export interface Snapshot {
  readonly format: number
  readonly part: number
  readonly title: number
  readonly issueDate: string
  /** ISO time of the download. */
  readonly fetchedAt: string
  /** Digest of the inputs (XML, structure, versions): equal digests mean equal content. */
  readonly contentHash: string
  readonly heading: string
  readonly structure: CfrTreeNode
  readonly sections: ReadonlyArray<CfrSection>
  readonly versions: ReadonlyArray<SectionVersion>
  readonly xml: string
  readonly sectionIndex: ReadonlyMap<string, CfrSection>
}

export interface SnapshotInputs {
  readonly info: SupportedPartInfo
  readonly issueDate: string
  readonly fetchedAt: string
  readonly structure: CfrTreeNode
  readonly xml: string
  readonly versions: ReadonlyArray<SectionVersion>
}

const digest = (inputs: SnapshotInputs) =>
  createHash("sha256")
    .update(inputs.xml)
    .update("\u0000")
    .update(JSON.stringify(inputs.structure))
    .update("\u0000")
    .update(JSON.stringify(inputs.versions))
    .digest("base64url")

const indexOf = (sections: ReadonlyArray<CfrSection>) => new Map(sections.map((s) => [s.identifier, s]))

/** Parses and renders a part; fails with `XmlSyntaxError` when the XML is malformed or is another part. */
export const buildSnapshot = (inputs: SnapshotInputs): Effect.Effect<Snapshot, XmlSyntaxError> =>
  Effect.map(readPartDocument(inputs.xml, inputs.info.part), (document) => ({
    format: SnapshotFormat,
    part: inputs.info.part,
    title: inputs.info.title,
    issueDate: inputs.issueDate,
    fetchedAt: inputs.fetchedAt,
    contentHash: digest(inputs),
    heading: document.heading,
    structure: inputs.structure,
    sections: document.sections,
    versions: inputs.versions,
    xml: inputs.xml,
    sectionIndex: indexOf(document.sections)
  }))

/** The stored form: the parsed snapshot without the XML (kept in its own file) or derived indexes. */
export type StoredSnapshot = Omit<Snapshot, "xml" | "sectionIndex"> & { readonly xmlSha256: string }

export const sha256 = (text: string) => createHash("sha256").update(text).digest("base64url")

export const toStored = (snapshot: Snapshot): StoredSnapshot => {
  const { sectionIndex: _index, xml, ...rest } = snapshot
  return { ...rest, xmlSha256: sha256(xml) }
}

/**
 * A stored snapshot with its XML, rebuilt from the XML when it was stored by another snapshot
 * format; undefined when the files disagree (an interrupted write) or cannot be rebuilt.
 */
export const fromStored = (
  stored: StoredSnapshot,
  xml: string,
  info: SupportedPartInfo
): Effect.Effect<Snapshot | undefined> => {
  if (stored.part !== info.part || stored.xmlSha256 !== sha256(xml)) return Effect.succeed(undefined)
  if (stored.format !== SnapshotFormat) {
    const { fetchedAt, issueDate, structure, versions } = stored
    return buildSnapshot({ info, issueDate, fetchedAt, structure, xml, versions }).pipe(
      Effect.orElseSucceed(() => undefined)
    )
  }
  const { xmlSha256: _hash, ...rest } = stored
  return Effect.succeed({ ...rest, xml, sectionIndex: indexOf(stored.sections) })
}
