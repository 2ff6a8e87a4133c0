import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { RegulatoryStatus } from "../../services/RegulatoryStatus.ts"
import { Api } from "../Api.ts"

export const RegulatoryStatusHttpLive = HttpApiBuilder.group(
  Api,
  "regulatoryStatus",
  (handlers) => Effect.map(RegulatoryStatus, (status) => handlers.handle("status", () => status.document))
)
