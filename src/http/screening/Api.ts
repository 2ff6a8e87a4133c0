import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { InvalidRequest, RateLimited, StoreUnavailable, UpstreamUnavailable } from "../../domain/Problem.ts"
import { DefaultMinScore, ScreeningResponse, ScreeningUrlParams } from "../../domain/Screening.ts"
import {
  BatchCsv,
  BatchRequest,
  BatchResponse,
  BatchTooLarge,
  MaxBatchBytes,
  MaxBatchNames,
  NdjsonContentType
} from "../../domain/ScreeningBatch.ts"
import { ChangesUrlParams, ListChangesResponse } from "../../domain/ScreeningChanges.ts"
import { CachePolicy, IndexGroup } from "../Annotations.ts"

export class ScreeningGroup extends HttpApiGroup.make("screening")
  .add(
    HttpApiEndpoint.get("csl", "/api/csl")
      .setUrlParams(ScreeningUrlParams)
      .addSuccess(ScreeningResponse)
      .addError(UpstreamUnavailable)
      .annotate(OpenApi.Summary, "screen a name against the Consolidated Screening List (fuzzy by default)")
      .annotate(
        OpenApi.Description,
        "Compares the name with every name and alias of the trade.gov Consolidated Screening List (Commerce, " +
          "State and Treasury lists; refreshed daily) and returns the entries scoring at least `min_score` " +
          `(0-100, default ${DefaultMinScore}), best first. Tolerates typos, transliteration variants, word order, ` +
          "missing middle names, legal-form changes and split or joined words. `country` and `type` move scores " +
          "(reason in each match's `field_agreement`); an ID number (as `name` or `id`) finds the entries listing " +
          "it (`match_type: id`). Every response carries " +
          "`affiliates_rule` and `ownership_trace`: a name screen is not ownership diligence. Party names are not " +
          "logged."
      )
  )
  .add(
    HttpApiEndpoint.get("cslChanges", "/api/csl/changes")
      .setUrlParams(ChangesUrlParams)
      .addSuccess(ListChangesResponse)
      .addError(StoreUnavailable)
      .annotate(OpenApi.Summary, "entries each list refresh added, changed and removed since a date (paged)")
      .annotate(
        OpenApi.Description,
        "Every refresh of the Consolidated Screening List is compared with the previous list (entry id and a " +
          "hash of its content) and recorded. Answers the refreshes recorded after `since` and their added, " +
          "changed and removed entries (id, name, list), `limit` per page, `next_cursor` for the next. Use it to " +
          "re-screen parties whose matching entries changed since they were last screened."
      )
  )
  .annotate(IndexGroup, "intel")
  .annotate(CachePolicy, "screening")
  .annotate(OpenApi.Title, "Screening")
{}

/** The batch options as query parameters (for CSV bodies): those of `GET /api/csl` but the name and ID. */
export const BatchUrlParams = ScreeningUrlParams.pipe(Schema.omit("name", "id"))

/** Batches are answers to one caller's list: never cached. */
export class ScreeningBatchGroup extends HttpApiGroup.make("screeningBatch")
  .add(
    HttpApiEndpoint.post("cslBatch", "/api/csl/batch")
      .setUrlParams(BatchUrlParams)
      .setPayload(Schema.Union(BatchRequest, BatchCsv))
      .addSuccess(BatchResponse)
      .addError(InvalidRequest)
      .addError(BatchTooLarge)
      .addError(RateLimited)
      .addError(UpstreamUnavailable)
      .annotate(
        OpenApi.Summary,
        `screen up to ${MaxBatchNames} names in one request (JSON or CSV body; NDJSON stream on request)`
      )
      .annotate(
        OpenApi.Description,
        `Screens each party of the body as GET /api/csl would, one result per input line in input order. JSON: ` +
          "`{ names: [name | { name, country, type, id }], ...options }`; CSV (`text/csv`): one name per line, or " +
          "a header row `name,country,type,id`, options as query parameters. With `Accept: " +
          `${NdjsonContentType}\` the results stream as they are screened, one JSON object per line, and the last ` +
          `line is \`{ "summary": … }\`. Body at most ${MaxBatchBytes} bytes. Anonymous callers: a batch counts ` +
          "as its number of names against the per-minute limit (429 when they do not fit). Names are not logged."
      )
  )
  .annotate(IndexGroup, "intel")
  .annotate(CachePolicy, "no-store")
  .annotate(OpenApi.Title, "Screening")
{}
