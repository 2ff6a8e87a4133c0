import { Effect, Schema } from "effect"
import { RegulatoryStatusDocument } from "../../domain/RegulatoryStatus.ts"
import { RegulatoryStatus } from "../../services/RegulatoryStatus.ts"
import * as Tool from "../Tool.ts"

/** REST twin: `GET /api/regulatory-status`. */
export const getRegulatoryStatus = Tool.make({
  name: "get_regulatory_status",
  title: "Regulatory status today",
  description: "Dated status today of moving rules (Affiliates Rule, suppressor ECCNs, AI Diffusion rescission, " +
    "destinations, advanced computing) with next transitions and citations. Call before relying on them.",
  version: "1.0.0",
  annotations: Tool.readOnly("Regulatory status today"),
  input: Schema.Struct({}),
  output: Tool.structured(RegulatoryStatusDocument),
  run: () => Effect.flatMap(RegulatoryStatus, (status) => status.document)
})

export const regulatoryStatusTools = [getRegulatoryStatus] as const
