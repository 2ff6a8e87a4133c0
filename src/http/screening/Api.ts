import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { UpstreamUnavailable } from "../../domain/Problem.ts"
import { DefaultMinScore, ScreeningResponse, ScreeningUrlParams } from "../../domain/Screening.ts"
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
          "missing middle names, legal-form changes and split or joined words. Every response carries " +
          "`affiliates_rule` and `ownership_trace`: a name screen is not ownership diligence. Party names are not " +
          "logged."
      )
  )
  .annotate(IndexGroup, "intel")
  .annotate(CachePolicy, "screening")
  .annotate(OpenApi.Title, "Screening")
{}
