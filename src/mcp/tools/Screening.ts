import { Effect } from "effect"
import type { InvalidRequest, UpstreamUnavailable } from "../../domain/Problem.ts"
import { MaxPageSize, type ScreeningRequest } from "../../domain/Screening.ts"
import { CompactPageSize, CompactScreeningRequest, SearchCslAnswer } from "../../domain/ScreeningCompact.ts"
import { Screening } from "../../services/Screening.ts"
import { compactAnswer, enginePage } from "../ScreeningCompact.ts"
import * as Tool from "../Tool.ts"

/**
 * REST twin: `GET /api/csl` (`format: "full"` answers exactly its document). By default the
 * compact form: an agent screening four parties reads their hits, not four copies of the notes.
 */
export const searchCsl = Tool.make({
  name: "search_csl",
  title: "Screen parties against the Consolidated Screening List",
  description: "Screens one or several names (any script) against every name and alias of the U.S. " +
    "Consolidated Screening List, fuzzy by default. Compact answer: per name its scored hits with the fields " +
    "to adjudicate; the Affiliates Rule and caveats once. Hits need human adjudication. Public information only.",
  version: "2.0.0",
  annotations: Tool.readOnly("Screen parties against the Consolidated Screening List"),
  input: CompactScreeningRequest,
  output: Tool.structured(SearchCslAnswer),
  run: ({ format, name, names, ...filters }) =>
    Effect.flatMap(Screening, (screening): Effect.Effect<SearchCslAnswer, InvalidRequest | UpstreamUnavailable> => {
      const request = (party: string, page?: { offset: number; size: number }): ScreeningRequest => ({
        ...filters,
        ...page,
        name: party
      })
      const parties = [...(name === undefined ? [] : [name]), ...(names ?? [])]
      if (format === "full") return screening.search(request(parties[0]!))
      const page = { offset: filters.offset ?? 0, size: filters.size ?? CompactPageSize }
      return Effect.map(
        Effect.forEach(parties, (party) =>
          Effect.map(
            screening.search(request(party, enginePage(page.offset, page.size, MaxPageSize))),
            (response) => ({ name: party, response })
          )),
        (screened) => compactAnswer(screened, page)
      )
    })
})

export const screeningTools = [searchCsl] as const
