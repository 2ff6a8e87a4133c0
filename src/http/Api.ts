import { HttpApi, OpenApi } from "@effect/platform"
import { InternalError, InvalidRequest } from "../domain/Problem.ts"
import { ServiceName, ServiceVersion } from "../domain/Service.ts"
import { CountryChartGroup } from "./country/Api.ts"
import { DocumentFilesGroup, DocumentsGroup } from "./documents/Api.ts"
import { EccnGroup } from "./eccn/Api.ts"
import { EcfrGroup } from "./ecfr/Api.ts"
import { EnforcementGroup } from "./enforcement/Api.ts"
import { McpGroup } from "./mcp/Api.ts"
import { describeDecodeFailuresAsProblems } from "./OpenApiDocument.ts"
import { RadarGroup } from "./radar/Api.ts"
import { ResearchGroup } from "./research/Api.ts"
import { ScreeningBatchGroup, ScreeningGroup } from "./screening/Api.ts"
import { ServiceGroup } from "./service/Api.ts"
import { SkillsGroup } from "./skills/Api.ts"
import { RegulatoryStatusGroup } from "./status/Api.ts"

const annotations = () =>
  OpenApi.annotations({
    title: ServiceName,
    version: ServiceVersion,
    description,
    transform: describeDecodeFailuresAsProblems
  })

const description = "Citable access to U.S. export-control regulations (EAR 15 CFR 730-774, ITAR 22 CFR 121): " +
  "eCFR mirror, ECCN and Country Chart answers, screening, enforcement, research, skills and MCP. " +
  "Not legal advice: screening matches are for human adjudication. " +
  "Regulatory data comes from stored eCFR snapshots; when eCFR cannot be reached and an older snapshot answers, " +
  "the response carries `X-Data-Stale: true; fetched-at=<ISO time>; issue-date=<YYYY-MM-DD>`, and every eCFR " +
  "response names its eCFR issue in `X-Ecfr-Issue-Date`."

/** The free surface: what anonymous callers see in `/openapi.json` and the reference page. */
export class PublicApi extends HttpApi.make("export-compliance-data-service")
  .add(ServiceGroup)
  .add(EcfrGroup)
  .add(EccnGroup)
  .add(CountryChartGroup)
  .add(RegulatoryStatusGroup)
  .add(RadarGroup)
  .add(ResearchGroup)
  .add(EnforcementGroup)
  .add(SkillsGroup)
  .add(ScreeningGroup)
  .add(ScreeningBatchGroup)
  .add(McpGroup)
  .addError(InvalidRequest)
  .addError(InternalError)
  .annotateContext(annotations())
{}

/** The full REST surface served by the app: the free surface, the enterprise documents and their download links. */
export class Api extends PublicApi.add(DocumentsGroup).add(DocumentFilesGroup) {}
