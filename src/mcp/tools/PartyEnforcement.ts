import { Effect } from "effect"
import { PartyCheckRequest, PartyEnforcementCheck } from "../../domain/PartyEnforcement.ts"
import { PartyEnforcement } from "../../services/PartyEnforcement.ts"
import * as Tool from "../Tool.ts"

/** Enterprise, MCP only: no REST twin (a party name in a URL would reach access and proxy logs). */
export const checkPartyEnforcement = Tool.make({
  name: "check_party_enforcement",
  title: "Check a counterparty's enforcement history",
  description: "Screens one counterparty (aliases, country optional) against BIS, DDTC and DOJ actions, the " +
    "enforcement archive and the Denied Persons List. Per source a status (ok, error, not_configured) and " +
    "scored hits with citations. A failed source is never clear: read `result`. Leads for human review.",
  version: "1.0.0",
  enterprise: true,
  annotations: Tool.readOnly("Check a counterparty's enforcement history", true),
  input: PartyCheckRequest,
  output: Tool.structured(PartyEnforcementCheck),
  run: (request) => Effect.flatMap(PartyEnforcement, (service) => service.check(request))
})

export const partyEnforcementTools = [checkPartyEnforcement] as const
