import { Effect, Schema } from "effect"
import { RegulatoryStatusDocument } from "../../domain/RegulatoryStatus.ts"
import { RegulatoryStatus } from "../../services/RegulatoryStatus.ts"
import * as Tool from "../Tool.ts"

/** REST twin: `GET /api/regulatory-status`. */
export const getRegulatoryStatus = Tool.make({
  name: "get_regulatory_status",
  title: "Regulatory status today",
  description: "Dated status today of moving rules (Affiliates Rule, suppressors to 0A501.f/0A502.f, AI Diffusion " +
    "rescission, destination notes, advanced computing), each with its next transition and citations. " +
    "Call before relying on any of them.",
  version: "1.0.0",
  annotations: Tool.readOnly("Regulatory status today"),
  input: Schema.Struct({}),
  output: Tool.structured(RegulatoryStatusDocument),
  run: () => Effect.flatMap(RegulatoryStatus, (status) => status.document)
})

export const regulatoryStatusTools = [getRegulatoryStatus] as const
