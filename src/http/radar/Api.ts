import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { RadarParams, RadarResponse } from "../../domain/Radar.ts"
import { IndexGroup } from "../Annotations.ts"

export class RadarGroup extends HttpApiGroup.make("radar")
  .add(
    HttpApiEndpoint.get("radar", "/api/radar")
      .setUrlParams(RadarParams)
      .addSuccess(RadarResponse)
      .annotate(OpenApi.Summary, "recent BIS, DDTC and OFAC rulemaking from the Federal Register, by topic")
      .annotate(
        OpenApi.Description,
        "Recent Federal Register rules and proposed rules of BIS, the State Department (DDTC) and OFAC; `topic` " +
          "narrows to affiliates, ai, firearms, suppressors, country-groups or semiconductors. Each item carries " +
          "the ECCNs and CFR parts it names. Cached about 6 hours. Fails soft: when the Federal Register cannot " +
          "answer, the response is `{ results: [], error }` (or the last good answer with `stale: true`), never 5xx."
      )
  )
  .annotate(IndexGroup, "radar")
  .annotate(OpenApi.Title, "Radar")
{}
