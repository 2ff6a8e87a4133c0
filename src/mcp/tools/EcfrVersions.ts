import { Effect, Schema } from "effect"
import { MetaPayload, VersionsPayload } from "../../domain/Cfr.ts"
import { SupportedPartNumber } from "../../domain/Service.ts"
import { metaPayload } from "../../services/ecfr/Meta.ts"
import { EcfrSource } from "../../services/EcfrSource.ts"
import * as Tool from "../Tool.ts"

/** REST twin: `GET /api/ecfr/{part}/versions`. */
export const getEcfrVersions = Tool.make({
  name: "get_ecfr_versions",
  title: "Amendment dates of a CFR part",
  description: "The latest amendment date of each section and supplement of a mirrored part: what applied " +
    "on a past date, and the data date to cite.",
  version: "1.0.0",
  annotations: Tool.readOnly("Amendment dates of a CFR part"),
  input: Schema.Struct({
    part: SupportedPartNumber
  }),
  output: Tool.structured(VersionsPayload),
  run: ({ part }) =>
    Effect.flatMap(
      EcfrSource,
      (source) =>
        Effect.map(source.versions(part), (served) =>
          new Tool.Annotated(served.value, { "svc/ecfrIssueDate": served.issueDate, "svc/stale": served.stale }))
    )
})

/** REST twin: `GET /api/ecfr/meta`. */
export const getEcfrMeta = Tool.make({
  name: "get_ecfr_meta",
  title: "eCFR mirror state",
  description: "The mirrored parts, each one's eCFR issue date and age, and the refresh schedule.",
  version: "1.0.0",
  annotations: Tool.readOnly("eCFR mirror state"),
  input: Schema.Struct({}),
  output: Tool.structured(MetaPayload),
  run: () => metaPayload
})

export const ecfrVersionTools = [getEcfrVersions, getEcfrMeta] as const
