import { Schema } from "effect"
import { EnforcementAgency, EnforcementDocumentId, ParseStatus } from "./Enforcement.ts"

/**
 * A data bundle (`ecds sync --export`): one gzip-compressed tar archive carrying the regulatory data
 * a machine without internet needs, with this manifest first. Every other entry is listed in `files`
 * with its SHA-256; an import verifies all of them before it writes anything.
 */
export const BundleFormat = "ecds-bundle/1"

const Sha256Hex = Schema.String.pipe(Schema.pattern(/^[0-9a-f]{64}$/))
const IsoDate = Schema.String.pipe(Schema.pattern(/^\d{4}-\d{2}-\d{2}$/))

export const BundlePart = Schema.Struct({
  part: Schema.Int,
  title: Schema.Int,
  issue_date: IsoDate,
  /** When the exporting machine downloaded the part (ISO time): the age the importing one reports. */
  fetched_at: Schema.String
})

export const BundleEnforcement = Schema.Struct({
  documents: Schema.Int,
  /** The JSON files holding the document rows (`BundledEnforcementDocument` arrays). */
  paths: Schema.Array(Schema.String),
  /** `left_out` when the stored PDFs exceeded the bundle's PDF budget: texts and metadata only. */
  pdfs: Schema.Literal("included", "left_out"),
  pdf_bytes: Schema.Int
})

const Bounded = (max: number) => Schema.String.pipe(Schema.maxLength(max))
const BoundedList = Schema.Array(Bounded(1000)).pipe(Schema.maxItems(100))

/**
 * One enforcement archive row as a bundle carries it: the archive's own stored form (metadata,
 * parse outcome, parsed text, extracted fields), decoded with bounds before anything is written.
 */
export const BundledEnforcementDocument = Schema.Struct({
  id: EnforcementDocumentId,
  agency: EnforcementAgency,
  source: Bounded(200),
  party: Schema.NullOr(Bounded(2000)),
  title: Bounded(5000),
  date: Schema.NullOr(Bounded(40)),
  parseStatus: ParseStatus,
  parseReason: Schema.NullOr(Bounded(2000)),
  parseAttempts: Schema.Int,
  parserVersion: Schema.Int,
  originalDocUrl: Schema.NullOr(Bounded(4000)),
  sourceUrl: Schema.NullOr(Bounded(4000)),
  pdfSha256: Schema.NullOr(Sha256Hex),
  pages: Schema.NullOr(Schema.Int),
  textChars: Schema.NullOr(Schema.Int),
  /** The parsed text; the archive entry's size cap bounds it. */
  body: Schema.NullOr(Schema.String),
  fields: Schema.Struct({
    parties: BoundedList,
    dates: BoundedList,
    statutes: BoundedList,
    penalties: BoundedList,
    eccns: BoundedList
  }),
  fingerprint: Schema.NullOr(Bounded(500)),
  removedAt: Schema.NullOr(Bounded(40))
})
export type BundledEnforcementDocument = typeof BundledEnforcementDocument.Type

/** A git object id (SHA-1, or SHA-256 for repositories in that format). */
const GitObjectId = Schema.String.pipe(Schema.pattern(/^(?:[0-9a-f]{40}|[0-9a-f]{64})$/))

/**
 * Skills mirrored from a GitHub repository (`SKILLS_SOURCE=github:…`) at one commit: every file the
 * mirror read, relative to the skills folder, with its git blob id. The same record is the copy an
 * instance keeps under `DATA_DIR` after an import, so it serves them without reaching GitHub.
 */
export const MirroredSkills = Schema.Struct({
  /** The `SKILLS_SOURCE` value the files were mirrored for. */
  source: Bounded(400),
  commit: GitObjectId,
  fetched_at: Bounded(40),
  // the mirror's own limits (2,000 files of at most 512 KiB) bound what it can hold
  files: Schema.Array(Schema.Struct({
    path: Bounded(400),
    blob: GitObjectId,
    text: Schema.String.pipe(Schema.maxLength(512 * 1024))
  })).pipe(Schema.maxItems(2_000))
}).annotations({ identifier: "MirroredSkills" })
export type MirroredSkills = typeof MirroredSkills.Type

export const BundleSkills = Schema.Struct({
  source: Schema.String,
  commit: Schema.String,
  files: Schema.Int,
  /** The JSON file holding the `MirroredSkills` record. */
  path: Schema.String
})

export const BundleManifest = Schema.Struct({
  format: Schema.Literal(BundleFormat),
  created_at: Schema.String,
  service_version: Schema.String,
  ecfr: Schema.Struct({ parts: Schema.Array(BundlePart) }),
  screening_list: Schema.NullOr(Schema.Struct({
    /** The source the list came from (`CSL_BULK_URL` or `file:…`), which the stored copy keeps. */
    origin: Schema.String,
    path: Schema.String
  })),
  /** The enforcement archive; absent from bundles made before it was carried. */
  enforcement: Schema.optional(BundleEnforcement),
  /** Skills mirrored from GitHub; absent when the exporting instance serves the bundled skills, and from older bundles. */
  skills: Schema.optional(BundleSkills),
  files: Schema.Record({
    key: Schema.String,
    value: Schema.Struct({ sha256: Sha256Hex, bytes: Schema.Int })
  })
}).annotations({ identifier: "BundleManifest" })
export type BundleManifest = typeof BundleManifest.Type
