import { Either, ParseResult, Schema } from "effect"
import { runNow, stepEvery, type Steps } from "../Cooperative.ts"

/**
 * The trade.gov Consolidated Screening List bulk JSON (`consolidated.json`):
 * `{ results: [...], search_performed_at, sources_used: [...], offset, total }`. Which fields a
 * record carries depends on its list, so every field but `name` and `source` is optional and
 * null-tolerant; numbers are accepted where text is expected (vessel tonnage, ids).
 */

const Scalar = Schema.Union(
  Schema.String,
  Schema.transform(Schema.Union(Schema.Number, Schema.Boolean), Schema.String, {
    strict: false,
    decode: String,
    encode: (text) => text
  })
)
const Text = Schema.optional(Schema.NullOr(Scalar))
const TextList = Schema.optional(Schema.NullOr(Schema.Array(Schema.NullOr(Scalar))))

export const BulkAddress = Schema.Struct({
  address: Text,
  city: Text,
  state: Text,
  postal_code: Text,
  country: Text
})
export type BulkAddress = typeof BulkAddress.Type

export const BulkIdentifier = Schema.Struct({
  type: Text,
  number: Text,
  country: Text,
  issue_date: Text,
  expiration_date: Text
})
export type BulkIdentifier = typeof BulkIdentifier.Type

export const BulkRecord = Schema.Struct({
  id: Text,
  name: Schema.String,
  source: Schema.String,
  type: Text,
  alt_names: TextList,
  programs: TextList,
  addresses: Schema.optional(Schema.NullOr(Schema.Array(BulkAddress))),
  ids: Schema.optional(Schema.NullOr(Schema.Array(BulkIdentifier))),
  remarks: Text,
  title: Text,
  entity_number: Text,
  federal_register_notice: Text,
  start_date: Text,
  end_date: Text,
  standard_order: Text,
  license_requirement: Text,
  license_policy: Text,
  country: Text,
  nationalities: TextList,
  citizenships: TextList,
  dates_of_birth: TextList,
  places_of_birth: TextList,
  call_sign: Text,
  vessel_type: Text,
  vessel_flag: Text,
  vessel_owner: Text,
  gross_tonnage: Text,
  gross_registered_tonnage: Text,
  source_list_url: Text,
  source_information_url: Text
})
export type BulkRecord = typeof BulkRecord.Type

export const BulkSourceInfo = Schema.Struct({
  source: Schema.String,
  source_last_updated: Text,
  last_imported: Text
})
export type BulkSourceInfo = typeof BulkSourceInfo.Type

/** The envelope; records are decoded one by one so that a single odd record cannot sink the file. */
const BulkEnvelope = Schema.Struct({
  results: Schema.Array(Schema.Unknown),
  search_performed_at: Text,
  sources_used: Schema.optional(Schema.NullOr(Schema.Array(Schema.Unknown)))
})

export interface BulkList {
  readonly records: ReadonlyArray<BulkRecord>
  readonly sources: ReadonlyArray<BulkSourceInfo>
  readonly publishedAt: string | null
  /** Records skipped because they did not have the record shape. */
  readonly rejected: number
}

/** Why a list file was refused. Never quotes record content (it is full of party names). */
export class BulkFileError extends Error {
  override readonly name = "BulkFileError"
}

/** At most this share of records may be malformed before the whole file is considered broken. */
const maxRejectedShare = 0.01

const decodeRecord = Schema.decodeUnknownEither(BulkRecord)
const decodeSource = Schema.decodeUnknownEither(BulkSourceInfo)
const decodeEnvelope = Schema.decodeUnknownEither(BulkEnvelope)

export function* parseSteps(text: string): Steps<Either.Either<BulkList, BulkFileError>> {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    return Either.left(new BulkFileError("the list file is not valid JSON"))
  }
  const envelope = decodeEnvelope(json)
  if (Either.isLeft(envelope)) {
    const issues = ParseResult.ArrayFormatter.formatErrorSync(envelope.left)
    const where = issues.map((issue) => issue.path.join(".") || "(root)").join(", ")
    return Either.left(new BulkFileError(`the list file does not have the bulk shape (at ${where})`))
  }
  const records: Array<BulkRecord> = []
  let rejected = 0
  for (const [at, raw] of envelope.right.results.entries()) {
    if (at % stepEvery === 0) yield
    const record = decodeRecord(raw)
    if (Either.isRight(record) && record.right.name.trim() !== "") records.push(record.right)
    else rejected++
  }
  if (records.length === 0) return Either.left(new BulkFileError("the list file has no usable records"))
  if (rejected > maxRejectedShare * envelope.right.results.length) {
    return Either.left(
      new BulkFileError(`${rejected} of ${envelope.right.results.length} records are malformed`)
    )
  }
  const sources = (envelope.right.sources_used ?? []).flatMap((raw) => {
    const decoded = decodeSource(raw)
    return Either.isRight(decoded) ? [decoded.right] : []
  })
  return Either.right({ records, sources, publishedAt: envelope.right.search_performed_at ?? null, rejected })
}

export const parse = (text: string): Either.Either<BulkList, BulkFileError> => runNow(parseSteps(text))
