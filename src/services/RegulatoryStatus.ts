import { Context, type Effect } from "effect"
import type { AffiliatesRuleStatus } from "../domain/RegulatoryStatus.ts"

/**
 * Dated regulatory facts driven by the Effect `Clock`. This is the contract other services build
 * on (screening reads the Affiliates Rule state); the implementation extends it with the full
 * status document behind `/api/regulatory-status` and the MCP discovery banner.
 */
export interface RegulatoryStatusShape {
  readonly affiliatesRule: Effect.Effect<AffiliatesRuleStatus>
}

export class RegulatoryStatus extends Context.Tag("app/RegulatoryStatus")<RegulatoryStatus, RegulatoryStatusShape>() {}
