import { Effect } from "effect"
import { ScreeningRequest, ScreeningResponse } from "../../domain/Screening.ts"
import { Screening } from "../../services/Screening.ts"
import * as Tool from "../Tool.ts"

/** REST twin: `GET /api/csl`. */
export const searchCsl = Tool.make({
  name: "search_csl",
  title: "Screen a party against the Consolidated Screening List",
  description: "Screens a name (any script) against every name and alias of the U.S. Consolidated Screening List " +
    "(Entity List, MEU, UVL, DPL, ISN, DTC, SDN, SSI, FSE, PLC …), fuzzy by default, with scores, programs, " +
    "addresses and ids. A match is not a determination: every hit is for human adjudication, and a clear " +
    "screen is not ownership diligence (see `affiliates_rule` and `ownership_trace`). Send only public " +
    "information.",
  version: "1.0.0",
  annotations: Tool.readOnly("Screen a party against the Consolidated Screening List"),
  input: ScreeningRequest,
  output: Tool.structured(ScreeningResponse),
  run: (request) => Effect.flatMap(Screening, (screening) => screening.search(request))
})

export const screeningTools = [searchCsl] as const
