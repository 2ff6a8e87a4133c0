import { Schema } from "effect"

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
  files: Schema.Record({
    key: Schema.String,
    value: Schema.Struct({ sha256: Sha256Hex, bytes: Schema.Int })
  })
}).annotations({ identifier: "BundleManifest" })
export type BundleManifest = typeof BundleManifest.Type
