import { Effect } from "effect"
import { PartyCheckRequest, PartyEnforcementCheck } from "../../domain/PartyEnforcement.ts"
import { PartyEnforcement } from "../../services/PartyEnforcement.ts"
import * as Tool from "../Tool.ts"

/** Enterprise, MCP only: no REST twin (a party name in a URL would reach access and proxy logs). */
export const checkPartyEnforcement = Tool.make({
  name: "check_party_enforcement",
  title: "Check a counterparty's enforcement history",
  description: "Screens one counterparty (company or person; optional aliases and country) against every " +
    "enforcement source: BIS, DDTC and DOJ actions of the live feed, the enforcement document archive, and the " +
    "Denied Persons List. Fuzzy name matching (punctuation, legal forms, word order, transliteration) of the " +
    "respondent each record names, or of the title passage when it names none. Answers one group per source " +
    "(status `ok`, `error` or `not_configured`; hits with score 0-100, the matched name, title, date and a " +
    "citation/link) and a one-line `summary`. A source that failed is reported as not checked, never as clear: " +
    "read `result` (`possible_match`, `no_match_found`, `incomplete`). Hits are leads for human review; cite " +
    "records by `citation` and open archive hits with get_enforcement_document. Not a full list screen: use " +
    "search_csl for all screening lists.",
  version: "1.0.0",
  enterprise: true,
  annotations: Tool.readOnly("Check a counterparty's enforcement history", true),
  input: PartyCheckRequest,
  output: Tool.structured(PartyEnforcementCheck),
  run: (request) => Effect.flatMap(PartyEnforcement, (service) => service.check(request))
})

export const partyEnforcementTools = [checkPartyEnforcement] as const
