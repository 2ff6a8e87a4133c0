import { Effect, Stream } from "effect"
import { InvalidRequest, type UpstreamUnavailable } from "../../domain/Problem.ts"
import { MaxPageSize } from "../../domain/Screening.ts"
import { CompactPageSize, CompactScreeningRequest, SearchCslAnswer } from "../../domain/ScreeningCompact.ts"
import { Screening } from "../../services/Screening.ts"
import { compactAnswer, enginePage } from "../ScreeningCompact.ts"
import * as Tool from "../Tool.ts"

/** Which argument held the `at`-th party: `name` comes first when given, then `names`. */
const parameterOf = (at: number, hasName: boolean) =>
  hasName ? (at === 0 ? "name" : `names[${at - 1}]`) : `names[${at}]`

const invalidName = (parameter: string, reason: string) =>
  new InvalidRequest({
    detail: `Invalid parameter: ${parameter} (${reason})`,
    invalidParams: [{ name: parameter, in: "query", reason }]
  })

/**
 * REST twin: `GET /api/csl` (`format: "full"` answers exactly its document). By default the
 * compact form: an agent screening four parties reads their hits, not four copies of the notes.
 */
export const searchCsl = Tool.make({
  name: "search_csl",
  title: "Screen parties against the Consolidated Screening List",
  description: "Screens names (any script) against every name and alias of the Consolidated Screening List, fuzzy " +
    "by default. Compact: per name its scored hits with adjudication fields; Affiliates Rule and caveats once. " +
    "Hits need human review.",
  version: "2.0.0",
  annotations: Tool.readOnly("Screen parties against the Consolidated Screening List"),
  input: CompactScreeningRequest,
  output: Tool.structured(SearchCslAnswer),
  run: ({ format, name, names, ...filters }) =>
    Effect.flatMap(Screening, (screening): Effect.Effect<SearchCslAnswer, InvalidRequest | UpstreamUnavailable> => {
      const parties = [...(name === undefined ? [] : [name]), ...(names ?? [])]
      if (format === "full") return screening.search({ ...filters, name: parties[0]! })
      const page = { offset: filters.offset ?? 0, size: filters.size ?? CompactPageSize }
      // the batch path of POST /api/csl/batch: one list snapshot, every name screened the same way
      const lines = parties.map((party, at) => ({ line: at + 1, name: party }))
      return screening.batch(lines, { ...filters, ...enginePage(page.offset, page.size, MaxPageSize) }).pipe(
        Effect.flatMap((batch) => Stream.runCollect(batch.results)),
        Effect.flatMap((outcomes) =>
          Effect.forEach(outcomes, (outcome) =>
            outcome._tag === "Screened"
              ? Effect.succeed({ name: outcome.name, response: outcome.response })
              : Effect.fail(invalidName(parameterOf(outcome.line - 1, name !== undefined), outcome.reason)))
        ),
        Effect.map((screened) => compactAnswer(screened, page))
      )
    })
})

export const screeningTools = [searchCsl] as const
