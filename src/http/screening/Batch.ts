import { HttpApiBuilder, type HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Chunk, Effect, Either, Schema, Stream } from "effect"
import { fromParseError } from "../../domain/DecodeIssues.ts"
import { parseJson } from "../../domain/JsonBody.ts"
import { InvalidRequest } from "../../domain/Problem.ts"
import {
  type BatchOptions,
  BatchRequest,
  type BatchResult,
  type BatchSummary,
  BatchTooLarge,
  CsvContentType,
  MaxBatchBytes,
  MaxBatchNames,
  NdjsonContentType
} from "../../domain/ScreeningBatch.ts"
import { Screening } from "../../services/Screening.ts"
import type { BatchLine, BatchOutcome, ScreenedBatch } from "../../services/screening/Batch.ts"
import { Api } from "../Api.ts"
import { readText } from "../Body.ts"
import { problemResponse } from "../middleware/Problems.ts"
import { requestQuota } from "../middleware/RateLimit.ts"
import { parseBatchCsv } from "./Csv.ts"

const invalid = (name: string, reason: string) =>
  new InvalidRequest({
    detail: `Invalid parameter: ${name} (${reason})`,
    invalidParams: [{ name, in: "body", reason }]
  })

const decodeRequest = Schema.decodeUnknownEither(BatchRequest, { errors: "all", onExcessProperty: "error" })

/** The parties and options of a JSON body; a party's name is checked later, per line. */
const fromJson = (text: string): Either.Either<{ lines: Array<BatchLine>; options: BatchOptions }, InvalidRequest> =>
  Either.flatMap(
    Either.mapLeft(parseJson(text), ({ reason }) => invalid("body", reason)),
    (json) =>
      Either.mapBoth(decodeRequest(json), {
        onLeft: (error) => {
          const issues = fromParseError(error)
          const invalidParams = issues.map((issue) => ({
            name: issue.path === "" ? "body" : issue.path,
            in: "body" as const,
            reason: issue.message
          }))
          return new InvalidRequest({
            detail: `Invalid parameter: ${invalidParams.map((p) => `${p.name} (${p.reason})`).join("; ")}`,
            invalidParams
          })
        },
        onRight: ({ names, ...options }) => ({
          options,
          lines: names.map((party, at) =>
            typeof party === "string" ? { line: at + 1, name: party } : { line: at + 1, ...party }
          )
        })
      })
  )

const fromCsv = (text: string): Either.Either<Array<BatchLine>, InvalidRequest> =>
  Either.mapLeft(parseBatchCsv(text), ({ line, reason }) => invalid(`line ${line}`, reason))

const mediaType = (header: string | undefined) => (header ?? "").split(";")[0]!.trim().toLowerCase()

/** The body as parties and options: JSON (options in the body over the query's) or CSV (options in the query). */
const partiesOf = (request: HttpServerRequest.HttpServerRequest, query: BatchOptions) =>
  Effect.gen(function*() {
    const type = mediaType(request.headers["content-type"])
    if (type !== CsvContentType && type !== "application/json" && type !== "") {
      return yield* invalid("content-type", `must be application/json or ${CsvContentType}`)
    }
    const text = yield* readText(request, MaxBatchBytes).pipe(
      Effect.catchTags({
        BodyTooLarge: ({ limitBytes }) =>
          new BatchTooLarge({ detail: `The batch body exceeds ${limitBytes} bytes.`, limitBytes }),
        MalformedBody: ({ reason }) => invalid("body", reason)
      })
    )
    if (type === CsvContentType) return { lines: yield* fromCsv(text), options: query }
    const json = yield* fromJson(text)
    return { lines: json.lines, options: { ...query, ...json.options } }
  })

const resultOf = (outcome: BatchOutcome): BatchResult =>
  outcome._tag === "Screened"
    ? {
      line: outcome.line,
      name: outcome.name,
      result: outcome.response.result,
      total: outcome.response.total,
      matches: outcome.response.matches
    }
    : {
      line: outcome.line,
      name: outcome.name,
      result: "invalid",
      total: 0,
      matches: [],
      error: `name ${outcome.reason}`
    }

const summaryOf = (batch: ScreenedBatch, results: ReadonlyArray<BatchResult>): BatchSummary => ({
  count: results.length,
  potential_matches: results.filter((result) => result.result === "potential_match").length,
  invalid: results.filter((result) => result.result === "invalid").length,
  ...batch.about
})

/** The answer names the caller's parties: no cache keeps it. */
const noStore = { "cache-control": "no-store" }

const encoder = new TextEncoder()
const ndjsonLine = (value: unknown) => encoder.encode(`${JSON.stringify(value)}\n`)

/** NDJSON: each line's result as it is screened, then `{ "summary": … }`. */
const streamed = (batch: ScreenedBatch) => {
  const results: Array<BatchResult> = []
  const lines = batch.results.pipe(
    Stream.map((outcome) => {
      const result = resultOf(outcome)
      results.push({ ...result, matches: [] })
      return ndjsonLine(result)
    }),
    Stream.concat(Stream.sync(() => ndjsonLine({ summary: summaryOf(batch, results) })))
  )
  return HttpServerResponse.stream(lines, { contentType: NdjsonContentType, headers: noStore })
}

export const ScreeningBatchHttpLive = HttpApiBuilder.group(
  Api,
  "screeningBatch",
  (handlers) =>
    Effect.map(
      Screening,
      (screening) =>
        handlers.handleRaw("cslBatch", ({ request, urlParams }) =>
          Effect.gen(function*() {
            const { lines, options } = yield* partiesOf(request, urlParams)
            if (lines.length === 0) return yield* invalid("names", "must name at least one party")
            if (lines.length > MaxBatchNames) {
              return yield* invalid("names", `must name at most ${MaxBatchNames} parties (got ${lines.length})`)
            }
            // the request itself was counted on arrival; its other names count now, before any work
            yield* Effect.flatMap(requestQuota, (quota) => quota.charge(lines.length - 1))
            const batch = yield* screening.batch(lines, options)
            if (mediaType(request.headers["accept"]) === NdjsonContentType) return streamed(batch)
            const results = Chunk.toReadonlyArray(yield* Stream.runCollect(batch.results)).map(resultOf)
            return HttpServerResponse.unsafeJson({ ...summaryOf(batch, results), results }, { headers: noStore })
          }).pipe(
            // the rest of an oversized body is not worth reading: the connection closes after the answer
            Effect.catchTag("BatchTooLarge", (error) => Effect.succeed(problemResponse(error, { connection: "close" })))
          ))
    )
)
