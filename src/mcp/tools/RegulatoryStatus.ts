import { Effect, Schema } from "effect"
import { RegulatoryStatusDocument } from "../../domain/RegulatoryStatus.ts"
import { RegulatoryStatus } from "../../services/RegulatoryStatus.ts"
import * as Tool from "../Tool.ts"

/** REST twin: `GET /api/regulatory-status`. */
export const getRegulatoryStatus = Tool.make({
  name: "get_regulatory_status",
  title: "Regulatory status today",
  description: "Dated status of moving export-control rules as of today (UTC): the Affiliates Rule " +
    "(suspended or in force, snap-back date), the transfer of suppressors to ECCNs 0A501.f and 0A502.f, the AI " +
    "Diffusion rescission, destination notes and advanced-computing guidance, each with its next transition and " +
    "Federal Register / CFR citations. Call it before relying on any of these rules.",
  version: "1.0.0",
  annotations: Tool.readOnly("Regulatory status today"),
  input: Schema.Struct({}),
  output: Tool.structured(RegulatoryStatusDocument),
  run: () => Effect.flatMap(RegulatoryStatus, (status) => status.document)
})

export const regulatoryStatusTools = [getRegulatoryStatus] as const
