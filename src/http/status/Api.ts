import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { RegulatoryStatusDocument } from "../../domain/RegulatoryStatus.ts"
import { IndexGroup } from "../Annotations.ts"

export class RegulatoryStatusGroup extends HttpApiGroup.make("regulatoryStatus")
  .add(
    HttpApiEndpoint.get("status", "/api/regulatory-status")
      .addSuccess(RegulatoryStatusDocument)
      .annotate(
        OpenApi.Summary,
        "dated regulatory status: Affiliates Rule, suppressor transfer, AI Diffusion rescission, destination " +
          "notes, advanced-computing guidance"
      )
      .annotate(
        OpenApi.Description,
        "States are computed for today's date (UTC) from a versioned data module of dated facts with " +
          "citations; each item carries its next transition and the days until it."
      )
  )
  .annotate(IndexGroup, "ecfr")
  .annotate(OpenApi.Title, "Regulatory status")
{}
